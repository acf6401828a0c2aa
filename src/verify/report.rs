//! Report glue: the JSON form of [`VerifyReport`], its text table and the report layer's view.

use super::hard;
use super::judge::{fmt_power, median_series};
use super::results::ErratumResult;
use super::results::{envelope_holds, EntryResult, InstanceRun, VerifyReport};
use crate::fit::{self, Baselines, Verdict};
use crate::generators::Setting;
use crate::report::{
    CheckTables, Fit, InstanceInfo, RateEntry, Series, SeriesStyle, Verdict as RV,
};
use crate::Result;
use std::path::{Path, PathBuf};

impl VerifyReport {
    /// Writes `DIR/verify.json` and `DIR/index.html` of the report (atomically), as
    /// `saddlefw verify --out DIR` does; the page also shows `checks`, the invariant table and
    /// errata of a small `check` run (`invariants::verify_page_tables`, which the caller runs).
    #[doc(hidden)] // the binary's: its tables are internal
    pub fn write_outputs(&self, out: &Path, checks: &CheckTables) -> Result<(PathBuf, PathBuf)> {
        crate::files::create_dir_all(out)?;
        let json_path = out.join("verify.json");
        crate::files::write_atomic(&json_path, self.to_json().as_bytes())?;
        let seeds: Vec<u64> = self.seeds.iter().map(|&s| s as u64).collect();
        let mut meta = crate::report::Meta::current(Some(&self.tier.to_string()), &seeds);
        meta.interrupted = self.interrupted.as_ref().map(|i| {
            format!(
                "{}: finish it with saddlefw verify --resume {}",
                i.describe("jobs"),
                out.display()
            )
        });
        let page = crate::report::verify_page_with(
            &meta,
            &self.rate_entries(),
            &checks.invariants,
            &checks.errata,
            self.differential
                .as_ref()
                .map(|d| d.report_table())
                .as_ref(),
        );
        let html_path = out.join("index.html");
        crate::files::write_atomic(&html_path, page.as_bytes())?;
        Ok((json_path, html_path))
    }

    /// The one-line summary (`N entries: P pass, F fail, ...`): the line of the [`table`]
    /// after the entries, and all that `verify --quiet` prints.
    ///
    /// [`table`]: VerifyReport::table
    pub fn summary_line(&self) -> String {
        format!(
            "{} entries: {} pass, {} fail, {} floor, {} disputed ({} tier, {} seeds per family, T_max = {}, {:.1} s)",
            self.entries.len(),
            self.summary["pass"],
            self.summary["fail"],
            self.summary["floor"],
            self.summary["disputed"],
            self.tier,
            self.seeds.len(),
            self.t_max,
            self.wall_time_s
        )
    }

