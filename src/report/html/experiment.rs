//! The experiment page (issue 7): the Figure 1 panel, the Table 3 column, the paper's
//! qualitative claims, the runs and the notes.

use super::format::fmt_num;
use super::page::page;
use super::runs::{provenance_cell, run_plots, runs_table};
use crate::report::escape;
use crate::report::model::{is_baseline, ExperimentReport, Meta, RunSummary, Table3Column};
use std::fmt::Write;

fn experiment_title(name: &str) -> String {
    match name.to_ascii_lowercase().as_str() {
        "dl" => "dictionary learning (DL)".to_string(),
        "news20" => "robust multiclass classification on NEWS20".to_string(),
        "rcv1" => "robust multiclass classification on RCV1".to_string(),
        other => other.to_string(),
    }
}

fn claim_badge(holds: Option<bool>) -> &'static str {
    match holds {
        Some(true) => "<span class=\"verdict verdict-pass\">✓ HOLDS</span>",
        Some(false) => "<span class=\"verdict verdict-fail\">✗ DOES NOT HOLD</span>",
        None => "<span class=\"verdict verdict-floor\">? UNDECIDED</span>",
    }
}

/// A run's CPU share in the Table 3 column: flagged "contended" below the column's
/// `contended_share`, "not recorded" for records without `cpu_time_s`.
fn cpu_share_cell(run: Option<&RunSummary>, contended_share: f64) -> String {
    match run {
        Some(r) if r.wall_time_s.is_some() => match r.cpu_share {
            Some(s) if s < contended_share => {
                format!("{s:.2} <span class=\"muted\">(contended)</span>")
            }
            Some(s) => format!("{s:.2}"),
            None => "<span class=\"muted\">not recorded</span>".to_string(),
        },
        _ => String::new(),
    }
}

/// The experiment page (issue 7): the Figure 1 panel (measure against time per algorithm),
/// the Table 3 column (iterations completed) next to the paper's numbers, the verdicts on
/// the paper's qualitative claims, and the notes on every choice where the paper is unclear.
pub fn experiment_page(meta: &Meta, exp: &ExperimentReport) -> String {
    let name = experiment_title(&exp.experiment);
    let mut body = String::new();
    let _ = write!(
        body,
        "<section id=\"figure1\"><h2>Figure 1 panel: stationarity measure over time</h2>\
         <p>Time limit {} s per algorithm. The paper plots G<sub>X</sub><sup>LMO</sup> + G<sub>Y</sub> for \
         LMO-primal methods and G<sub>X</sub><sup>PO</sup> + G<sub>Y</sub> for PO-primal methods \
         (<code>fig:Experiment</code>); its image files are empty in the source, so only the qualitative \
         claims below can be compared.</p>",
        fmt_num(exp.time_limit_s, 4)
    );
    body.push_str(&run_plots(&exp.runs, &name));
    body.push_str("</section>");
    if let Some(col) = &exp.table3 {
        table3_section(&mut body, exp, col);
    }
    claims_section(&mut body, exp);
    body.push_str("<section id=\"runs\"><h2>Runs</h2>");
    body.push_str(&runs_table(&exp.runs));
    body.push_str("</section>");
    notes_section(&mut body, &exp.notes);
    let subtitle = format!(
        "{} algorithms &#183; time limit {} s &#183; {}",
        exp.runs.len(),
        fmt_num(exp.time_limit_s, 4),
        escape(&meta.date)
    );
    let mut nav = vec![("figure1", "Figure 1")];
    if exp.table3.is_some() {
        nav.push(("table3", "Table 3"));
    }
    nav.extend([("claims", "Claims"), ("runs", "Runs")]);
    page(
        &format!("saddlefw experiment: {name}"),
        &subtitle,
        &nav,
        &body,
        meta,
    )
}

/// Iterations completed by this experiment's run of `alg`.
fn our_iterations(exp: &ExperimentReport, alg: &str) -> Option<f64> {
    exp.runs
        .iter()
        .find(|r| r.algorithm.eq_ignore_ascii_case(alg))
        .map(|r| r.iterations as f64)
}

/// The paper's Table 3 count for `alg` in this experiment: `None` when the algorithm is not in
/// the table, `Some(None)` for the paper's N/A.
fn paper_count(col: &Table3Column, alg: &str) -> Option<Option<f64>> {
    col.paper
        .iter()
        .find(|(a, _)| a.eq_ignore_ascii_case(alg))
        .map(|(_, n)| n.map(|n| n as f64))
}

