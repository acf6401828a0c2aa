//! The verify page: the summary table, how to read a verdict, tightness, one section per
//! entry with its plots and instances.

use super::check::{errata_section, invariant_section};
use super::format::{fmt_count, fmt_num, opt_num, verdict_badge};
use super::page::{figure, page};
use crate::report::escape;
use crate::report::model::{
    DifferentialTable, Erratum, InstanceInfo, InvariantRow, Meta, RateEntry, Tightness, Verdict,
};
use crate::report::plot::{self, TightnessPoint};
use std::collections::HashSet;
use std::fmt::Write;

/// Observed exponent and interval, e.g. `0.941 [0.902, 0.977]`.
fn p_hat_text(p_hat: Option<f64>, ci: Option<(f64, f64)>) -> String {
    match (p_hat, ci) {
        (Some(p), Some((lo, hi))) => format!("{p:.3} [{lo:.3}, {hi:.3}]"),
        (Some(p), None) => format!("{p:.3}"),
        (None, _) => "n/a".to_string(),
    }
}

fn theorem_p_text(p: f64, log_factor: bool) -> String {
    format!(
        "{}{}",
        if log_factor { "~" } else { "" },
        plot::fmt_exponent(p)
    )
}

/// Envelope ratio cell: ratios above 1 (anytime bound broken) are marked.
fn envelope_html(r: Option<f64>) -> String {
    match r {
        None => "<span class=\"muted\">n/a</span>".to_string(),
        Some(x) if x > 1.0 => format!("<span class=\"bad\">{} (&gt; 1)</span>", fmt_num(x, 3)),
        Some(x) => fmt_num(x, 3),
    }
}

/// Anchor ids for entries: `entry-` + a slug of the id, made unique.
fn anchors(entries: &[RateEntry]) -> Vec<String> {
    let mut seen = HashSet::new();
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let base: String = format!("entry-{}", if e.id.is_empty() { &e.case } else { &e.id })
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                        c.to_ascii_lowercase()
                    } else {
                        '-'
                    }
                })
                .collect();
            let mut id = base.clone();
            if !seen.insert(id.clone()) {
                id = format!("{base}-{}", i + 1);
                seen.insert(id.clone());
            }
            id
        })
        .collect()
}
const HOW_TO_READ: &str = r#"<section id="how-to-read"><h2>How to read a verdict</h2><div class="explain"><dl>
<dt>What is measured</dt><dd>Each theorem bounds one quantity (a running average or a last iterate of a gap measure) by C&#183;T<sup>&#8722;p</sup>. Each entry runs the algorithm with the theorem's schedule on instances that satisfy exactly the theorem's assumptions, for several seeds, and records the quantity at log-spaced checkpoints T.</dd>
<dt>Observed exponent p&#770;</dt><dd>The least-squares slope of ln(quantity) against ln T over a late <em>fit window</em> (shaded in the plots) where the local slopes have stabilised and the quantity is above the floating-point floor, with its confidence interval across seeds. The theorems are upper bounds: decaying faster than T<sup>&#8722;p</sup> (p&#770; &gt; p) is consistent with them.</dd>
<dt><span class="verdict verdict-pass">&#10003; PASS</span></dt><dd>The interval for p&#770; is not entirely below p &#8722; tol (tol is documented in the theorem table; larger where log factors are allowed), the explicit envelope held, and p&#770; did not drop below its stored regression baseline by more than the margin.</dd>
<dt><span class="verdict verdict-fail">&#10007; FAIL</span></dt><dd>The whole interval lies below p &#8722; tol (slower than the theorem), or the quantity exceeded the explicit bound at some checkpoint (envelope ratio &gt; 1), or the solver's declared schedule is outside the theorem's hypotheses (schedule gate), or, on a stored hard instance, the rate fails at T and on the confirmation run at 16 T. Three questions are answered apart (verify.json <code>answers</code>): theorem conformance (run, envelope, schedule), rate evidence (rate, mhat, hard-rate) and agreement with saddlefw's reference exponents (baseline, hard-baseline), which is reported and gates only when asked (<code>--reference-regression</code>). The entry's notes say which.</dd>
<dt><span class="verdict verdict-floor">&#9661; FLOOR</span></dt><dd>The quantity reached machine precision before a fit window could be found: no exponent can be measured, which is not a failure (the decay was at least as fast as needed), but not evidence either.</dd>
<dt><span class="verdict verdict-disputed">&#9873; DISPUTED</span></dt><dd>Reproducible evidence contradicts the paper's statement (for example a claim printed without a log factor that the measurements and the proofs' lemmas need). The entry names the instance and the numbers; it is shown, never relaxed silently.</dd>
<dt>Envelope ratio</dt><dd>Where claims.md section 5 gives explicit constants: the largest quantity/bound(T) over all checkpoints. At most 1 means the anytime bound held everywhere.</dd>
<dt>Reading the plots</dt><dd>Rate plot (log-log): thin lines are seeds, the bold line is their median, the solid orange segment is the fit over its window, the dashed black line has the theorem's slope &#8722;p and starts at the median's value at the window start. A median that stays on or below the dashed line decays at least as fast as the theorem says. Local-slope plot: d ln q / d ln T against T; it should settle at or below the dashed &#8722;p line inside the window.</dd>
</dl></div></section>
"#;

