//! The check page, and the invariant and errata sections it shares with the verify page.

use super::format::opt_num;
use super::page::page;
use crate::report::escape;
use crate::report::model::{Erratum, InvariantRow, Meta};
use std::fmt::Write;

pub(super) fn invariant_section(rows: &[InvariantRow]) -> String {
    let mut s = String::from("<section id=\"invariants\"><h2>Invariants</h2>");
    if rows.is_empty() {
        s.push_str("<p class=\"muted\">No invariant results in this report.</p></section>\n");
        return s;
    }
    let violated = rows.iter().filter(|r| r.gating && r.violations > 0).count();
    let _ = write!(
        s,
        "<p>{} invariants, {} gating invariant(s) violated. Slack is rhs &#8722; lhs of the inequality \
         (negative: violated); the minimum over all cases shows how tight it is.</p>",
        rows.len(),
        violated
    );
    s.push_str(
        "<table class=\"invariants\"><thead><tr><th>invariant</th><th>paper label</th><th>gating</th>\
         <th class=\"num\">cases</th><th class=\"num\">violations</th><th class=\"num\">min slack</th>\
         <th>status</th><th>worst case</th></tr></thead><tbody>",
    );
    for r in rows {
        let status = if r.cases == 0 {
            "<span class=\"muted\">not applied</span>".to_string()
        } else if r.violations == 0 {
            "ok".to_string()
        } else if r.gating {
            "<span class=\"bad\">VIOLATED</span>".to_string()
        } else {
            "<span class=\"warn\">fails (printed form, not gating)</span>".to_string()
        };
        let _ = write!(
            s,
            "<tr><td class=\"mono\">{}</td><td class=\"mono\">{}</td><td>{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td>{status}</td><td>{}</td></tr>",
            escape(&r.name),
            escape(&r.label),
            if r.gating { "yes" } else { "no" },
            r.cases,
            r.violations,
            opt_num(r.min_slack, 3),
            escape(r.worst.as_deref().unwrap_or("")),
        );
    }
    s.push_str("</tbody></table></section>\n");
    s
}

pub(super) fn errata_section(errata: &[Erratum]) -> String {
    let mut s = String::from("<section id=\"errata\"><h2>Errata: printed vs corrected forms</h2>");
    if errata.is_empty() {
        s.push_str("<p class=\"muted\">No errata evaluated in this report.</p></section>\n");
        return s;
    }
    s.push_str(
        "<table class=\"errata\"><thead><tr><th>paper label</th><th>printed</th><th>corrected</th>\
         <th>outcome</th></tr></thead><tbody>",
    );
    for e in errata {
        let cls = match e.confirmed {
            Some(true) => " class=\"bad\"",
            _ => "",
        };
        let _ = write!(
            s,
            "<tr><td class=\"mono\">{}</td><td class=\"mono\">{}</td><td class=\"mono\">{}</td><td{cls}>{}</td></tr>",
            escape(&e.label),
            escape(&e.printed),
            escape(&e.corrected),
            escape(&e.outcome),
        );
    }
    s.push_str("</tbody></table></section>\n");
    s
}

/// The check page (issue 4): the invariant table and the errata.
pub fn check_page(meta: &Meta, invariants: &[InvariantRow], errata: &[Erratum]) -> String {
    let mut body = String::new();
    body.push_str(&invariant_section(invariants));
    body.push_str(&errata_section(errata));
    let cases: u64 = invariants.iter().map(|r| r.cases).sum();
    let subtitle = format!(
        "{} invariants &#183; {} checked cases &#183; {}",
        invariants.len(),
        cases,
        escape(&meta.date)
    );
    page(
        "saddlefw check: the paper's inequalities",
        &subtitle,
        &[("invariants", "Invariants"), ("errata", "Errata")],
        &body,
        meta,
    )
}