/// The Table 3 column: this run's iteration counts next to the paper's, both as ratios to
/// LMO-PO, with each run's CPU share.
fn table3_section(body: &mut String, exp: &ExperimentReport, col: &Table3Column) {
    let _ = write!(
        body,
        "<section id=\"table3\"><h2>Table 3 column: iterations completed within {} s</h2>\
         <p>The paper's counts (<code>table:iters</code>) come from unstated hardware; only ratios between \
         methods are comparable, shown here relative to LMO-PO. <em>CPU share</em> is the share of a CPU \
         the run's thread got while it ran (<code>cpu_time_s</code> over solver plus measurement time); \
         below {} the machine was busy with other work, the count is low by about that factor, and the \
         Table 3 verdict is judged per CPU-second.</p>",
        fmt_num(exp.time_limit_s, 4),
        col.contended_share
    );
    body.push_str(
        "<table class=\"table3\"><thead><tr><th>algorithm</th><th>provenance</th>\
         <th class=\"num\">iterations (this run)</th><th class=\"num\">paper Table 3</th>\
         <th class=\"num\">ratio to LMO-PO (this run)</th><th class=\"num\">ratio to LMO-PO (paper)</th>\
         <th class=\"num\">CPU share</th><th>status</th></tr></thead><tbody>",
    );
    let mut names: Vec<String> = col.paper.iter().map(|(a, _)| a.clone()).collect();
    for r in &exp.runs {
        if !names.iter().any(|n| n.eq_ignore_ascii_case(&r.algorithm)) {
            names.push(r.algorithm.clone());
        }
    }
    for n in &names {
        table3_row(body, exp, col, n);
    }
    body.push_str("</tbody></table></section>");
}

/// One algorithm's row of the Table 3 column.
fn table3_row(body: &mut String, exp: &ExperimentReport, col: &Table3Column, n: &str) {
    let ours = |alg: &str| our_iterations(exp, alg);
    let paper = |alg: &str| paper_count(col, alg).flatten();
    let (our_ref, paper_ref) = (ours("LMO-PO"), paper("LMO-PO"));
    let run = exp
        .runs
        .iter()
        .find(|r| r.algorithm.eq_ignore_ascii_case(n));
    let ratio = |v: Option<f64>, r: Option<f64>| match (v, r) {
        (Some(v), Some(r)) if r > 0.0 => format!("{v:.2}", v = v / r),
        _ => "n/a".to_string(),
    };
    let paper_cell = match paper_count(col, n) {
        Some(Some(v)) => format!("{v}"),
        Some(None) => "N/A".to_string(),
        None => "n/a".to_string(),
    };
    let prov = match run {
        Some(r) => provenance_cell(r),
        None if is_baseline(n) => "<span class=\"muted\">not run</span>".to_string(),
        None => "<span class=\"muted\">the paper's algorithm (not run)</span>".to_string(),
    };
    let _ = write!(
        body,
        "<tr><td>{}</td><td>{prov}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
         <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
        escape(n),
        run.map_or("not run".to_string(), |r| r.iterations.to_string()),
        escape(&paper_cell),
        ratio(ours(n), our_ref),
        ratio(paper(n), paper_ref),
        cpu_share_cell(run, col.contended_share),
        escape(run.map_or("", |r| r.status.as_str())),
    );
}

/// The verdicts on the paper's qualitative claims.
fn claims_section(body: &mut String, exp: &ExperimentReport) {
    let claims = &exp.claims;
    body.push_str(
        "<section id=\"claims\"><h2>The paper's qualitative claims</h2><table class=\"claims\"><thead><tr>\
         <th>claim</th><th>paper label</th><th>verdict</th><th>evidence</th></tr></thead><tbody>",
    );
    for c in claims {
        let _ = write!(
            body,
            "<tr><td>{}</td><td class=\"mono\">{}</td><td>{}</td><td>{}</td></tr>",
            escape(&c.claim),
            escape(c.label.as_deref().unwrap_or("")),
            claim_badge(c.holds),
            escape(&c.evidence),
        );
    }
    body.push_str("</tbody></table></section>");
}

/// The notes on every choice where the paper is unclear (nothing when there are none).
fn notes_section(body: &mut String, notes: &[String]) {
    if !notes.is_empty() {
        body.push_str("<section id=\"notes\"><h2>Choices and notes</h2><ul class=\"notes\">");
        for n in notes {
            let _ = write!(body, "<li>{}</li>", escape(n));
        }
        body.push_str("</ul></section>");
    }
}
