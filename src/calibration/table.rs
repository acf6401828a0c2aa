//! The calibration table: one cell per entry and variant, and its summary.

use super::panel::{not_rate_changing, Panel, Role, Variant};
use crate::theorems::TheoremEntry;
use crate::verify::{EntryResult, GateStatus};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One entry under one variant.
#[derive(Debug, Clone, Serialize)]
pub struct Cell {
    pub variant: String,
    pub entry: String,
    pub algorithm: String,
    #[serde(flatten)]
    pub role: Role,
    /// `pass` or `fail` (None where the variant does not apply).
    pub verdict: Option<String>,
    /// The gates that failed and gate (conformance and rate evidence).
    pub failed_gates: Vec<String>,
    /// Distance of the rate evidence to its threshold (positive: passes by that much): the
    /// smallest over the random families (`ci_high - (p - tol)`) and the hard instance (the
    /// larger of its margin at T and on the confirmation run).
    pub margin: Option<f64>,
    /// The hard instance's margin on its confirmation run at `CONFIRM_FACTOR T`, against
    /// `p - tol - HARD_MARGIN`, where one was made (the rate failed at T).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmation_margin: Option<f64>,
    /// Largest quantity/envelope ratio (random and hard; gates where it is a gate).
    pub envelope_ratio: Option<f64>,
}

impl Cell {
    /// The cell of `entry` under `variant` from its verify result.
    pub fn of(v: Variant, e: &TheoremEntry, role: Role, r: Option<&EntryResult>) -> Cell {
        let judged = !matches!(role, Role::NotApplicable(_));
        Cell {
            variant: v.to_string(),
            entry: e.id.clone(),
            algorithm: e.algorithm.name().to_string(),
            role,
            verdict: r.filter(|_| judged).map(|r| {
                if r.failed_gates.is_empty() {
                    "pass"
                } else {
                    "fail"
                }
                .to_string()
            }),
            failed_gates: r.map(|r| r.failed_gates.clone()).unwrap_or_default(),
            margin: r.and_then(margin),
            confirmation_margin: r.and_then(confirmation_margin),
            envelope_ratio: r.and_then(|r| {
                let hard = r.hard.as_ref().and_then(|h| h.envelope_ratio);
                match (r.envelope_ratio, hard) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    (a, b) => a.or(b),
                }
            }),
        }
    }
    /// The cell as the markdown table shows it: `L pass +0.12`, `F FAIL -0.30`, `F FAIL
    /// (envelope)` (a failure through another gate than the rate shows that gate, not the
    /// rate's positive margin), `-` where the variant does not apply.
    fn markdown(&self) -> String {
        if matches!(self.role, Role::NotApplicable(_)) {
            return "-".to_string();
        }
        let tag = if self.role == Role::Legitimate {
            "L"
        } else {
            "F"
        };
        let verdict = match self.verdict.as_deref() {
            Some("fail") => "FAIL",
            Some(_) => "pass",
            None => "?",
        };
        let rate_failed = self.failed_gates.iter().any(|g| g.ends_with("rate"));
        let m = if verdict == "FAIL" && !rate_failed {
            format!(" ({})", self.failed_gates.join(", "))
        } else {
            self.margin.map_or(String::new(), |m| format!(" {m:+.2}"))
        };
        format!("{tag} {verdict}{m}")
    }
    /// Whether it failed through the measures (a gate other than the schedule check).
    pub(crate) fn caught_by_measures(&self) -> bool {
        self.failed_gates
            .iter()
            .any(|g| g.strip_prefix("hard-").unwrap_or(g) != "schedule")
    }
}

/// See [`Cell::confirmation_margin`].
fn confirmation_margin(r: &EntryResult) -> Option<f64> {
    let c = r.hard.as_ref()?.confirmation.as_ref()?;
    c.ci.zip(c.tol)
        .map(|(ci, tol)| ci[1] - (r.p - tol - crate::verify::hard::HARD_MARGIN))
}

/// The rate-evidence margin of an entry (see [`Cell::margin`]).
fn margin(r: &EntryResult) -> Option<f64> {
    let random = r
        .families
        .iter()
        .filter_map(|f| {
            let est = f.estimate.as_ref()?;
            Some(est.ci[1] - (r.p - f.tol?))
        })
        .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.min(x))));
    let hard = r.hard.as_ref().and_then(|h| {
        if h.gates.rate == GateStatus::NotApplicable {
            return None;
        }
        let at_t = h.ci.zip(h.tol).map(|(ci, tol)| ci[1] - (r.p - tol));
        // the gate fails only when both fail: the margin is the larger one
        let confirmed = confirmation_margin(r);
        match (at_t, confirmed) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    });
    match (random, hard) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Power of the faulty panel for one algorithm and variant.
#[derive(Debug, Clone, Serialize)]
pub struct PowerRow {
    pub algorithm: String,
    pub variant: String,
    /// Entries of the algorithm the variant is judged on.
    pub entries: usize,
    /// Entries that failed it.
    pub caught_by: Vec<String>,
    /// Whether an entry failed it through the measures (not only the schedule check).
    pub caught_by_measures: bool,
    /// Why it may leave the claimed rates intact, for a variant no entry catches.
    pub not_rate_changing: Option<String>,
}