/// The verify page (issue 5, 6, 10): summary table of every entry, the tightness table and
/// plot (from the entries' [`Tightness`] records), per-entry sections with rate and
/// local-slope plots and the instances, the invariant table, the errata and the metadata.
pub fn verify_page(
    meta: &Meta,
    entries: &[RateEntry],
    invariants: &[InvariantRow],
    errata: &[Erratum],
) -> String {
    verify_page_with(meta, entries, invariants, errata, None)
}

/// [`verify_page`] with the differential comparison's table after the summary, when given.
pub(crate) fn verify_page_with(
    meta: &Meta,
    entries: &[RateEntry],
    invariants: &[InvariantRow],
    errata: &[Erratum],
    differential: Option<&DifferentialTable>,
) -> String {
    let ids = anchors(entries);
    let count = |v: Verdict| entries.iter().filter(|e| e.verdict == v).count();
    let mut counts = String::from("<p class=\"counts\">");
    for v in [
        Verdict::Pass,
        Verdict::Fail,
        Verdict::Floor,
        Verdict::Disputed,
    ] {
        let _ = write!(counts, "{} &#215; {} &#160; ", verdict_badge(v), count(v));
    }
    counts.push_str("</p>");

    let mut body = String::new();
    let _ = write!(
        body,
        "<section id=\"summary\"><h2>Summary</h2>{counts}<table class=\"summary\"><thead><tr>\
         <th>#</th><th>algorithm</th><th>setting</th><th>quantity</th><th class=\"num\">theorem p</th>\
         <th class=\"num\">observed p&#770; [interval]</th><th class=\"num\">envelope ratio</th>\
         <th>verdict</th><th>paper label</th><th>details</th></tr></thead><tbody>"
    );
    for (i, (e, id)) in entries.iter().zip(&ids).enumerate() {
        let _ = write!(
            body,
            "<tr class=\"row-{v}\" data-entry=\"{id}\"><td class=\"num\">{n}</td><td>{alg}</td><td>{set}</td>\
             <td>{q}</td><td class=\"num\">{p}</td><td class=\"num\">{ph}</td><td class=\"num\">{env}</td>\
             <td class=\"verdict-cell\">{badge}</td><td class=\"mono\">{label}</td>\
             <td><a href=\"#{id}\">plots &#8595;</a></td></tr>",
            v = e.verdict.name(),
            id = escape(id),
            n = i + 1,
            alg = escape(&e.algorithm),
            set = escape(&e.setting),
            q = escape(&e.quantity_text),
            p = escape(&theorem_p_text(e.p, e.log_factor)),
            ph = escape(&p_hat_text(e.p_hat, e.ci)),
            env = envelope_html(e.envelope_ratio),
            badge = verdict_badge(e.verdict),
            label = escape(&e.label),
        );
    }
    body.push_str("</tbody></table></section>\n");
    if let Some(d) = differential {
        body.push_str(&differential_section(d));
    }
    body.push_str(HOW_TO_READ);
    body.push_str(&tightness_section(entries, &ids));

    body.push_str("<section id=\"entries\"><h2>Entries</h2>");
    for (e, id) in entries.iter().zip(&ids) {
        body.push_str(&entry_section(e, id));
    }
    body.push_str("</section>\n");
    let mut cases: Vec<&str> = entries.iter().map(|e| e.case.as_str()).collect();
    cases.dedup();
    body.push_str(&crate::report::calibration::section(
        &crate::report::calibration::stored(),
        &cases,
    ));
    body.push_str(&invariant_section(invariants));
    body.push_str(&errata_section(errata));

    let subtitle = format!(
        "{} entries &#183; tier {} &#183; {}",
        entries.len(),
        escape(meta.tier.as_deref().unwrap_or("n/a")),
        escape(&meta.date)
    );
    let mut nav = vec![("summary", "Summary")];
    if differential.is_some() {
        nav.push(("differential", "Differential"));
    }
    nav.extend([
        ("how-to-read", "How to read a verdict"),
        ("tightness", "Tightness"),
        ("entries", "Entries"),
        ("invariants", "Invariants"),
        ("errata", "Errata"),
    ]);
    page(
        "saddlefw verify: convergence rates of the paper's theorems",
        &subtitle,
        &nav,
        &body,
        meta,
    )
}

