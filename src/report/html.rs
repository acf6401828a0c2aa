//! Self-contained HTML pages: inline CSS, inline SVG, no scripts, nothing fetched.
//!
//! All pages share one skeleton (`page`) and the same pieces (verdict badges, figures,
//! the invariant table, the errata list, runs tables, the metadata block). Every piece of
//! text that comes from data passes through [`escape`].
//!
//! ```
//! use saddlefw::fit::Verdict;
//! use saddlefw::report::html::{fmt_num, runs_page, verdict_badge};
//! use saddlefw::report::{Meta, RunSummary, Series};
//! assert_eq!((fmt_num(0.012345, 3), fmt_num(123456.0, 3)), ("0.0123".to_string(), "1.23e5".to_string()));
//! assert!(verdict_badge(Verdict::Fail).contains("FAIL"));
//! // a page is self-contained (no script, nothing fetched) and escapes the text of its data
//! let run = RunSummary {
//!     algorithm: "SP-FW".into(),
//!     provenance: Some("VERIFIED <authors' code>".into()),
//!     problem: Some("p".into()),
//!     measure: None,
//!     status: "completed".into(),
//!     iterations: 3,
//!     wall_time_s: Some(0.1),
//!     cpu_share: None,
//!     by_iteration: Some(Series::new("SP-FW", vec![(1.0, 1.0), (2.0, 0.5), (3.0, 0.3)])),
//!     by_time: None,
//! };
//! let page = runs_page(&Meta::current(None, &[0]), &[run]);
//! assert!(page.contains("VERIFIED &lt;authors") && !page.contains("<authors"));
//! assert!(!page.contains("<script") && !page.contains("src=\"http"));
//! ```

use super::escape;
use super::model::*;
use super::plot::{self, Axis, PlotOutput, TightnessPoint};
use std::collections::HashSet;
use std::fmt::Write;

