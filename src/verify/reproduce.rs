//! Commands that reproduce what `verify` reports, written so that each runs as printed
//! (issue 34): [`run_command`] is `saddlefw run` of the entry's algorithm (the crate's
//! implementation) on one instance with the entry's schedule, the schedule the verify run of
//! that instance stepped with (a negative control's or a user's solver is not in it: the
//! command shows what saddlefw's own solver does there). verify.json carries one per run
//! (`instances[].reproduce`) and per stored hard instance (`hard.reproduce`).
//!
//! ```
//! use saddlefw::verify::reproduce::{run_command, shell_word};
//! let table = saddlefw::theorems::builtin();
//! let e = table.iter().find(|e| e.id == "lmo-po/c-sc/dual").unwrap();
//! let spec = "quadratic/c-sc:dx=6,dy=4,seed=3";
//! let inst = spec.parse::<saddlefw::generators::GeneratorSpec>().unwrap().generate().unwrap();
//! let cmd = run_command(e, spec, &inst.problem.constants(), 512).unwrap();
//! assert!(cmd.starts_with("saddlefw run --problem quadratic/c-sc:dx=6,dy=4,seed=3 --algo lmo-po --iters 512"), "{cmd}");
//! assert!(cmd.contains("--tau-schedule 'anytime(c=1,a=") && cmd.ends_with(" --out RUN.json"), "{cmd}");
//! // words the shell would split or expand are quoted
//! assert_eq!(shell_word("hard:lmo-lmo/c-c+sc/dual"), "hard:lmo-lmo/c-c+sc/dual");
//! assert_eq!(shell_word("my dir/it's.json"), r"'my dir/it'\''s.json'");
//! ```

use crate::paper::BASELINE_SIGMA;
use crate::problems::Constants;
use crate::theorems::{Aggregate, Sigma, TheoremEntry};

/// The program name the commands start with.
pub(crate) const PROGRAM: &str = "saddlefw";

/// `s` as one shell word: unchanged when it holds only characters no shell splits or expands
/// (letters, digits, `_ . / : = , + @ % -`), else in single quotes.
pub fn shell_word(s: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_./:=,+@%-".contains(c);
    if !s.is_empty() && s.chars().all(plain) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// `saddlefw run --problem PROBLEM --algo ALG --iters T --tau-schedule TAU --beta-schedule
/// BETA [--sigma S] --out RUN.json`: the crate's implementation of `entry`'s algorithm on the
/// instance `problem` (a `--problem` value: generator spec, `hard:ENTRY`, file) with the
/// entry's schedules resolved on the instance's constants `k` and the `sigma` of the entry's
/// `G_X^PO`, for the `t_max` iterations of the verify run (one more where the quantity needs
/// the next iterate). `None` when the entry has no crate implementation or its schedule is
/// undefined on the instance.
pub fn run_command(
    entry: &TheoremEntry,
    problem: &str,
    k: &Constants,
    t_max: u64,
) -> Option<String> {
    let algo = entry.algorithm.solver()?;
    let sched = entry.schedule.resolve(k).ok()?;
    let tau0 = sched.tau.at(0);
    let sigma = match entry.quantity.sigma {
        Some(Sigma::Tau0) => tau0,
        None => entry.algorithm.default_sigma(tau0),
    };
    let iters = t_max + u64::from(entry.quantity.aggregate == Aggregate::MeanOptNext0T);
    let mut cmd = format!(
        "{PROGRAM} run --problem {} --algo {} --iters {iters} --tau-schedule {} --beta-schedule {}",
        shell_word(problem),
        algo.name(),
        shell_word(&sched.tau.to_string()),
        shell_word(&sched.beta.to_string()),
    );
    if sigma != BASELINE_SIGMA {
        cmd.push_str(&format!(" --sigma {sigma}"));
    }
    cmd.push_str(" --out RUN.json");
    Some(cmd)
}
