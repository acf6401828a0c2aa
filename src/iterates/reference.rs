//! Reference iterates: the crate's own solver (optionally a negative control) run on every
//! job of an export, its iterates written where the user's would go. `saddlefw export
//! --write-iterates` uses it; so does the test that `verify-iterates` on these files gives
//! `verify`'s verdicts (tests/iterates.rs).

use super::format::IterateWriter;
use super::written::{self, WriteIterates, Written};
use crate::harness::{self, CheckpointRule, RunConfig};
use crate::ledger::Ledger;
use crate::resume::{Identity, Interruption};
use crate::solvers::Solver;
use crate::theorems::TheoremEntry;
use crate::verify::controls::{self, Control};
use crate::{Error, Instance, Result};
use std::io::BufWriter;
use std::path::Path;

/// Writes the iterates `t = 0..=t_last` of the entry's solver (broken by `control` when
/// given) for every job of the export in `export_dir` under `root` (default: `export_dir`),
/// at the jobs' iterate paths.
pub fn write_reference_iterates(
    table: &[TheoremEntry],
    export_dir: &Path,
    root: Option<&Path>,
    control: Option<Control>,
) -> Result<()> {
    let ledger = Ledger::new(Identity::current(Vec::new(), Default::default()));
    write_logged(table, export_dir, root, control, &ledger).map(|_| ())
}

/// [`write_reference_iterates`] on the ledger `ledger` ([`super::written`]): a file it holds
/// as it is stays, every file written is journaled; after a first signal no file is started
/// (the interruption is returned).
pub(crate) fn write_logged(
    table: &[TheoremEntry],
    export_dir: &Path,
    root: Option<&Path>,
    control: Option<Control>,
    ledger: &Ledger<WriteIterates>,
) -> Result<Option<Interruption>> {
    let (manifest, _, planned) = super::judge::load(table, export_dir)?;
    let root = root.unwrap_or(export_dir);
    let total = manifest.jobs.len();
    for (done, (job, planned)) in manifest.jobs.iter().zip(&planned).enumerate() {
        if crate::interrupt::requested() {
            return Ok(Interruption::now(done, total));
        }
        let path = root.join(&job.iterates);
        if ledger
            .get(&job.id)
            .is_some_and(|w| written::holds(&path, w))
        {
            continue;
        }
        let inst = planned.instance()?;
        let inst = &inst;
        let entry = table
            .iter()
            .find(|e| e.id == job.entries[0])
            .ok_or_else(|| {
                Error::invalid("manifest", format!("unknown entry {}", job.entries[0]))
            })?;
        let k = inst.problem.constants();
        let mut solver = controls::build_solver(entry, inst.problem.as_ref(), &k, control)?;
        if let Some(dir) = path.parent() {
            crate::files::create_dir_all(dir)?;
        }
        // a temporary renamed into place: a signal or a full disk never leaves a file cut
        // mid-line that looks complete
        crate::files::write_streamed(&path, |file| {
            let mut w = IterateWriter::new(BufWriter::new(file));
            write_run(inst, solver.as_mut(), job.t_last, &mut w)?;
            w.finish().map(|_| ())
        })?;
        if ledger.journaling() {
            let bytes = crate::files::read_bytes(&path)?;
            ledger.done(&Written {
                id: job.id.clone(),
                sha256: crate::fingerprint::sha256(&bytes),
            });
        }
    }
    Ok(None)
}

/// Runs `solver` for `t_last` steps from the instance's start, writing every iterate.
fn write_run<W: std::io::Write>(
    inst: &Instance,
    solver: &mut dyn Solver,
    t_last: u64,
    w: &mut IterateWriter<W>,
) -> std::io::Result<()> {
    w.write(0, &inst.x0, &inst.y0)?;
    let config = RunConfig {
        iterations: t_last as usize,
        checkpoints: CheckpointRule::None,
        ..RunConfig::new(0)
    };
    let mut result = Ok(());
    harness::run_observed(
        inst.problem.as_ref(),
        &inst.x0,
        &inst.y0,
        solver,
        &config,
        &mut |s| {
            if result.is_ok() {
                result = w.write(s.t as u64 + 1, s.x, s.y);
            }
        },
    );
    result
}
