//! `saddlefw tighten`: the search of [`super::search`] over the selected entries, its table,
//! `DIR/tighten.json`, and the fixtures (`--write-fixtures`).

use super::resume::{Arguments, TightenRecord};
use super::search::{self, EntrySearch, SearchConfig};
use super::{fixture_file, load_dir, note, HardFixture};
use crate::theorems::TheoremEntry;
use crate::Result;
use std::path::PathBuf;

/// `saddlefw tighten` flags.
#[derive(Debug, clap::Args)]
pub struct TightenArgs {
    /// Only the entries whose id contains FILTER (e.g. lmo-po/ or nc-c/dual).
    #[arg(long, value_name = "FILTER")]
    pub cases: Option<String>,
    /// Search budget per entry in seconds (random search + refinement; the confirmation runs
    /// of the finalists come on top).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 20.0,
        allow_negative_numbers = true
    )]
    pub budget: f64,
    /// Output directory (tighten.json).
    #[arg(long, value_name = "DIR", default_value = "reports/tighten")]
    pub out: PathBuf,
    /// Worker threads (default: one per core; at most 4 per core, a larger N is capped).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub jobs: Option<i64>,
    /// Seed of the candidate sequence.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Search horizon T (also the horizon verify runs the stored instances at).
    #[arg(long, value_name = "T", default_value_t = 1 << 14)]
    pub horizon: u64,
    /// Fixture directory (read for the incumbents, written with --write-fixtures).
    #[arg(long, value_name = "DIR", default_value = "fixtures/hard")]
    pub fixtures: PathBuf,
    /// (Re)write the fixture of every searched entry whose winner is at least as hard as the
    /// stored instance (the stored one competes as an incumbent).
    #[arg(long)]
    pub write_fixtures: bool,
    /// Stop each entry's search after N candidate evaluations (with a budget large enough,
    /// the search is then independent of the machine's speed: reproducible and resumable to
    /// the same result).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_evals: Option<i64>,
    /// Finish the search recorded in DIR (its journal DIR/tighten.json.journal after a kill,
    /// else DIR/tighten.json): its searched entries are kept, the others searched. The record
    /// must come from this build and the same arguments (else exit 2 with the reason).
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// Every searched entry is appended to DIR/tighten.json.journal at once (a kill loses only
    /// the entry in progress), flushed to disk at most every S seconds.
    #[arg(long, value_name = "S", default_value_t = crate::resume::CHECKPOINT_EVERY_S, allow_negative_numbers = true)]
    pub checkpoint_every: f64,
}

/// The search settings and the job-defining arguments of `tighten` from its flags.
fn search_config(args: &TightenArgs) -> Result<(SearchConfig, Arguments)> {
    let max_evals = match args.max_evals {
        Some(n) if n < 1 => {
            return Err(crate::Error::invalid(
                "--max-evals",
                format!("must be at least 1, got {n}"),
            ))
        }
        n => n.map(|n| n as usize),
    };
    let cfg = SearchConfig {
        budget_s: args.budget,
        horizon: args.horizon,
        seed: args.seed,
        jobs: crate::jobs::positive_jobs(args.jobs)?,
        max_evals,
        ..SearchConfig::default()
    };
    let arguments = Arguments {
        cases: args.cases.clone(),
        fixtures: args.fixtures.display().to_string(),
        write_fixtures: args.write_fixtures,
    };
    Ok((cfg, arguments))
}

/// `saddlefw tighten`.
pub fn cmd_tighten(args: TightenArgs) -> Result<i32> {
    crate::files::check_outputs(
        &crate::files::files_in(&args.fixtures),
        "--out",
        &args.out,
        &[args.out.join("tighten.json")],
    )?;
    let every = crate::resume::interval("--checkpoint-every", args.checkpoint_every)?;
    let (cfg, arguments) = search_config(&args)?;
    let table = crate::theorems::builtin();
    let selected = table
        .iter()
        .filter(|e| args.cases.as_deref().map_or(true, |f| e.id.contains(f)))
        .count();
    let mut ledger = super::resume::ledger(args.resume.as_deref(), &arguments, &cfg)?;
    let incumbents = load_dir(&args.fixtures)?;
    let path = args.out.join("tighten.json");
    ledger.start_journal(&path, selected, every)?;
    outln!(
        "{:<26} {:>6} {:>7} {:>17} {:>6} {:>9} {:<15} {:>7} note",
        "entry",
        "p",
        "p_hat",
        "ci",
        "evals",
        "confirmed",
        "family",
        "below"
    );
    let write = args.write_fixtures;
    let fixtures_dir = args.fixtures.clone();
    let mut done = |e: &TheoremEntry, r: &EntrySearch| -> Result<()> {
        match &r.winner {
            None => outln!("{:<26} {:>6.3} no usable candidate", r.id, r.p),
            Some(w) => {
                let note = note(r.p, w.p_hat, Some((w.ci[0], w.ci[1])), w.tol);
                outln!(
                    "{:<26} {:>6.3} {:>7.3} {:>17} {:>6} {:>9} {:<15} {:>7} {}",
                    r.id,
                    r.p,
                    w.p_hat,
                    format!("[{:.3}, {:.3}]", w.ci[0], w.ci[1]),
                    r.evaluations,
                    w.confirmed,
                    w.family,
                    r.below_rate
                        .as_ref()
                        .map_or("-".to_string(), |b| format!("{:.3}", b.p_hat)),
                    note
                );
                if write {
                    crate::files::create_dir_all(&fixtures_dir)?;
                    let fx = HardFixture::from_winner(e, w, r, &cfg);
                    let p = fixtures_dir.join(fixture_file(&e.id));
                    crate::files::write_atomic(&p, fx.to_json().as_bytes())?;
                }
            }
        }
        if ledger.get(&r.id).is_none() {
            ledger.done(r);
        }
        use std::io::Write;
        let _ = std::io::stdout().flush();
        Ok(())
    };
    crate::interrupt::stop_at(crate::interrupt::Boundary::Job);
    let results = search::search(
        &table,
        args.cases.as_deref(),
        &cfg,
        &incumbents,
        ledger.reused(),
        &mut done,
    )?;
    let interrupted = crate::resume::Interruption::now(results.len(), selected);
    if let Some(i) = &interrupted {
        crate::console::write_stderr(format_args!("{}\n", i.finish_line("entries", &args.out)));
    }
    crate::files::create_dir_all(&args.out)?;
    let record = TightenRecord {
        build: crate::build_info::Build::current(),
        inputs: arguments.inputs()?,
        config: cfg,
        arguments,
        entries: results,
        interrupted,
    };
    crate::files::write_atomic(
        &path,
        (serde_json::to_string_pretty(&record).expect("serialises") + "\n").as_bytes(),
    )?;
    ledger.finish();
    outln!("wrote {}", path.display());
    Ok(crate::error::EXIT_OK)
}
