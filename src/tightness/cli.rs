//! `saddlefw tighten`: the search of [`super::search`] over the selected entries, its table,
//! `DIR/tighten.json`, and the fixtures (`--write-fixtures`).

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
}

/// `saddlefw tighten`.
pub fn cmd_tighten(args: TightenArgs) -> Result<i32> {
    let jobs = crate::cli::positive_jobs(args.jobs)?;
    crate::files::check_outputs(
        &crate::files::json_files_in(&args.fixtures),
        "--out",
        &args.out,
        &[args.out.join("tighten.json")],
    )?;
    let cfg = SearchConfig {
        budget_s: args.budget,
        horizon: args.horizon,
        seed: args.seed,
        jobs,
        ..SearchConfig::default()
    };
    let table = crate::theorems::builtin();
    let incumbents = load_dir(&args.fixtures)?;
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
                    crate::trace::write_atomic(&p, fx.to_json().as_bytes())?;
                }
            }
        }
        use std::io::Write;
        let _ = std::io::stdout().flush();
        Ok(())
    };
    crate::interrupt::stop_at(crate::interrupt::Boundary::Job);
    let results = search::search(&table, args.cases.as_deref(), &cfg, &incumbents, &mut done)?;
    crate::files::create_dir_all(&args.out)?;
    let selected = table
        .iter()
        .filter(|e| args.cases.as_deref().map_or(true, |f| e.id.contains(f)))
        .count();
    let interrupted = crate::resume::Interruption::now(results.len(), selected);
    let mut json = serde_json::json!({ "config": cfg, "entries": results });
    if let Some(i) = &interrupted {
        json["interrupted"] = serde_json::to_value(i).expect("serialises");
        crate::cli::write_stderr(format_args!("{}\n", i.describe("entries")));
    }
    let path = args.out.join("tighten.json");
    crate::trace::write_atomic(
        &path,
        (serde_json::to_string_pretty(&json).expect("serialises") + "\n").as_bytes(),
    )?;
    outln!("wrote {}", path.display());
    Ok(crate::error::EXIT_OK)
}