    /// Parses verify.json text (a shard's, for `saddlefw merge`); `input` names it in errors.
    pub fn parse(input: &str, text: &str) -> Result<VerifyReport> {
        crate::files::parse_json(input, text, crate::files::JsonTop::Object)
    }
    /// verify.json (pretty-printed, with a final newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a verify report serialises") + "\n"
    }
    /// The exponents to store as baselines (fitted entries).
    pub fn baselines(&self) -> Baselines {
        self.entries
            .iter()
            .filter_map(|e| e.p_hat.map(|p| (e.id.clone(), p)))
            .collect()
    }
    /// A plain-text table, one line per entry.
    pub fn table(&self) -> String {
        let mut s = format!(
            "{:<28} {:>5} {:>7} {:>17} {:>8} {:>6}  {:<8} {}\n",
            "entry", "p", "p_hat", "ci", "env", "time", "verdict", "failed gates / notes"
        );
        for e in &self.entries {
            let f = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.3}"));
            let ci =
                e.ci.map_or("-".to_string(), |c| format!("[{:.3}, {:.3}]", c[0], c[1]));
            s += &format!(
                "{:<28} {:>5} {:>7} {:>17} {:>8} {:>5.1}s  {:<8} {}\n",
                e.id,
                e.p_frac,
                f(e.p_hat),
                ci,
                f(e.envelope_ratio),
                e.time_s,
                e.verdict.name(),
                e.failed_gates.join(",")
            );
        }
        s += &self.summary_line();
        s.push('\n');
        s += &super::questions::console_block(&self.entries);
        let errata: Vec<(&str, &ErratumResult)> = self
            .entries
            .iter()
            .flat_map(|e| e.errata.iter().map(move |r| (e.id.as_str(), r)))
            .collect();
        if !errata.is_empty() {
            s += "\nprinted forms of the bounds (claims.md Sec. 5 errata; reported, never gating):\n";
            for (id, r) in errata {
                s += &format!("  {id:<28} {}\n", r.describe());
            }
        }
        let slow: Vec<(&str, String)> = self
            .entries
            .iter()
            .filter_map(|e| e.proof_rate.as_ref().map(|p| (e.id.as_str(), p)))
            .flat_map(|(id, p)| {
                let random = p
                    .random
                    .iter()
                    .filter(|f| !f.check.holds)
                    .map(|f| (f.family.clone(), f.check));
                let hard = p
                    .hard
                    .filter(|h| !h.holds)
                    .map(|h| ("hard instance".to_string(), h));
                random.chain(hard).map(move |(who, c)| {
                    (
                        id,
                        format!(
                            "{who}: p_hat {:.3} [{:.3}, {:.3}], tol {:.3} (k = {})",
                            c.p_hat,
                            c.ci[0],
                            c.ci[1],
                            c.tol,
                            fmt_power(p.k)
                        ),
                    )
                })
            })
            .collect();
        s += &format!(
            "\nproof-rate check (k = the proven log power; reported, never gating): {} slower than the proven rate at this horizon\n",
            if slow.is_empty() { "no run".to_string() } else { format!("{} runs/families", slow.len()) }
        );
        for (id, line) in slow {
            s += &format!("  {id:<28} {line}\n");
        }
        s
    }
}

/// A copy of a JSON value without the timing fields: every object key containing `time` is
/// removed, recursively (verify.json is byte-identical across runs apart from these).
pub fn without_timings(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| !k.contains("time"))
                .map(|(k, v)| (k.clone(), without_timings(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_timings).collect()),
        other => other.clone(),
    }
}

impl VerifyReport {
    /// The records the HTML report renders ([`crate::report::verify_page`]).
    #[doc(hidden)] // the report's: its records are internal
    pub fn rate_entries(&self) -> Vec<RateEntry> {
        self.entries.iter().map(rate_entry).collect()
    }
}

/// A series' checkpoints as plot points.
fn points(s: &[(u64, f64)]) -> Vec<(f64, f64)> {
    s.iter().map(|&(t, v)| (t as f64, v)).collect()
}

/// The report layer's record of one entry.
fn rate_entry(e: &EntryResult) -> RateEntry {
    let binding: Vec<&InstanceRun> = e
        .instances
        .iter()
        .filter(|r| Some(&r.family) == e.binding_family.as_ref())
        .collect();
    let worst = e
        .instances
        .iter()
        .filter(|r| r.envelope.is_some())
        .max_by(|a, b| {
            a.envelope
                .unwrap()
                .ratio
                .total_cmp(&b.envelope.unwrap().ratio)
        });
    let instances = instance_infos(e);
    RateEntry {
        id: e.id.replace('/', "-"),
        case: e.case.clone(),
        algorithm: e.algorithm.to_uppercase(),
        setting: e.setting.to_uppercase(),
        quantity_text: e.quantity.clone(),
        p: e.p,
        log_factor: e.log_factor,
        p_hat: e.p_hat,
        ci: e.ci.map(|c| (c[0], c[1])),
        window: e.window.map(|w| (w[0] as f64, w[1] as f64)),
        verdict: match e.verdict {
            Verdict::Pass => RV::Pass,
            Verdict::Fail => RV::Fail,
            Verdict::Floor => RV::Floor,
            Verdict::Disputed => RV::Disputed,
        },
        // Within the rounding allowance the ratio is shown as 1 (the raw value
        // stays in verify.json and the note says so).
        envelope_ratio: e
            .envelope_ratio
            .map(|r| if shown_as_one(r) { 1.0 } else { r }),
        baseline_p_hat: e.baseline,
        label: e.label.clone(),
        notes: report_notes(e),
        answers: e.answers.as_ref().map(|a| {
            a.all()
                .iter()
                .map(|(q, x)| (q.title().to_string(), describe_answer(x)))
                .collect()
        }),
        reproduce: e.reproduce_command().map(String::from),
        seeds: e
            .instances
            .iter()
            .map(|r| {
                Series::new(format!("{} #{}", r.family, r.seed_index), points(&r.series))
                    .styled(SeriesStyle::Thin)
            })
            .collect(),
        median: (!binding.is_empty()).then(|| {
            Series::new(
                format!("median ({})", e.binding_family.as_deref().unwrap_or("")),
                points(&median_series(&binding)),
            )
            .styled(SeriesStyle::Bold)
        }),
        fit: mean_fit_line(e, &binding),
        envelope: worst.map(|r| {
            Series::new(format!("envelope ({})", r.spec), points(&r.envelope_series))
                .styled(SeriesStyle::Dotted)
        }),
        local_slopes: vec![Series::new(
            "median",
            e.local_slopes
                .iter()
                .map(|&(lo, hi, s)| (((lo as f64) * (hi as f64)).sqrt(), s))
                .collect(),
        )],
        instances,
        tightness: hard::report_tightness(e),
        time_s: Some(e.time_s),
    }
}

