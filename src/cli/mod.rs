//! The command line: clap definitions (raw strings and numbers) and their validation into
//! typed values, one function per subcommand. `main.rs` only calls [`main`].
//!
//! Exit codes: 0 success; 1 a check or gate failed; 2 a usage or input error, reported as one
//! line `error: ...` naming the input. A run that diverges is data, not an error: RUN.json is
//! written with status "diverged" and the exit code is 0.
//!
//! Adding a subcommand: a variant of [`Command`] with its `Args` struct (help with
//! `after_help` examples and exit codes), and a `cmd_*` function returning the exit code, in a file of its own under `cli/`.
//!
//! ```
//! use saddlefw::cli::{main_with_args, EXIT_OK, EXIT_USAGE};
//! assert_eq!(main_with_args(["saddlefw", "--version"]), EXIT_OK);
//! // prints `error: invalid --cases: must be at least 1, got 0` on stderr
//! assert_eq!(main_with_args(["saddlefw", "check", "--cases", "0"]), EXIT_USAGE);
//! ```

mod calibrate;
mod check;
mod export;
mod list;
mod merge;
mod report;
mod run;
mod verify;
mod verify_iterates;

use crate::console::write_stderr;
use clap::{Parser, Subcommand};
use std::ffi::OsString;

pub use crate::error::{EXIT_FAILED, EXIT_OK, EXIT_USAGE};
pub use check::CheckArgs;
pub(crate) use check::{check_output_paths, cmd_check};
pub(crate) use export::cmd_export;
pub use export::ExportArgs;
pub(crate) use list::cmd_list;
pub(crate) use merge::{cmd_merge, MergeArgs};
pub(crate) use report::cmd_report;
pub use report::ReportArgs;
pub(crate) use run::cmd_run;
pub use run::{load_problem, RunArgs, RunPlan};
pub(crate) use verify::cmd_verify;
pub use verify::VerifyArgs;
pub(crate) use verify_iterates::cmd_verify_iterates;
pub use verify_iterates::VerifyIteratesArgs;

/// The top-level help after the subcommand list.
const MAIN_AFTER_HELP: &str = "\
Exit codes:
  0  success
  1  a check or gate failed (check: a gating invariant was violated; verify, merge: a gate failed)
  2  a usage or input error: one line `error: ...` naming the input, the location and the reason
     (also a run that diverged: RUN.json is written with every checkpoint before it)
A closed stdout (`saddlefw list | head -1`) changes neither the files written nor the exit code.

Examples:
  saddlefw list
  saddlefw run --problem quadratic/nc-c:dx=20,dy=10 --algo lmo-lmo --iters 1000 --out RUN.json
  saddlefw run --problem my-problem.json --algo po-lmo --iters 500 --out RUN.json
  saddlefw check --cases 200 --seed 0 --out CHECK.json
  saddlefw verify --tier quick --out reports/verify
  saddlefw experiment dl --time-limit 60 --out reports/dl
  saddlefw COMMAND --help                          # every command's options, examples, exit codes

Progress is drawn on stderr when it is a terminal (never in pipes or CI logs); --quiet turns it off.";