/// The differential comparison: one row per job (verdict, where it departs or how far it
/// agrees), the rule above the table.
fn differential_section(d: &DifferentialTable) -> String {
    let mut s = format!(
        "<section id=\"differential\"><h2>Differential: your iterates against saddlefw's {}</h2>\
         <p>{}</p><p class=\"counts\">{}</p><table><thead><tr><th>job</th><th>instance</th>\
         <th>verdict</th><th>where</th></tr></thead><tbody>",
        escape(&d.against),
        escape(&d.rule),
        escape(&d.summary)
    );
    for r in &d.rows {
        let cls = if r.failed { " class=\"bad\"" } else { "" };
        let _ = write!(
            s,
            "<tr><td class=\"mono\">{}</td><td class=\"mono\">{}</td><td{cls}>{}</td><td>{}</td></tr>",
            escape(&r.job),
            escape(&r.spec),
            escape(&r.verdict),
            escape(&r.detail)
        );
    }
    s.push_str("</tbody></table></section>\n");
    s
}

fn tightness_section(entries: &[RateEntry], ids: &[String]) -> String {
    let mut s = String::from("<section id=\"tightness\"><h2>Tightness</h2>");
    let rows: Vec<(&RateEntry, &String, &Tightness)> = entries
        .iter()
        .zip(ids)
        .filter_map(|(e, id)| e.tightness.as_ref().map(|t| (e, id, t)))
        .collect();
    if rows.is_empty() {
        s.push_str("<p class=\"muted\">No hard-instance search results in this run (see <code>saddlefw tighten</code>).</p></section>\n");
        return s;
    }
    s.push_str(
        "<p>For each entry, the instance with the smallest observed exponent that the search \
         found among the hard families. An observed exponent close to p means the theorem's rate \
         is nearly attained and the gate has teeth.</p><table><thead><tr><th>entry</th>\
         <th class=\"num\">theorem p</th><th class=\"num\">slowest p&#770; [interval]</th>\
         <th>family</th><th>parameters</th><th>note</th></tr></thead><tbody>",
    );
    for (e, id, t) in &rows {
        let cls = if t.note.contains("violated") {
            " class=\"bad\""
        } else {
            ""
        };
        let _ = write!(
            s,
            "<tr><td><a href=\"#{id}\">{case} &#183; {q}</a></td><td class=\"num\">{p}</td>\
             <td class=\"num\">{ph}</td><td>{fam}</td><td class=\"mono\">{par}</td><td{cls}>{note}</td></tr>",
            id = escape(id),
            case = escape(&e.case),
            q = escape(&e.quantity_text),
            p = escape(&theorem_p_text(e.p, e.log_factor)),
            ph = escape(&p_hat_text(Some(t.p_hat), t.ci)),
            fam = escape(&t.family),
            par = escape(&t.params),
            note = escape(&t.note),
        );
    }
    s.push_str("</tbody></table>");
    let pts: Vec<TightnessPoint> = rows
        .iter()
        .map(|(e, _, t)| TightnessPoint {
            p: e.p,
            p_hat: t.p_hat,
            ci: t.ci,
        })
        .collect();
    s.push_str("<div class=\"plots\">");
    s.push_str(&figure(
        &plot::tightness_plot(&pts),
        "Theorem exponent p against the slowest observed exponent on the hardest instance found; \
         points on the dashed diagonal attain the theorem's rate, points far above it decay much faster.",
    ));
    s.push_str("</div></section>\n");
    s
}