/// One answer as the page prints it: `pass`, `fail: hard-rate (reported, not gating)`, ...
fn describe_answer(a: &super::questions::Answer) -> String {
    use super::questions::GateStatus as S;
    let status = match a.status {
        S::Pass => "pass",
        S::Fail => "fail",
        S::NotApplicable => "not applicable",
        S::Vacuous => "vacuous (cannot fail)",
    };
    let mut s = status.to_string();
    if !a.failed.is_empty() {
        s += &format!(": {}", a.failed.join(", "));
    }
    if !a.gating {
        s += " (reported, not gating)";
    }
    s
}

/// The binding family's fitted line: the mean slope and intercept of its seeds' fits over
/// the entry's window.
fn mean_fit_line(e: &EntryResult, binding: &[&InstanceRun]) -> Option<Fit> {
    let fitted: Vec<&fit::Fitted> = binding
        .iter()
        .filter_map(|r| r.fit.as_ref().and_then(|f| f.fitted()))
        .collect();
    (!fitted.is_empty()).then(|| {
        let n = fitted.len() as f64;
        let w = e.window.unwrap_or([1, 1]);
        Fit {
            slope: fitted.iter().map(|f| f.ols.slope).sum::<f64>() / n,
            intercept: fitted.iter().map(|f| f.ols.intercept).sum::<f64>() / n,
            t_start: w[0] as f64,
            t_end: w[1] as f64,
        }
    })
}

/// The distinct instances of an entry, with the setting's assumptions.
fn instance_infos(e: &EntryResult) -> Vec<InstanceInfo> {
    let mut seen = std::collections::BTreeSet::new();
    e.instances
        .iter()
        .filter(|r| seen.insert(r.spec.clone()))
        .map(|r| InstanceInfo {
            family: r.family.clone(),
            dim_x: r.dim_x,
            dim_y: r.dim_y,
            seed: Some(r.seed),
            params: Some(r.spec.clone()),
            constants: r.constants,
            assumptions: e
                .setting
                .parse::<Setting>()
                .map(|s| s.assumption_names())
                .unwrap_or_default(),
        })
        .collect()
}

/// An envelope ratio above 1 that holds within the rounding allowance: shown as 1.
fn shown_as_one(r: f64) -> bool {
    r > 1.0 && envelope_holds(r)
}

/// The entry's notes, led by its failed gates and an envelope ratio shown as 1.
fn report_notes(e: &EntryResult) -> Vec<String> {
    let mut n = e.notes.clone();
    if let Some(r) = e.envelope_ratio.filter(|&r| shown_as_one(r)) {
        n.insert(
            0,
            format!(
                "envelope ratio 1 + {:.1e}, shown as 1: within the rounding allowance 1e-9",
                r - 1.0
            ),
        );
    }
    if !e.failed_gates.is_empty() {
        n.insert(0, format!("failed gates: {}", e.failed_gates.join(", ")));
    }
    n
}
