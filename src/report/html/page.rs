//! The page skeleton shared by every page: inline CSS, header, table of contents, the
//! metadata block, and inline figures.

use crate::report::escape;
use crate::report::model::Meta;
use crate::report::plot::PlotOutput;
use std::fmt::Write;

pub(super) const CSS: &str = r#"
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
pub(super) fn page(
    title: &str,
    subtitle: &str,
    toc: &[(&str, &str)],
    body: &str,
    meta: &Meta,
) -> String {
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
    s.push_str(&crate::report::banner::interrupted(
        meta.interrupted.as_deref(),
    ));
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

/// An inline figure: the SVG (namespace attribute dropped, labelled for screen readers),
/// a caption, and the plot's notes.
pub(super) fn figure(out: &PlotOutput, caption: &str) -> String {
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
