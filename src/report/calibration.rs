//! The calibration of the gates (issue 34) as the verify page shows it: the summary that
//! `saddlefw calibrate` writes (`DIR/calibration-summary.json`), stored for this build in
//! `fixtures/calibration-summary.json` (copied from the run behind `docs/calibration.md`).
//!
//! # Example
//! ```
//! use saddlefw::report::calibration::{section, stored};
//! let s = stored();
//! assert!(s.legitimate_variants >= 8);
//! let html = section(&s, &["lmo-po/nc-c"]);
//! assert!(html.contains("Calibration of the gates") && html.contains("lmo-po/nc-c/dual"));
//! ```

use super::escape;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;

/// What the calibration found: false alarms over the legitimate panel and the power of the
/// faulty one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CalibrationSummary {
    /// `saddlefw VERSION (COMMIT)` of the run.
    pub build: String,
    /// Wall time of the run in seconds.
    pub time_s: f64,
    /// Legitimate variants (judged on every entry they apply to) and cells.
    pub legitimate_variants: usize,
    pub legitimate_cells: usize,
    /// `ENTRY under VARIANT (gates)` for every legitimate cell that failed.
    pub false_alarms: Vec<String>,
    /// The smallest legitimate margin per entry (rate evidence minus its threshold).
    pub min_margin: BTreeMap<String, f64>,
    /// Power per algorithm and faulty variant.
    pub power: Vec<PowerSummary>,
}

/// One faulty variant on one algorithm.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PowerSummary {
    pub algorithm: String,
    pub variant: String,
    /// Entries judged and entries that failed it.
    pub entries: usize,
    pub caught: usize,
    /// Why no entry may fail it (the variant keeps the claimed exponents), if so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_rate_changing: Option<String>,
}

const STORED: &str = include_str!("../../fixtures/calibration-summary.json");

/// The calibration of this build's gates (`fixtures/calibration-summary.json`).
pub fn stored() -> CalibrationSummary {
    serde_json::from_str(STORED).expect("fixtures/calibration-summary.json parses")
}

/// The verify page's calibration section for the theorem cases on the page (`cases`, e.g.
/// `lmo-po/nc-c`): the summary, the power table and each entry's smallest legitimate margin.
pub fn section(s: &CalibrationSummary, cases: &[&str]) -> String {
    let mut out = String::from("<section id=\"calibration\"><h2>Calibration of the gates</h2>");
    let _ = write!(
        out,
        "<p>How often these gates fail a correct solver and how often they catch a broken one, \
         measured by <code>saddlefw calibrate</code> ({build}, {t:.0} s; docs/calibration.md): \
         {lv} legitimate variants (other seeds, constants, offsets, start points, float order) in \
         {lc} cells with <b>{fa} false alarm(s)</b>; faulty variants caught per algorithm below.</p>",
        build = escape(&s.build),
        t = s.time_s,
        lv = s.legitimate_variants,
        lc = s.legitimate_cells,
        fa = s.false_alarms.len(),
    );
    if !s.false_alarms.is_empty() {
        out.push_str("<ul class=\"bad\">");
        for f in &s.false_alarms {
            let _ = write!(out, "<li>false alarm: {}</li>", escape(f));
        }
        out.push_str("</ul>");
    }
    out.push_str(
        "<table><thead><tr><th>algorithm</th><th>faulty variant</th>\
         <th class=\"num\">entries catching it</th><th>note</th></tr></thead><tbody>",
    );
    for p in &s.power {
        let (cls, note) = match (&p.not_rate_changing, p.caught) {
            (Some(why), 0) => ("", format!("keeps the claimed rates: {why}")),
            (None, 0) => (" class=\"bad\"", "not caught (power gap)".to_string()),
            _ => ("", String::new()),
        };
        let _ = write!(
            out,
            "<tr><td>{}</td><td class=\"mono\">{}</td><td class=\"num\">{} of {}</td><td{cls}>{}</td></tr>",
            escape(&p.algorithm),
            escape(&p.variant),
            p.caught,
            p.entries,
            escape(&note)
        );
    }
    out.push_str("</tbody></table>");
    let rows: Vec<(&String, &f64)> = s
        .min_margin
        .iter()
        .filter(|(id, _)| cases.iter().any(|c| id.starts_with(&format!("{c}/"))))
        .collect();
    if !rows.is_empty() {
        out.push_str(
            "<table><thead><tr><th>entry</th><th class=\"num\">smallest legitimate margin</th>\
             </tr></thead><tbody>",
        );
        for (id, m) in rows {
            let cls = if *m < 0.0 { " class=\"bad\"" } else { "" };
            let _ = write!(
                out,
                "<tr><td class=\"mono\">{}</td><td class=\"num\"{cls}>{m:+.3}</td></tr>",
                escape(id)
            );
        }
        out.push_str("</tbody></table>");
    }
    out.push_str("</section>\n");
    out
}
