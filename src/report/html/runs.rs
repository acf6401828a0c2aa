//! The runs page and the pieces of runs shown on other pages: legends with provenance,
//! the runs table and the measure plots.

use super::format::opt_num;
use super::page::{figure, page};
use crate::report::escape;
use crate::report::model::{is_baseline, Meta, RunSummary, Series};
use crate::report::plot::{self, Axis};
use std::collections::HashSet;
use std::fmt::Write;

/// The display name of a run in legends: a baseline always carries its provenance.
fn run_legend(r: &RunSummary) -> String {
    if is_baseline(&r.algorithm) {
        let prov = r
            .provenance
            .as_deref()
            .map_or("provenance missing".to_string(), provenance_tag);
        format!("{} [{}]", r.algorithm, prov)
    } else {
        r.algorithm.clone()
    }
}

/// The weakest confidence label in a provenance string (GUESSED < RECONSTRUCTED <
/// VERIFIED-2ND < VERIFIED, baselines.md), or its first words when it names none.
pub(crate) fn provenance_tag(provenance: &str) -> String {
    ["GUESSED", "RECONSTRUCTED", "VERIFIED-2ND", "VERIFIED"]
        .iter()
        .find(|k| provenance.contains(*k))
        .map_or_else(|| provenance.chars().take(24).collect(), |k| k.to_string())
}

pub(super) fn provenance_cell(r: &RunSummary) -> String {
    match (&r.provenance, is_baseline(&r.algorithm)) {
        (Some(p), _) => escape(p),
        (None, true) => "<span class=\"bad\">provenance missing</span>".to_string(),
        (None, false) => "<span class=\"muted\">the paper's algorithm</span>".to_string(),
    }
}

fn last_y(s: &Option<Series>) -> Option<f64> {
    s.as_ref()?.points.last().map(|p| p.1)
}

fn min_y(s: &Option<Series>) -> Option<f64> {
    s.as_ref()?
        .points
        .iter()
        .map(|p| p.1)
        .filter(|y| y.is_finite())
        .reduce(f64::min)
}

/// Measure label shared by all runs, or a pointer to the table when they differ.
fn measure_label(runs: &[RunSummary]) -> String {
    let ms: HashSet<&str> = runs.iter().filter_map(|r| r.measure.as_deref()).collect();
    match ms.len() {
        1 => ms.into_iter().next().unwrap_or("measure").to_string(),
        0 => "gap measure".to_string(),
        _ => "stationarity measure (per run: see table)".to_string(),
    }
}

/// Gap against iteration (x = t + 1, so the first iterate fits on a log axis) and gap
/// against wall-clock time, one line per run.
pub(super) fn run_plots(runs: &[RunSummary], title: &str) -> String {
    let ylabel = measure_label(runs);
    let by_iter: Vec<Series> = runs
        .iter()
        .filter_map(|r| {
            r.by_iteration.as_ref().map(|s| {
                Series::new(
                    run_legend(r),
                    s.points.iter().map(|&(t, g)| (t + 1.0, g)).collect(),
                )
            })
        })
        .collect();
    let by_time: Vec<Series> = runs
        .iter()
        .filter_map(|r| {
            r.by_time
                .as_ref()
                .map(|s| Series::new(run_legend(r), s.points.clone()))
        })
        .collect();
    let mut s = String::from("<div class=\"plots\">");
    if !by_time.is_empty() {
        s.push_str(&figure(
            &plot::algorithms_plot(
                &format!("{title}: measure over time"),
                Axis::linear("wall-clock time (s, measurements excluded)"),
                Axis::log(&ylabel),
                &by_time,
            ),
            "Stationarity measure against wall-clock time, one line per algorithm.",
        ));
    }
    if !by_iter.is_empty() {
        s.push_str(&figure(
            &plot::algorithms_plot(
                &format!("{title}: measure per iteration"),
                Axis::log("iteration t + 1"),
                Axis::log(&ylabel),
                &by_iter,
            ),
            "Stationarity measure against the iteration counter (log-log), one line per algorithm.",
        ));
    }
    if by_time.is_empty() && by_iter.is_empty() {
        s.push_str("<p class=\"muted\">The runs recorded no measure series.</p>");
    }
    s.push_str("</div>");
    s
}

pub(super) fn runs_table(runs: &[RunSummary]) -> String {
    let mut s = String::from(
        "<table class=\"runs\"><thead><tr><th>algorithm</th><th>provenance</th><th>problem</th>\
         <th>measure</th><th>status</th><th class=\"num\">iterations</th><th class=\"num\">wall time (s)</th>\
         <th class=\"num\">final measure</th><th class=\"num\">best measure</th></tr></thead><tbody>",
    );
    for r in runs {
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            escape(&r.algorithm),
            provenance_cell(r),
            escape(r.problem.as_deref().unwrap_or("")),
            escape(r.measure.as_deref().unwrap_or("")),
            escape(&r.status),
            r.iterations,
            opt_num(r.wall_time_s, 3),
            opt_num(last_y(&r.by_iteration).or(last_y(&r.by_time)), 3),
            opt_num(min_y(&r.by_iteration).or(min_y(&r.by_time)), 3),
        );
    }
    s.push_str("</tbody></table>");
    s
}

/// The page of `saddlefw report RUN.json... --out FILE.html`: a table of the runs and the
/// measure against iteration and time, one line per algorithm.
pub fn runs_page(meta: &Meta, runs: &[RunSummary]) -> String {
    let problems: Vec<&str> = runs
        .iter()
        .filter_map(|r| r.problem.as_deref())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let title = match problems.as_slice() {
        [p] => format!("saddlefw report: {p}"),
        _ => "saddlefw report".to_string(),
    };
    let mut body = String::from("<section id=\"runs\"><h2>Runs</h2>");
    body.push_str(&runs_table(runs));
    body.push_str("</section><section id=\"plots\"><h2>Plots</h2>");
    body.push_str(&run_plots(
        runs,
        problems.first().copied().unwrap_or("runs"),
    ));
    body.push_str("</section>\n");
    let subtitle = format!("{} runs &#183; {}", runs.len(), escape(&meta.date));
    page(
        &title,
        &subtitle,
        &[("runs", "Runs"), ("plots", "Plots")],
        &body,
        meta,
    )
}