fn entry_section(e: &RateEntry, id: &str) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<article class=\"entry verdict-box-{v}\" id=\"{id}\"><h3>{badge} &#160;{alg} &#183; {set} &#8212; {q}</h3>",
        v = e.verdict.name(),
        id = escape(id),
        badge = verdict_badge(e.verdict),
        alg = escape(&e.algorithm),
        set = escape(&e.setting),
        q = escape(&e.quantity_text),
    );
    let window = e.window.map_or("n/a".to_string(), |(a, b)| {
        format!("T in [{}, {}]", fmt_count(a), fmt_count(b))
    });
    let facts = [
        ("case", escape(&e.case)),
        ("paper label", format!("<code>{}</code>", escape(&e.label))),
        (
            "theorem exponent p",
            escape(&format!(
                "{}{}",
                theorem_p_text(e.p, e.log_factor),
                if e.log_factor {
                    " (log factors allowed)"
                } else {
                    ""
                }
            )),
        ),
        ("observed p̂ [interval]", escape(&p_hat_text(e.p_hat, e.ci))),
        ("fit window", escape(&window)),
        ("envelope ratio", envelope_html(e.envelope_ratio)),
        ("baseline p̂", escape(&opt_num(e.baseline_p_hat, 3))),
        (
            "time",
            escape(
                &e.time_s
                    .map_or("n/a".into(), |t| format!("{} s", fmt_num(t, 3))),
            ),
        ),
    ];
    s.push_str("<dl class=\"facts\">");
    for (k, v) in facts {
        let _ = write!(s, "<dt>{}</dt><dd>{v}</dd>", escape(k));
    }
    for (q, a) in e.answers.iter().flatten() {
        let _ = write!(s, "<dt>{}</dt><dd>{}</dd>", escape(q), escape(a));
    }
    if let Some(c) = &e.reproduce {
        let _ = write!(s, "<dt>reproduce</dt><dd><code>{}</code></dd>", escape(c));
    }
    s.push_str("</dl>");
    if !e.notes.is_empty() {
        s.push_str("<ul class=\"notes\">");
        for n in &e.notes {
            let _ = write!(s, "<li>{}</li>", escape(n));
        }
        s.push_str("</ul>");
    }
    s.push_str("<div class=\"plots\">");
    s.push_str(&figure(
        &plot::rate_plot(e),
        &format!(
            "{} on log-log axes against the iteration count T.",
            e.quantity_text
        ),
    ));
    s.push_str(&figure(
        &plot::local_slope_plot(e),
        "Local slopes d ln q / d ln T; inside the fit window they should settle at or below −p.",
    ));
    s.push_str("</div>");
    s.push_str(&instance_table(&e.instances));
    if let Some(t) = &e.tightness {
        let hard = RateEntry {
            seeds: t.series.clone(),
            median: None,
            fit: None,
            envelope: None,
            window: None,
            p_hat: Some(t.p_hat),
            ci: t.ci,
            local_slopes: t.local_slopes.clone(),
            quantity_text: format!("{} (hardest instance)", e.quantity_text),
            ..e.clone()
        };
        let _ = write!(
            s,
            "<h4>Hardest instance found: {} <code>{}</code> &#8212; p&#770; = {} &#8212; {}{}</h4>",
            escape(&t.family),
            escape(&t.params),
            escape(&p_hat_text(Some(t.p_hat), t.ci)),
            escape(&t.note),
            t.fixture.as_ref().map_or(String::new(), |f| format!(
                " (stored in <code>{}</code>)",
                escape(f)
            )),
        );
        if !t.series.is_empty() || !t.local_slopes.is_empty() {
            s.push_str("<div class=\"plots\">");
            s.push_str(&figure(
                &plot::rate_plot(&hard),
                "The quantity on the hardest instance, per seed.",
            ));
            s.push_str(&figure(
                &plot::local_slope_plot(&hard),
                "Local slopes on the hardest instance.",
            ));
            s.push_str("</div>");
        }
    }
    s.push_str(
        "<p class=\"back\"><a href=\"#summary\">&#8593; back to the summary</a></p></article>\n",
    );
    s
}

fn instance_table(instances: &[InstanceInfo]) -> String {
    if instances.is_empty() {
        return "<p class=\"muted\">No instance information recorded.</p>".to_string();
    }
    let mut s = String::from(
        "<table class=\"instances\"><thead><tr><th>family</th><th>parameters</th><th class=\"num\">seed</th>\
         <th class=\"num\">dim x</th><th class=\"num\">dim y</th><th class=\"num\">L<sub>xx</sub></th>\
         <th class=\"num\">L<sub>yx</sub></th><th class=\"num\">L<sub>yy</sub></th><th class=\"num\">&#956;</th>\
         <th class=\"num\">&#945;</th><th class=\"num\">D<sub>X</sub></th><th class=\"num\">D<sub>Y</sub></th>\
         <th>assumptions satisfied</th></tr></thead><tbody>",
    );
    for i in instances {
        let c = &i.constants;
        let _ = write!(
            s,
            "<tr><td>{}</td><td class=\"mono\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            escape(&i.family),
            escape(i.params.as_deref().unwrap_or("")),
            i.seed.map_or("n/a".into(), |s| s.to_string()),
            i.dim_x,
            i.dim_y,
            fmt_num(c.lxx, 3),
            fmt_num(c.lyx, 3),
            fmt_num(c.lyy, 3),
            fmt_num(c.mu, 3),
            opt_num(c.alpha, 3),
            fmt_num(c.dx, 3),
            fmt_num(c.dy, 3),
            escape(&i.assumptions.join(", ")),
        );
    }
    s.push_str("</tbody></table>");
    s
}