/// The calibration: every cell and the summary.
#[derive(Debug, Clone, Serialize)]
pub struct Calibration {
    pub build: crate::build_info::Build,
    pub cells: Vec<Cell>,
    /// Legitimate cells judged, and those that failed a gate (false alarms).
    pub legitimate_cells: usize,
    pub false_alarms: Vec<String>,
    /// Legitimate variants judged on every entry they apply to.
    pub legitimate_variants: usize,
    /// The smallest margin over the legitimate cells, per entry.
    pub legitimate_min_margin: BTreeMap<String, f64>,
    pub power: Vec<PowerRow>,
    pub time_s: f64,
}

impl Calibration {
    pub(super) fn assemble(cells: Vec<Cell>, time_s: f64) -> Calibration {
        let legit: Vec<&Cell> = cells
            .iter()
            .filter(|c| c.role == Role::Legitimate)
            .collect();
        let false_alarms = legit
            .iter()
            .filter(|c| c.verdict.as_deref() == Some("fail"))
            .map(|c| {
                format!(
                    "{} under {} ({})",
                    c.entry,
                    c.variant,
                    c.failed_gates.join(", ")
                )
            })
            .collect();
        let mut legitimate_min_margin: BTreeMap<String, f64> = BTreeMap::new();
        for c in &legit {
            if let Some(m) = c.margin {
                let e = legitimate_min_margin.entry(c.entry.clone()).or_insert(m);
                *e = e.min(m);
            }
        }
        let mut variants: Vec<String> = Vec::new();
        for c in &cells {
            if !variants.contains(&c.variant) {
                variants.push(c.variant.clone());
            }
        }
        let legitimate_variants = variants
            .iter()
            .filter(|v| legit.iter().any(|c| &c.variant == *v))
            .count();
        let mut power = Vec::new();
        let algorithms = ["lmo-lmo", "lmo-po", "po-lmo"];
        for v in &variants {
            for a in algorithms {
                let faulty: Vec<&Cell> = cells
                    .iter()
                    .filter(|c| &c.variant == v && c.algorithm == a && c.role == Role::Faulty)
                    .collect();
                if faulty.is_empty() {
                    continue;
                }
                let caught: Vec<&&Cell> = faulty
                    .iter()
                    .filter(|c| c.verdict.as_deref() == Some("fail"))
                    .collect();
                let variant = super::variants().into_iter().find(|x| &x.to_string() == v);
                power.push(PowerRow {
                    algorithm: a.to_string(),
                    variant: v.clone(),
                    entries: faulty.len(),
                    caught_by: caught.iter().map(|c| c.entry.clone()).collect(),
                    caught_by_measures: caught.iter().any(|c| c.caught_by_measures()),
                    not_rate_changing: variant
                        .and_then(|v| not_rate_changing(v, a))
                        .filter(|_| caught.is_empty())
                        .map(String::from),
                });
            }
        }
        Calibration {
            build: crate::build_info::Build::current(),
            legitimate_cells: legit.len(),
            false_alarms,
            legitimate_variants,
            legitimate_min_margin,
            power,
            cells,
            time_s,
        }
    }
    /// The summary the verify page shows ([`crate::report::calibration`]).
    pub fn summary(&self) -> crate::report::calibration::CalibrationSummary {
        crate::report::calibration::CalibrationSummary {
            build: self.build.to_string(),
            time_s: self.time_s,
            legitimate_variants: self.legitimate_variants,
            legitimate_cells: self.legitimate_cells,
            false_alarms: self.false_alarms.clone(),
            min_margin: self.legitimate_min_margin.clone(),
            power: self
                .power
                .iter()
                .map(|p| crate::report::calibration::PowerSummary {
                    algorithm: p.algorithm.clone(),
                    variant: p.variant.clone(),
                    entries: p.entries,
                    caught: p.caught_by.len(),
                    not_rate_changing: p.not_rate_changing.clone(),
                })
                .collect(),
        }
    }
    /// Faulty variants (per algorithm) that no entry caught and that are not listed as
    /// leaving the rates intact.
    pub(crate) fn power_gaps(&self) -> Vec<&PowerRow> {
        self.power
            .iter()
            .filter(|p| p.caught_by.is_empty() && p.not_rate_changing.is_none())
            .collect()
    }
}