const CSS: &str = r#"
:root { --fg:#1b1f24; --muted:#57606a; --line:#d0d7de; --bg2:#f6f8fa; --accent:#0b3d91; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", Arial, sans-serif;
       color: var(--fg); margin: 0; line-height: 1.45; font-size: 15px; background: #fff; }
main { max-width: 1320px; margin: 0 auto; padding: 18px 28px 60px; }
header.top { border-bottom: 3px solid var(--accent); margin-bottom: 10px; padding-bottom: 8px; }
h1 { font-size: 26px; margin: 6px 0 2px; }
h2 { font-size: 21px; margin: 32px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 17px; margin: 0 0 8px; }
p.sub { color: var(--muted); margin: 0; }
nav.toc { margin: 10px 0 4px; font-size: 14px; }
nav.toc a { margin-right: 14px; }
a { color: #0550ae; text-decoration: none; } a:hover { text-decoration: underline; }
table { border-collapse: collapse; width: 100%; font-size: 14px; margin: 8px 0 14px; }
th, td { border: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: var(--bg2); font-weight: 600; white-space: nowrap; }
tbody tr:nth-child(even) td { background: #fbfcfd; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.mono, code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 13px; }
.verdict { display: inline-block; min-width: 92px; padding: 2px 8px; border-radius: 4px; font-weight: 700;
           font-size: 13px; letter-spacing: .03em; text-align: center; white-space: nowrap; border: 2px solid; }
.verdict-pass { background: #dafbe1; color: #116329; border-color: #1a7f37; }
.verdict-fail { background: #cf222e; color: #fff; border-color: #82071e; }
.verdict-floor { background: #eaeef2; color: #424a53; border-color: #8c959f; border-style: dashed; }
.verdict-disputed { background: #fff1c2; color: #7d4e00; border-color: #bf8700; border-style: double; border-width: 3px; }
.counts span.verdict { margin-right: 8px; }
.warn { color: #9a3412; }
.bad { color: #b42318; font-weight: 700; }
.muted { color: var(--muted); }
.explain { background: var(--bg2); border: 1px solid var(--line); border-radius: 6px; padding: 4px 18px 8px; }
.explain dt { font-weight: 700; margin-top: 8px; }
.explain dd { margin-left: 0; }
article.entry { border: 1px solid var(--line); border-radius: 8px; padding: 14px 18px; margin: 18px 0; }
article.entry.verdict-box-fail { border-left: 6px solid #cf222e; }
article.entry.verdict-box-disputed { border-left: 6px double #bf8700; }
dl.facts { display: grid; grid-template-columns: max-content 1fr max-content 1fr; gap: 2px 14px; margin: 6px 0 10px; font-size: 14px; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; }
ul.notes { margin: 4px 0 10px; padding-left: 20px; font-size: 14px; }
.plots { display: flex; flex-wrap: wrap; gap: 14px; margin: 8px 0; }
figure { flex: 1 1 560px; max-width: 680px; margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 6px; background: #fff; }
figure svg { width: 100%; height: auto; display: block; }
figcaption { font-size: 13px; color: var(--muted); padding: 4px 4px 0; }
figcaption .warn { display: block; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; font-size: 14px; }
dl.meta dt { color: var(--muted); } dl.meta dd { margin: 0; }
.back { font-size: 13px; margin: 6px 0 0; }
.illustration { background: #fff8c5; border: 1px solid #d4a72c; padding: 8px 12px; border-radius: 6px; }
@media print { figure, article.entry, table { break-inside: avoid; } nav.toc { display: none; } }
"#;

/// The page skeleton: title, header, table of contents, sections, metadata.
fn page(title: &str, subtitle: &str, toc: &[(&str, &str)], body: &str, meta: &Meta) -> String {
    let mut s = String::with_capacity(body.len() + 8192);
    s.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    s.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(s, "<title>{}</title>", escape(title));
    let _ = writeln!(s, "<style>{CSS}</style>\n</head>\n<body>\n<main>");
    let _ = writeln!(
        s,
        "<header class=\"top\" id=\"top\"><h1>{}</h1><p class=\"sub\">{}</p></header>",
        escape(title),
        subtitle
    );
    s.push_str("<nav class=\"toc\">");
    for (id, name) in toc.iter().chain(std::iter::once(&("metadata", "Metadata"))) {
        let _ = write!(s, "<a href=\"#{}\">{}</a>", escape(id), escape(name));
    }
    s.push_str("</nav>\n");
    s.push_str(&super::banner::interrupted(meta.interrupted.as_deref()));
    s.push_str(body);
    s.push_str(&meta_section(meta));
    s.push_str("</main>\n</body>\n</html>\n");
    s
}

fn meta_section(meta: &Meta) -> String {
    let seeds = if meta.seeds.is_empty() {
        "n/a".to_string()
    } else {
        meta.seeds
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let rows = [
        ("saddlefw version", meta.version.clone()),
        (
            "git commit",
            meta.git_commit
                .clone()
                .unwrap_or_else(|| "not available".into()),
        ),
        ("seeds", seeds),
        ("tier", meta.tier.clone().unwrap_or_else(|| "n/a".into())),
        ("machine", meta.machine.clone()),
        ("date", meta.date.clone()),
        (
            "command",
            meta.command.clone().unwrap_or_else(|| "n/a".into()),
        ),
    ];
    let mut s = String::from("<section id=\"metadata\"><h2>Metadata</h2><dl class=\"meta\">");
    for (k, v) in rows {
        let _ = write!(
            s,
            "<dt>{}</dt><dd><code>{}</code></dd>",
            escape(k),
            escape(&v)
        );
    }
    s.push_str("</dl></section>\n");
    s
}

/// `✓ PASS`-style badge: colour, border style and text all differ by verdict.
pub fn verdict_badge(v: Verdict) -> String {
    let (sym, text) = match v {
        Verdict::Pass => ("✓", "PASS"),
        Verdict::Fail => ("✗", "FAIL"),
        Verdict::Floor => ("▽", "FLOOR"),
        Verdict::Disputed => ("⚑", "DISPUTED"),
    };
    format!(
        "<span class=\"verdict verdict-{}\">{sym} {text}</span>",
        v.name()
    )
}

/// A number with about `sig` significant digits; scientific outside [1e-3, 1e5).
pub fn fmt_num(v: f64, sig: usize) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    if v == 0.0 {
        return "0".to_string();
    }
    let mag = v.abs().log10().floor() as i32;
    if !(-3..5).contains(&mag) {
        return format!("{:.*e}", sig.saturating_sub(1), v);
    }
    let decimals = (sig as i32 - 1 - mag).max(0) as usize;
    format!("{v:.decimals$}")
}

/// An iteration count: integer when it is one.
fn fmt_count(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        fmt_num(v, 4)
    }
}

fn opt_num(v: Option<f64>, sig: usize) -> String {
    v.map_or_else(|| "n/a".to_string(), |x| fmt_num(x, sig))
}

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

/// An inline figure: the SVG (namespace attribute dropped, labelled for screen readers),
/// a caption, and the plot's notes.
fn figure(out: &PlotOutput, caption: &str) -> String {
    let svg = out
        .svg
        .replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1)
        .replacen(
            "<svg ",
            &format!("<svg role=\"img\" aria-label=\"{}\" ", escape(caption)),
            1,
        );
    let mut s = format!("<figure>{svg}<figcaption>{}", escape(caption));
    for n in &out.notes {
        let _ = write!(s, "<span class=\"warn\">⚠ {}</span>", escape(n));
    }
    s.push_str("</figcaption></figure>");
    s
}

const HOW_TO_READ: &str = r#"<section id="how-to-read"><h2>How to read a verdict</h2><div class="explain"><dl>
<dt>What is measured</dt><dd>Each theorem bounds one quantity (a running average or a last iterate of a gap measure) by C&#183;T<sup>&#8722;p</sup>. Each entry runs the algorithm with the theorem's schedule on instances that satisfy exactly the theorem's assumptions, for several seeds, and records the quantity at log-spaced checkpoints T.</dd>
<dt>Observed exponent p&#770;</dt><dd>The least-squares slope of ln(quantity) against ln T over a late <em>fit window</em> (shaded in the plots) where the local slopes have stabilised and the quantity is above the floating-point floor, with its confidence interval across seeds. The theorems are upper bounds: decaying faster than T<sup>&#8722;p</sup> (p&#770; &gt; p) is consistent with them.</dd>
<dt><span class="verdict verdict-pass">&#10003; PASS</span></dt><dd>The interval for p&#770; is not entirely below p &#8722; tol (tol is documented in the theorem table; larger where log factors are allowed), the explicit envelope held, and p&#770; did not drop below its stored regression baseline by more than the margin.</dd>
<dt><span class="verdict verdict-fail">&#10007; FAIL</span></dt><dd>The whole interval lies below p &#8722; tol (slower than the theorem), or the quantity exceeded the explicit bound at some checkpoint (envelope ratio &gt; 1), or the exponent regressed below its baseline. The entry's notes say which.</dd>
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
    body.push_str(HOW_TO_READ);
    body.push_str(&tightness_section(entries, &ids));

    body.push_str("<section id=\"entries\"><h2>Entries</h2>");
    for (e, id) in entries.iter().zip(&ids) {
        body.push_str(&entry_section(e, id));
    }
    body.push_str("</section>\n");
    body.push_str(&invariant_section(invariants));
    body.push_str(&errata_section(errata));

    let subtitle = format!(
        "{} entries &#183; tier {} &#183; {}",
        entries.len(),
        escape(meta.tier.as_deref().unwrap_or("n/a")),
        escape(&meta.date)
    );
    page(
        "saddlefw verify: convergence rates of the paper's theorems",
        &subtitle,
        &[
            ("summary", "Summary"),
            ("how-to-read", "How to read a verdict"),
            ("tightness", "Tightness"),
            ("entries", "Entries"),
            ("invariants", "Invariants"),
            ("errata", "Errata"),
        ],
        &body,
        meta,
    )
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

fn invariant_section(rows: &[InvariantRow]) -> String {
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

fn errata_section(errata: &[Erratum]) -> String {
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
pub fn provenance_tag(provenance: &str) -> String {
    ["GUESSED", "RECONSTRUCTED", "VERIFIED-2ND", "VERIFIED"]
        .iter()
        .find(|k| provenance.contains(*k))
        .map_or_else(|| provenance.chars().take(24).collect(), |k| k.to_string())
}

fn provenance_cell(r: &RunSummary) -> String {
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
fn run_plots(runs: &[RunSummary], title: &str) -> String {
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

fn runs_table(runs: &[RunSummary]) -> String {
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

/// A run's CPU share in the Table 3 column: flagged "contended" below
/// [`CONTENDED_SHARE`](crate::experiments::claims::CONTENDED_SHARE), "not recorded" for records
/// without `cpu_time_s`.
fn cpu_share_cell(run: Option<&RunSummary>) -> String {
    match run {
        Some(r) if r.wall_time_s.is_some() => match r.cpu_share {
            Some(s) if s < crate::experiments::claims::CONTENDED_SHARE => {
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

    // Table 3 column.
    let col = has_table3_column(&exp.experiment);
    let reference = |iters: &dyn Fn(&str) -> Option<f64>| iters("LMO-PO");
    let ours = |alg: &str| {
        exp.runs
            .iter()
            .find(|r| r.algorithm.eq_ignore_ascii_case(alg))
            .map(|r| r.iterations as f64)
    };
    let paper = |alg: &str| paper_iterations(&exp.experiment, alg).map(|n| n as f64);
    let (our_ref, paper_ref) = (reference(&ours), reference(&paper));
    let _ = write!(
        body,
        "<section id=\"table3\"><h2>Table 3 column: iterations completed within {} s</h2>\
         <p>The paper's counts (<code>table:iters</code>) come from unstated hardware; only ratios between \
         methods are comparable, shown here relative to LMO-PO. <em>CPU share</em> is the share of a CPU \
         the run's thread got while it ran (<code>cpu_time_s</code> over solver plus measurement time); \
         below {} the machine was busy with other work, the count is low by about that factor, and the \
         Table 3 verdict is judged per CPU-second.</p>",
        fmt_num(exp.time_limit_s, 4),
        crate::experiments::claims::CONTENDED_SHARE
    );
    body.push_str(
        "<table class=\"table3\"><thead><tr><th>algorithm</th><th>provenance</th>\
         <th class=\"num\">iterations (this run)</th><th class=\"num\">paper Table 3</th>\
         <th class=\"num\">ratio to LMO-PO (this run)</th><th class=\"num\">ratio to LMO-PO (paper)</th>\
         <th class=\"num\">CPU share</th><th>status</th></tr></thead><tbody>",
    );
    let mut names: Vec<String> = crate::experiments::params::TABLE3
        .iter()
        .map(|r| r.algorithm.name().to_string())
        .collect();
    for r in &exp.runs {
        if !names.iter().any(|n| n.eq_ignore_ascii_case(&r.algorithm)) {
            names.push(r.algorithm.clone());
        }
    }
    for n in &names {
        let run = exp
            .runs
            .iter()
            .find(|r| r.algorithm.eq_ignore_ascii_case(n));
        let ratio = |v: Option<f64>, r: Option<f64>| match (v, r) {
            (Some(v), Some(r)) if r > 0.0 => format!("{v:.2}", v = v / r),
            _ => "n/a".to_string(),
        };
        let paper_cell = match (col, paper(n)) {
            (true, Some(v)) => format!("{v}"),
            (true, None) if lmo_primal(n).is_some() => "N/A".to_string(),
            _ => "n/a".to_string(),
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
            cpu_share_cell(run),
            escape(run.map_or("", |r| r.status.as_str())),
        );
    }
    body.push_str("</tbody></table></section>");

    // Qualitative claims.
    let mut claims = exp.claims.clone();
    if !claims
        .iter()
        .any(|c| c.label.as_deref() == Some("table:iters"))
    {
        claims.push(iteration_claim(&exp.runs));
    }
    body.push_str(
        "<section id=\"claims\"><h2>The paper's qualitative claims</h2><table class=\"claims\"><thead><tr>\
         <th>claim</th><th>paper label</th><th>verdict</th><th>evidence</th></tr></thead><tbody>",
    );
    for c in &claims {
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
    body.push_str("<section id=\"runs\"><h2>Runs</h2>");
    body.push_str(&runs_table(&exp.runs));
    body.push_str("</section>");
    if !exp.notes.is_empty() {
        body.push_str("<section id=\"notes\"><h2>Choices and notes</h2><ul class=\"notes\">");
        for n in &exp.notes {
            let _ = write!(body, "<li>{}</li>", escape(n));
        }
        body.push_str("</ul></section>");
    }
    let subtitle = format!(
        "{} algorithms &#183; time limit {} s &#183; {}",
        exp.runs.len(),
        fmt_num(exp.time_limit_s, 4),
        escape(&meta.date)
    );
    page(
        &format!("saddlefw experiment: {name}"),
        &subtitle,
        &[
            ("figure1", "Figure 1"),
            ("table3", "Table 3"),
            ("claims", "Claims"),
            ("runs", "Runs"),
        ],
        &body,
        meta,
    )
}
