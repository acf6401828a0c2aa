//! `saddlefw list`: every registry the commands use, printed.

use super::EXIT_OK;
use crate::error::Result;
use crate::generators::{Family, Setting, XKind};
use crate::solvers::registry;
use crate::solvers::schedule::{self, Schedule};

/// `saddlefw list`.
pub(crate) fn cmd_list() -> Result<i32> {
    outln!("algorithms (--algo):");
    for a in registry::algorithms() {
        outln!("  {:<8} {}  [{}]", a.name, a.title, a.source);
        outln!("           provenance: {}", a.provenance);
        let p = &a.profile;
        outln!(
            "           oracle calls per iteration: lmo_x {}, lmo_y {}, proj_x {}, proj_y {}, grad_x {}, grad_y {}",
            p.lmo_x, p.lmo_y, p.proj_x, p.proj_y, p.grad_x, p.grad_y
        );
    }
    outln!("\nschedules (--tau-schedule, --beta-schedule):");
    for (syntax, formula, source) in Schedule::KINDS {
        outln!("  {syntax:<50} {formula}\n  {:<50} [{source}]", "");
    }
    outln!("\ndefault schedules of the paper's algorithms (theorem cases, claims.md 3.1; C = 1 where any C > 0 is allowed):");
    for c in crate::solvers::defaults::theorem_cases() {
        let beta = match c.b {
            Some(b) => format!("b = {}", schedule::fmt_num(b)),
            None => "beta_t = 0".to_string(),
        };
        outln!(
            "  {:<8} {:<9} a = {:<20} {:<26} {}",
            c.algorithm,
            c.setting,
            schedule::fmt_num(c.a),
            beta,
            c.label
        );
    }
    outln!("  (lmo-po on X+sc uses the X case; po-lmo on c-c+sc uses c-c; po-lmo uses the appendix schedule with A = 1)");
    outln!("\ntheorem table (fixtures/theorems.json; `saddlefw verify` fits these rates):");
    for e in crate::theorems::builtin() {
        outln!(
            "  {:<24} T^-{:<5} {}  [{}]",
            e.id,
            e.p.frac,
            e.quantity_text,
            e.label
        );
    }
    outln!("\nnegative controls (`saddlefw check --control NAME`, must exit 1):");
    for c in crate::invariants::controls::CheckControl::ALL {
        outln!("  {:<22} {}", c.name(), c.description());
    }
    outln!("\ninvariants (`saddlefw check`; `saddlefw check --list` for statements):");
    for inv in crate::invariants::registry() {
        outln!(
            "  {:<40} {}{}",
            inv.name,
            inv.label,
            if inv.gating {
                ""
            } else {
                "  (printed form: reported, never gates)"
            }
        );
    }
    outln!("\nsets (problem files, \"kind\"):");
    for k in crate::sets::SetSpec::KINDS {
        outln!("  {:<13} {}", k.kind, k.description);
        outln!("  {:<13} alpha: {}; e.g. {}", "", k.alpha, k.example);
    }
    outln!(
        "\ngenerator families (--problem FAMILY/SETTING[:dx=N,dy=N,seed=K,x={}]):",
        XKind::ALL.map(|x| x.name()).join("|")
    );
    for f in Family::ALL {
        outln!("  {:<10} {}", f.name(), f.description());
    }
    outln!(
        "  settings: {}",
        Setting::all()
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    outln!("\nhard instance families (`saddlefw tighten` searches them):");
    for (name, what) in crate::tightness::families::FAMILIES {
        outln!("  {name:<17} {what}");
    }
    outln!(
        "\nstored hardest instances (fixtures/hard, built in; `saddlefw verify` gates on them):"
    );
    for (id, f) in crate::tightness::builtin() {
        outln!(
            "  {id:<24} {:<17} p_hat {:.3}  {}",
            f.family,
            f.p_hat,
            f.params
        );
    }
    Ok(EXIT_OK)
}