/// The calibration as the Markdown of `docs/calibration.md`.
pub fn markdown(c: &Calibration) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Calibration of the gates\n");
    let _ = writeln!(
        s,
        "Written by `saddlefw calibrate` ({}; {:.0} s). Legitimate panel: {} variants, {} cells; **false alarms: {}**. Faulty panel: power per algorithm below ({} gap(s)).\n",
        c.build,
        c.time_s,
        c.legitimate_variants,
        c.legitimate_cells,
        c.false_alarms.len(),
        c.power_gaps().len()
    );
    let confirmed: Vec<&Cell> = c
        .cells
        .iter()
        .filter(|x| x.role == Role::Legitimate && x.confirmation_margin.is_some())
        .collect();
    let _ = writeln!(
        s,
        "Legitimate cells whose hard-instance rate failed at T and was confirmed at {} T: {}{}. A margin at T close to 0 on a hard instance is by construction (the search keeps the slowest instance); the gate fails only when the confirmation fails too.\n",
        crate::verify::hard::CONFIRM_FACTOR,
        confirmed.len(),
        confirmed
            .iter()
            .filter_map(|x| x.confirmation_margin.map(|m| (m, x)))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(m, x)| format!(
                " (smallest confirmation margin {m:+.3}: {} under {})",
                x.entry, x.variant
            ))
            .unwrap_or_default()
    );
    if !c.false_alarms.is_empty() {
        let _ = writeln!(s, "False alarms:\n");
        for f in &c.false_alarms {
            let _ = writeln!(s, "- {f}");
        }
        s.push('\n');
    }
    let _ = writeln!(s, "## Power of the faulty panel\n");
    let _ = writeln!(
        s,
        "| algorithm | variant | entries | caught by | through the measures | note |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|");
    for p in &c.power {
        let _ = writeln!(
            s,
            "| {} | `{}` | {} | {} | {} | {} |",
            p.algorithm,
            p.variant,
            p.entries,
            if p.caught_by.is_empty() {
                "**none**".to_string()
            } else {
                format!("{} ({})", p.caught_by.len(), p.caught_by.join(", "))
            },
            if p.caught_by_measures { "yes" } else { "no" },
            p.not_rate_changing.as_deref().unwrap_or("")
        );
    }
    let mut variants: Vec<&str> = Vec::new();
    for cell in &c.cells {
        if !variants.contains(&cell.variant.as_str()) {
            variants.push(&cell.variant);
        }
    }
    let _ = writeln!(
        s,
        "\n## Per entry and variant\n\nEach cell: `pass`/`FAIL` and the rate-evidence margin (distance of the interval's top to the threshold; positive passes), or, for a failure through another gate, that gate. `L`: legitimate, `F`: faulty, `-`: does not apply. Smallest legitimate margin in the last column.\n"
    );
    let _ = write!(s, "| entry |");
    for v in &variants {
        let _ = write!(s, " `{v}` |");
    }
    let _ = writeln!(s, " min legit margin |");
    let _ = write!(s, "|---|");
    for _ in &variants {
        let _ = write!(s, "---|");
    }
    let _ = writeln!(s, "---|");
    let mut entries: Vec<&str> = Vec::new();
    for cell in &c.cells {
        if !entries.contains(&cell.entry.as_str()) {
            entries.push(&cell.entry);
        }
    }
    for e in entries {
        let _ = write!(s, "| `{e}` |");
        for v in &variants {
            let cell = c.cells.iter().find(|x| x.entry == e && x.variant == *v);
            let text = cell.map_or(String::new(), Cell::markdown);
            let _ = write!(s, " {text} |");
        }
        let m = c
            .legitimate_min_margin
            .get(e)
            .map_or("-".to_string(), |m| format!("{m:+.3}"));
        let _ = writeln!(s, " {m} |");
    }
    let _ = writeln!(s, "\n## Why each variant is in its panel\n");
    for (panel, text) in PANEL_REASONS {
        let _ = writeln!(s, "- {panel:?}: {text}");
    }
    s
}

/// The reasons of the panels (module doc of [`super::panel::role`]).
const PANEL_REASONS: [(Panel, &str); 8] = [
    (Panel::Legitimate, "`seed=S`: other random instances of the same families (the theorems hold on every instance satisfying the assumptions)."),
    (Panel::Legitimate, "`beta-scale*K`: beta_t = C (t+1)^-b with any C > 0 (eq:fw-fw-stepsize, eq:fw-proj-stepsize; PO-LMO pairs the same C in its step); not applicable where C = 0."),
    (Panel::Legitimate, "`tau-offset+1`, `offset+1`: tau_{t+1} (and beta_{t+1}); an index offset keeps Theta(t^-a) and Theta(t^-b)."),
    (Panel::Legitimate, "`tau-scale*K` for a < 1 and `tau-scale*2` at a = 1: a constant inside Theta(t^-a); at a = 1, c/(t+1) with c >= 1 keeps the O(1/T) recursion."),
    (Panel::Legitimate, "`big-a*K`: PO-LMO's A > 0 is free (theorem:proj-fw-convergence); `start-other`: any start in X x Y; `float-order`: rounding is not part of the analysis."),
    (Panel::Faulty, "`tau-scale*0.5` at a = 1: tau_t = c/(t+1) with c < 1 provably slows Frank-Wolfe to T^-c; faulty only where the claim binds (an entry whose claim is below c keeps it)."),
    (Panel::Faulty, "`tau-exponent+D`, `beta-exponent-D`: other exponents than the theorem's a and b; `dual-step-doubled`, `beta-ignored`, `primal-sign-flip`, `clip-not-project`: updates the analysis does not cover."),
    (Panel::Faulty, "`stale-gradient`, `dual-skip-odd`: outside the algorithms as printed; listed with the reason when no entry's claimed rate fails for them."),
];
