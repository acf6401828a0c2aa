//! `saddlefw merge`: the shards of `verify --shard` or `check --shard` into one report.

use super::check::write_check_outputs;
use super::{check_output_paths, EXIT_FAILED, EXIT_OK};
use crate::error::{Error, Result};
use clap::Args;
use std::path::{Path, PathBuf};

/// `saddlefw merge` flags.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard outputs: directories written by `saddlefw verify --shard I/N` (each holds a
    /// verify.json), or the CHECK.json files of `saddlefw check --shard I/N` (or their
    /// directories).
    #[arg(required = true, value_name = "DIR|FILE")]
    pub dirs: Vec<PathBuf>,
    /// Where to write the merged report: verify.json and index.html (default reports/verify),
    /// or CHECK.json and index.html (default reports/check).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Stored exponents for the regression gate, instead of the copy built into the binary.
    #[arg(long, value_name = "FILE")]
    pub baselines: Option<PathBuf>,
}

/// Which command's shard outputs `saddlefw merge` was given.
#[derive(Debug, Clone, Copy, PartialEq)]
enum ShardKind {
    Verify,
    Check,
}

/// A merge input: a directory holding verify.json or CHECK.json, or one of those files.
fn shard_input(path: &Path) -> Result<(ShardKind, PathBuf)> {
    let kind_of = |p: &Path| match p.file_name().and_then(|n| n.to_str()) {
        Some("verify.json") => Some(ShardKind::Verify),
        Some(n) if n.eq_ignore_ascii_case("CHECK.json") => Some(ShardKind::Check),
        _ => None,
    };
    if path.is_dir() {
        let found: Vec<(ShardKind, PathBuf)> = ["verify.json", "CHECK.json"]
            .iter()
            .map(|f| path.join(f))
            .filter(|p| p.is_file())
            .filter_map(|p| kind_of(&p).map(|k| (k, p)))
            .collect();
        match found.len() {
            1 => Ok(found.into_iter().next().expect("one")),
            0 => Err(Error::input(
                path.display().to_string(),
                "directory",
                "holds neither verify.json nor CHECK.json (not a shard output)",
            )),
            _ => Err(Error::input(
                path.display().to_string(),
                "directory",
                "holds both verify.json and CHECK.json: name the file to merge",
            )),
        }
    } else if let Some(k) = kind_of(path) {
        Ok((k, path.to_path_buf()))
    } else if !path.exists() {
        Err(Error::input(
            path.display().to_string(),
            "path",
            "no such file or directory",
        ))
    } else {
        Err(Error::input(
            path.display().to_string(),
            "file name",
            "expected a shard directory, verify.json or CHECK.json",
        ))
    }
}

/// `saddlefw merge`.
pub fn cmd_merge(args: MergeArgs) -> Result<i32> {
    use crate::verify::{shard, VerifyReport};
    let mut inputs = Vec::new();
    for p in &args.dirs {
        inputs.push(shard_input(p)?);
    }
    let kind = inputs[0].0;
    if let Some((_, p)) = inputs.iter().find(|(k, _)| *k != kind) {
        return Err(Error::input(
            p.display().to_string(),
            "kind",
            "mixes verify and check shard outputs",
        ));
    }
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from(match kind {
            ShardKind::Verify => "reports/verify",
            ShardKind::Check => "reports/check",
        })
    });
    let outputs = match kind {
        ShardKind::Verify => [out.join("verify.json"), out.join("index.html")],
        ShardKind::Check => check_output_paths(&out).into(),
    };
    let mut read: Vec<PathBuf> = inputs.iter().map(|(_, p)| p.clone()).collect();
    read.extend(args.baselines.clone());
    crate::files::check_outputs(&read, "--out", &out, &outputs)?;
    let mut texts = Vec::new();
    for (_, path) in &inputs {
        let name = path.display().to_string();
        let text = crate::files::read_text(path)?;
        texts.push((name, text));
    }
    if kind == ShardKind::Check {
        let merged = crate::invariants::check::merge_shards(&texts)?;
        let (json, html) = write_check_outputs(&merged, &out)?;
        out!("{}", merged.table());
        outln!("wrote {} and {}", json.display(), html.display());
        return Ok(if merged.passed() {
            EXIT_OK
        } else {
            EXIT_FAILED
        });
    }
    let mut shards = Vec::new();
    for (name, text) in &texts {
        shards.push(VerifyReport::parse(name, text)?);
    }
    let (table, opts) = merge_options(&shards, &texts[0].0, args.baselines.as_deref())?;
    let merged = shard::merge_table(shards, &table, &opts)?;
    let (json_path, html_path) =
        merged.write_outputs(&out, &crate::invariants::verify_page_tables()?)?;
    out!("{}", merged.table());
    outln!("wrote {} and {}", json_path.display(), html_path.display());
    Ok(if merged.failed { EXIT_FAILED } else { EXIT_OK })
}

/// The theorem table and options of a verify merge from what the shards recorded
/// ([`crate::fingerprint`]): their `--theorems` file, their `--hard` directory or `--no-hard`
/// (the stored hardest instances run once, in the merge; shards skip them) and their
/// `--baselines` file, each read again and checked to be unchanged. `baselines` (merge's
/// own flag) must agree with the shards' when they recorded one. `first` names the first
/// shard in errors (the shards are checked to agree with it by [`crate::ledger::shard::gather`]).
fn merge_options(
    shards: &[crate::verify::VerifyReport],
    first: &str,
    baselines: Option<&Path>,
) -> Result<(
    Vec<crate::theorems::TheoremEntry>,
    crate::verify::VerifyOptions,
)> {
    let Some(r) = shards.first() else {
        return Err(Error::invalid("merge", "no shard outputs given"));
    };
    let inputs = &r.inputs;
    let mut opts = crate::verify::VerifyOptions::new(r.tier);
    let table = match inputs.reread(first, "merge", "--theorems")? {
        Some(f) => crate::paper::user::load(&f)?,
        None => crate::theorems::builtin(),
    };
    let hard = match inputs.reread(first, "merge", "--hard")? {
        Some(dir) => Some(crate::tightness::HardSource::Dir(dir)),
        None if inputs.get("--no-hard").is_some() => None,
        None => Some(crate::tightness::HardSource::Builtin),
    };
    if r.tier != crate::verify::Tier::Test {
        opts.hard = hard.map(Into::into);
    }
    let recorded = inputs.reread(first, "merge", "--baselines")?;
    if let (Some(given), Some(_)) = (baselines, &recorded) {
        let now = crate::fingerprint::Inputs::default().file("--baselines", given)?;
        let was = crate::fingerprint::Inputs(
            inputs
                .0
                .iter()
                .filter(|i| i.option == "--baselines")
                .cloned()
                .collect(),
        );
        was.check(first, "merge", &now)?;
    }
    if let Some(p) = baselines.or(recorded.as_deref()) {
        opts.baselines = crate::fit::load_baselines(p)?;
    }
    Ok((table, opts))
}