/// saddlefw: executable checks of "Projection-Free Algorithms for Minimax Problems".
///
/// Runs the paper's algorithms (LMO-LMO, LMO-PO, PO-LMO) and baselines on generated or
/// user-supplied saddle-point problems, measures the paper's gaps exactly, and checks the
/// paper's inequalities and rates.
#[derive(Debug, Parser)]
#[command(name = "saddlefw", version, about, after_help = MAIN_AFTER_HELP)]
pub(crate) struct Cli {
    /// No progress display on stderr; `run` prints nothing on success, `verify` only its
    /// summary line.
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run one algorithm on one problem and write RUN.json.
    ///
    /// The problem is a generator spec (seeded random instance with certified constants) or a
    /// problem file (JSON format saddlefw-quadratic-v1, see the README). Measures (G_X^LMO,
    /// G_X^PO, G_Y, G_Y^LMO, H_t, G^Opt) are evaluated at log2-spaced iterates by default. A
    /// run whose iterates or gradients become non-finite stops, records the iteration and the
    /// cause, keeps what was measured before in RUN.json, and exits 2 with one error line.
    #[command(after_help = "\
Examples:
  saddlefw run --problem quadratic/nc-c:dx=20,dy=10 --algo lmo-lmo --iters 1000 --out RUN.json
  saddlefw run --problem saddle/c-sc+sc:dx=50,dy=20,seed=3 --algo lmo-po --iters 4096 \\
               --checkpoints all --out RUN.json
  saddlefw run --problem problem.json --algo po-lmo --iters 500 --time-limit 10 --out RUN.json
  saddlefw run --problem cosine/nc-c:dx=8,dy=4 --algo lmo-lmo --iters 1000 \\
               --tau-schedule 'shifted(c=1,s=10,a=0.8)' --beta-schedule 'anytime(c=0.1,a=0.2)' --out RUN.json

Exit codes: 0 written, 2 usage or input error, or the run diverged (non-finite values: RUN.json
is still written, with the iteration, the cause and every checkpoint before it).")]
    Run(Box<RunArgs>),
    /// List algorithms, schedules, theorem cases, invariants, sets and generator families.
    ///
    /// Everything is printed from the registries the commands use: algorithms (with
    /// provenance and oracle calls per iteration), schedule notations, the paper's default
    /// schedules, the theorem table, the invariants, set kinds and generator families.
    #[command(after_help = "\
Examples:
  saddlefw list
  saddlefw list | grep -A2 '^  po-lmo'

Exit codes: 0 printed, 2 usage error (an unknown option).")]
    List,
    /// Run the paper's experiments (Figure 1, Table 3): all seven algorithms on DL, NEWS20 or
    /// RCV1; writes DIR/experiment.json and DIR/index.html.
    ///
    /// Every algorithm gets the paper's schedules and parameters and a budget of solver time;
    /// a progress line per algorithm is drawn on stderr when it is a terminal.
    #[command(after_help = "\
Examples:
  saddlefw experiment dl --time-limit 300 --out reports/dl
  saddlefw experiment news20 --data /path/to/news20.bz2 --time-limit 60
  saddlefw experiment rcv1 --data rcv1_train.multiclass.bz2 --rows 20000 --seed 1
  saddlefw experiment dl --rerender --out reports/dl     # re-judge and redraw, run nothing

Exit codes: 0 written, 2 usage or input error (a malformed data file names the file and line).")]
    Experiment(crate::experiments::command::ExperimentArgs),
    /// Verify every theorem entry's rate on generated instances; write DIR/verify.json and
    /// DIR/index.html.
    ///
    /// For each entry of the theorem table (fixtures/theorems.json), runs the algorithm with
    /// the theorem's schedule on generated instances, fits the log-log slope of the bounded
    /// quantity, and gates it against the theorem's exponent, the bound's constant and the
    /// recorded baselines. Exit code 1 when a gate fails.
    #[command(after_help = "\
Examples:
  saddlefw verify                                  # quick tier, all entries, reports/verify/
  saddlefw verify --tier full --jobs 2
  saddlefw verify --cases lmo-po/ --out /tmp/v     # only the LMO-PO entries
  saddlefw verify --write-baselines                # refresh fixtures/rate_baselines.json

Exit codes: 0 every gate passes, 1 a gate failed, 2 usage or input error.")]
    Verify(VerifyArgs),
    /// Check every inequality of the paper (claims.md Sec. 4) on random instances and runs.
    ///
    /// Exit 1 on a violation of a gating invariant. Printed forms of recorded slips are
    /// reported as errata and never gate.
    #[command(after_help = "\
Examples:
  saddlefw check --cases 200 --seed 0 --out CHECK.json
  saddlefw check --cases 20 --quiet          # a quick pass, no progress bar
  saddlefw check --list                      # the registry: names, labels, statements
  saddlefw check --list --markdown > docs/invariants.md
  saddlefw check --cases 600 --shard 1/3 --out s1/CHECK.json   # and 2/3, 3/3 elsewhere
  saddlefw merge s1 s2 s3 --out reports/check

Exit codes: 0 every gating invariant holds, 1 a violation (in a shard: in its jobs),
2 usage or input error (e.g. an unwritable --out).")]
    Check(CheckArgs),
    /// Merge the outputs of `saddlefw verify --shard I/N` or `saddlefw check --shard I/N`
    /// (all N shards) into the report a single machine would have written.
    ///
    /// For verify, the merge re-judges every entry on the runs of all shards (and runs the
    /// stored hard instances once); for check, it folds the shards' per-job tallies in job
    /// order. Missing, duplicate or mismatched shards are refused.
    #[command(after_help = "\
Examples:
  saddlefw verify --shard 1/3 --out s1             # and 2/3, 3/3 on other machines
  saddlefw merge s1 s2 s3 --out reports/verify
  saddlefw check --shard 1/2 --out c1/CHECK.json   # and 2/2
  saddlefw merge c1 c2 --out reports/check         # CHECK.json and index.html

Exit codes: 0 every gate passes, 1 a gate failed, 2 usage or input error (a bad shard).")]
    Merge(MergeArgs),
    /// Render RUN.json files as one self-contained HTML page.
    ///
    /// Several algorithms on one problem: the measure against iteration and against solver
    /// time, one line per algorithm.
    #[command(after_help = "\
Examples:
  for a in lmo-lmo lmo-po sp-fw; do
    saddlefw run --problem saddle/c-c:dx=30,dy=10 --algo $a --iters 2000 --out $a.json
  done
  saddlefw report lmo-lmo.json lmo-po.json sp-fw.json --out runs.html
  saddlefw report lmo-lmo.json --measure gap_opt --out gap.html

Exit codes: 0 written, 2 usage or input error (a malformed RUN.json names the file and line).")]
    Report(ReportArgs),
    /// Search the hard instance families for the instance on which each theorem entry's
    /// observed exponent is smallest; write DIR/tighten.json (and fixtures/hard/ with
    /// --write-fixtures).
    ///
    /// A search, not a gate: the stored fixtures are what `saddlefw verify` gates on.
    #[command(after_help = "\
Examples:
  saddlefw tighten --cases lmo-po/ --budget 30
  saddlefw tighten --budget 60 --jobs 2 --write-fixtures

Exit codes: 0 searched and written, 2 usage or input error (a malformed fixture names the file).")]
    Tighten(crate::tightness::TightenArgs),
    /// Measure the gates' false-alarm rate and power: every entry's gates over a panel of
    /// legitimate variants of saddlefw's solver (other seeds, schedule constants and offsets
    /// the proofs allow, other starts, another floating-point order: must pass) and a panel of
    /// faulty ones (must fail); write DIR/calibration.json and DIR/calibration.md.
    #[command(after_help = "\
Examples:
  saddlefw calibrate --out reports/calibration          # the table of docs/calibration.md
  saddlefw calibrate --cases po-lmo/ --variants beta-scale*2,seed=1

Exit codes: 0 no false alarm and every rate-changing faulty variant caught, 1 otherwise,
2 usage or input error.")]
    Calibrate(calibrate::CalibrateArgs),
    /// Export the instances, start points and schedules of verify's jobs for a solver written
    /// in any language; write DIR/manifest.json and DIR/jobs/ID/{problem,schedule}.json.
    ///
    /// The user's solver then writes its iterates (t, x_t, y_t) for t = 0..=t_last of each job
    /// to DIR/jobs/ID/iterates.jsonl (JSON Lines, see the README, "Formats"), and `saddlefw
    /// verify-iterates DIR` judges them exactly as `verify` judges the crate's own solvers.
    /// Only quadratic instances can be exported (the cosine families are listed as not
    /// exported in the manifest and are not judged).
    #[command(after_help = "\
Examples:
  saddlefw export --cases lmo-lmo/ --out /tmp/exp
  saddlefw export --cases lmo-lmo/c-sc+sc --tier quick --out /tmp/exp
  python3 examples/python/lmo_lmo.py /tmp/exp

Exit codes: 0 written, 2 usage or input error (e.g. no selected job can be exported),
130/143/129 --write-iterates stopped by SIGINT/SIGTERM/SIGHUP (finish it with --resume DIR).")]
    Export(ExportArgs),
    /// Judge the iterates of an external solver on the jobs of `saddlefw export` exactly as
    /// `verify` judges the crate's own solvers; write OUT/verify.json and OUT/index.html.
    ///
    /// Every measure is recomputed from the iterates (x_t, y_t); fits, gates, envelopes,
    /// hard-instance gates and the report are verify's. Each iterate must lie in X x Y (up to
    /// 1e-9 (1 + diameter)) and iterate 0 must be the exported start point.
    #[command(after_help = "\
Examples:
  saddlefw export --cases lmo-lmo/c-sc+sc --out /tmp/exp
  python3 examples/python/lmo_lmo.py /tmp/exp
  saddlefw verify-iterates /tmp/exp --out /tmp/exp-report
  python3 examples/python/lmo_lmo.py /tmp/exp --slowed --out /tmp/slow
  saddlefw verify-iterates /tmp/exp --iterates /tmp/slow --out /tmp/slow-report   # exit 1
  saddlefw verify-iterates /tmp/exp --against lmo-lmo   # where do my iterates depart?

Exit codes: 0 every gate passes (and, with --against, no job departs), 1 a gate failed or a
job departs from saddlefw's ALGO, 2 usage or input error: an unknown ALGO or one none of
the exported jobs is of, a missing,
truncated or malformed iterate file, a wrong dimension, a non-finite number, t out of order,
an iterate outside X or Y, or a manifest that does not match this saddlefw (one line
`error: FILE: line N: REASON`).")]
    VerifyIterates(VerifyIteratesArgs),
}

/// Entry point of the binary: installs the signal handler (`crate::interrupt`), parses
/// `std::env::args_os()` and returns the exit code.
pub fn main() -> i32 {
    crate::interrupt::install();
    main_with_args(std::env::args_os())
}

/// Parses `args` (program name first), runs the subcommand, prints errors as one line.
pub fn main_with_args<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    out!("{e}");
                    EXIT_OK
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    write_stderr(format_args!("{e}"));
                    EXIT_USAGE
                }
                _ => {
                    // the first paragraph of clap's message, on one line
                    let text = e.render().to_string();
                    let head: Vec<&str> =
                        text.lines().take_while(|l| !l.trim().is_empty()).collect();
                    write_stderr(format_args!("{}\n", one_line(&head.join(" "))));
                    EXIT_USAGE
                }
            };
        }
    };
    crate::progress::enable(!cli.quiet);
    let result = match cli.command {
        Command::Run(args) => args.validate().and_then(|mut plan| {
            plan.quiet = cli.quiet;
            cmd_run(plan)
        }),
        Command::List => cmd_list(),
        Command::Experiment(mut args) => {
            args.quiet = cli.quiet;
            crate::experiments::command::cmd_experiment(args)
        }
        Command::Verify(mut args) => {
            args.quiet = cli.quiet;
            cmd_verify(args)
        }
        Command::Check(args) => cmd_check(args),
        Command::Merge(args) => cmd_merge(args),
        Command::Report(args) => cmd_report(args),
        Command::Tighten(args) => crate::tightness::cmd_tighten(args),
        Command::Calibrate(args) => calibrate::cmd_calibrate(args),
        Command::Export(mut args) => {
            args.quiet = cli.quiet;
            cmd_export(args)
        }
        Command::VerifyIterates(mut args) => {
            args.quiet = cli.quiet;
            cmd_verify_iterates(args)
        }
    };
    match result {
        // an interrupted command exits 128 + the signal's number whatever its verdicts
        Ok(code) => crate::interrupt::exit_code().unwrap_or(code),
        Err(e) => {
            // library errors name the Options fields; the command line shows its flags
            let msg = crate::solvers::options::with_flags(&e.to_string());
            write_stderr(format_args!("error: {}\n", one_line(&msg)));
            EXIT_USAGE
        }
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
