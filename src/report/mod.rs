//! Reports: self-contained HTML pages with inline SVG plots (issue 6).
//!
//! The report layer knows nothing about solvers or runs: it takes the plain records of
//! [`model`] (filled by `verify`, `check`, `tighten`, `experiment` and `saddlefw report`) and
//! renders
//! * [`plot`]: SVG strings drawn with `plotters` (log-log rate plots, local slopes,
//!   multi-algorithm gap plots, the tightness scatter);
//! * [`html`]: one HTML file per report with inline CSS and SVG and nothing fetched from
//!   outside (no scripts, fonts, images or style sheets by URL).
//!
//! This module also holds the checks the tests use on every page ([`self_contained`],
//! [`svg_well_formed`]).
//!
//! # Example
//! ```
//! use saddlefw::files::write_atomic;
//! use saddlefw::report::escape;
//! assert_eq!(escape("a < b & \"c\""), "a &lt; b &amp; &quot;c&quot;");
//! let dir = std::env::temp_dir().join(format!("saddlefw-doc-{}", std::process::id()));
//! let page = dir.join("index.html");
//! write_atomic(&page, b"<p>ok</p>").unwrap(); // creates the directory, then renames
//! assert_eq!(std::fs::read(&page).unwrap(), b"<p>ok</p>");
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

pub mod banner;
pub mod calibration;
pub mod html;
pub mod model;
pub mod plot;
pub mod runs;

pub(crate) use html::verify_page_with;
pub use html::{check_page, experiment_page, runs_page, verify_page};
pub use model::*;

/// Whether XML 1.0 forbids `c` in a document (control characters other than tab, newline and
/// carriage return, and the non-characters U+FFFE, U+FFFF).
pub(crate) fn xml_forbidden(c: char) -> bool {
    (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || c == '\u{FFFE}' || c == '\u{FFFF}'
}

/// Replaces the characters XML forbids with U+FFFD, so any text can go into an SVG.
pub(crate) fn xml_clean(text: &str) -> String {
    text.chars()
        .map(|c| if xml_forbidden(c) { '\u{FFFD}' } else { c })
        .collect()
}

/// Escapes text for HTML and XML content and attribute values (characters XML forbids become
/// U+FFFD).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            c if xml_forbidden(c) => out.push('\u{FFFD}'),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// One tag of a markup document, as found by [`tags`].
#[derive(Debug, Clone, PartialEq)]
struct Tag {
    name: String,
    closing: bool,
    self_closing: bool,
    attrs: Vec<(String, String)>,
    /// Byte offset of `<` and one past `>`.
    start: usize,
    end: usize,
}

/// Splits markup into tags, skipping comments, doctype / processing instructions and CDATA.
/// Attribute values must be quoted ('...' or "...") or unquoted without spaces; `<` inside a
/// quoted value and an unterminated tag are errors.
fn tags(doc: &str) -> std::result::Result<Vec<Tag>, String> {
    let b = doc.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(off) = doc[i..].find('<') {
        let start = i + off;
        let rest = &doc[start..];
        let skip_to = |pat: &str, what: &str| {
            rest.find(pat)
                .map(|k| start + k + pat.len())
                .ok_or_else(|| format!("unterminated {what} at byte {start}"))
        };
        if rest.starts_with("<!--") {
            i = skip_to("-->", "comment")?;
            continue;
        }
        if rest.starts_with("<![CDATA[") {
            i = skip_to("]]>", "CDATA section")?;
            continue;
        }
        if rest.starts_with("<!") || rest.starts_with("<?") {
            i = skip_to(">", "declaration")?;
            continue;
        }
        let mut j = start + 1;
        let closing = b.get(j) == Some(&b'/');
        if closing {
            j += 1;
        }
        let name_start = j;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b"-_:.".contains(&b[j])) {
            j += 1;
        }
        if j == name_start {
            return Err(format!("bare '<' not starting a tag at byte {start}"));
        }
        let name = doc[name_start..j].to_ascii_lowercase();
        let mut attrs = Vec::new();
        let mut self_closing = false;
        loop {
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            match b.get(j) {
                None => return Err(format!("unterminated tag <{name}> at byte {start}")),
                Some(b'>') => {
                    j += 1;
                    break;
                }
                Some(b'/') if b.get(j + 1) == Some(&b'>') => {
                    self_closing = true;
                    j += 2;
                    break;
                }
                Some(b'<') => return Err(format!("'<' inside tag <{name}> at byte {j}")),
                _ => {}
            }
            let an = j;
            while j < b.len() && !b[j].is_ascii_whitespace() && !b"=>/<".contains(&b[j]) {
                j += 1;
            }
            if j == an {
                return Err(format!("malformed attribute in <{name}> at byte {j}"));
            }
            let attr = doc[an..j].to_ascii_lowercase();
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            let mut value = String::new();
            if b.get(j) == Some(&b'=') {
                j += 1;
                while j < b.len() && b[j].is_ascii_whitespace() {
                    j += 1;
                }
                match b.get(j) {
                    Some(&q) if q == b'"' || q == b'\'' => {
                        let close = doc[j + 1..].find(q as char).ok_or_else(|| {
                            format!("unterminated value of {attr} in <{name}> at byte {j}")
                        })?;
                        value = doc[j + 1..j + 1 + close].to_string();
                        if value.contains('<') {
                            return Err(format!("'<' in value of {attr} in <{name}>"));
                        }
                        j += close + 2;
                    }
                    _ => {
                        let vs = j;
                        while j < b.len() && !b[j].is_ascii_whitespace() && b[j] != b'>' {
                            j += 1;
                        }
                        value = doc[vs..j].to_string();
                    }
                }
            }
            attrs.push((attr, value));
        }
        out.push(Tag {
            name,
            closing,
            self_closing,
            attrs,
            start,
            end: j,
        });
        // Raw-text elements: skip their content to the matching end tag.
        let raw_text = ["style", "script"].contains(&out[out.len() - 1].name.as_str());
        if !closing && !self_closing && raw_text {
            let tag_name = out[out.len() - 1].name.clone();
            let close = format!("</{tag_name}");
            let k = doc[j..]
                .to_ascii_lowercase()
                .find(&close)
                .ok_or_else(|| format!("unterminated <{tag_name}> at byte {start}"))?;
            i = j + k;
        } else {
            i = j;
        }
    }
    Ok(out)
}

/// Attributes whose value the browser fetches or navigates to.
const URL_ATTRS: [&str; 12] = [
    "src",
    "href",
    "xlink:href",
    "srcset",
    "action",
    "formaction",
    "poster",
    "data",
    "background",
    "codebase",
    "cite",
    "manifest",
];

/// Whether a URL-valued attribute stays inside the document (`#anchor` or `data:`).
fn internal_url(value: &str) -> bool {
    let v = value.trim().to_ascii_lowercase();
    v.starts_with('#') || v.starts_with("data:")
}

/// Whether an attribute is only shown, never fetched, navigated to or run (labels, titles,
/// alternative text): its value may quote any text, a URL included.
fn shown_only(attr: &str) -> bool {
    attr == "title" || attr == "alt" || attr.starts_with("aria-")
}

/// Checks that an HTML page references nothing outside itself: every `src`/`href`-like
/// attribute is a `#anchor` or a `data:` URL; no other attribute value contains `http://`,
/// `https://` or starts with `//` (except text that is only shown: `title`, `alt`, `aria-*`);
/// no event handler (`on...`), no `<script>` and no `<meta http-equiv="refresh">` (the pages
/// run nothing and never redirect); no `<link>`, `<base>`, `<iframe>`, `<object>`, `<embed>`;
/// no `@import` and no `url(...)` other than `data:`/`#` in style sheets, style attributes or
/// any attribute that holds a `url(` (SVG `fill`, `filter`, `mask`, ...). Returns the first
/// offence found.
pub fn self_contained(html: &str) -> std::result::Result<(), String> {
    let all = tags(html)?;
    for t in all.iter().filter(|t| !t.closing) {
        if t.name == "script" {
            return Err(format!("<script> at byte {} runs a script", t.start));
        }
        if ["link", "base", "iframe", "object", "embed", "frame"].contains(&t.name.as_str()) {
            return Err(format!(
                "<{}> at byte {} loads or frames external content",
                t.name, t.start
            ));
        }
        for (k, v) in &t.attrs {
            let lv = v.trim().to_ascii_lowercase();
            if URL_ATTRS.contains(&k.as_str()) && !internal_url(v) {
                return Err(format!("<{} {k}=\"{v}\"> refers outside the page", t.name));
            }
            if k.starts_with("on") {
                return Err(format!("<{} {k}=...> runs a script", t.name));
            }
            if t.name == "meta" && k == "http-equiv" && lv == "refresh" {
                return Err("<meta http-equiv=\"refresh\"> redirects".to_string());
            }
            let external =
                lv.contains("http://") || lv.contains("https://") || lv.starts_with("//");
            if external && !shown_only(k) {
                return Err(format!("<{} {k}=\"{v}\"> contains an external URL", t.name));
            }
            if k == "style" || (lv.contains("url(") && !shown_only(k)) {
                check_css(v)?;
            }
        }
    }
    // Style sheets: the raw text between <style> and </style>.
    for t in all
        .iter()
        .filter(|t| t.name == "style" && !t.closing && !t.self_closing)
    {
        let end = html[t.end..]
            .to_ascii_lowercase()
            .find("</style")
            .map_or(html.len(), |k| t.end + k);
        check_css(&html[t.end..end])?;
    }
    Ok(())
}

/// CSS must not import or fetch: no `@import`, `url(` only with `data:` or `#`.
fn check_css(css: &str) -> std::result::Result<(), String> {
    let lower = css.to_ascii_lowercase();
    if lower.contains("@import") {
        return Err("style sheet uses @import".to_string());
    }
    if lower.contains("http://") || lower.contains("https://") {
        return Err("style sheet names an external URL".to_string());
    }
    let mut rest = lower.as_str();
    while let Some(k) = rest.find("url(") {
        let arg = rest[k + 4..].trim_start().trim_start_matches(['"', '\'']);
        if !internal_url(arg) {
            let shown: String = arg.chars().take(40).collect();
            return Err(format!("style sheet fetches url({shown}...)"));
        }
        rest = &rest[k + 4..];
    }
    Ok(())
}

/// The inline `<svg>...</svg>` fragments of an HTML page, in order (nested SVG elements stay
/// inside their outer fragment). An `<svg>` without its end tag is returned up to the end of
/// the page, so the well-formedness check reports it.
pub fn inline_svgs(html: &str) -> Vec<&str> {
    let lower = html.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(k) = lower[i..].find("<svg") {
        let start = i + k;
        // Track nesting of <svg ...> / </svg>.
        let mut depth = 0usize;
        let mut j = start;
        let mut end = html.len();
        while let Some(m) = lower[j..].find("svg") {
            let pos = j + m;
            if pos >= 1 && &lower[pos - 1..pos] == "<" && is_name_end(&lower, pos + 3) {
                depth += 1;
            } else if pos >= 2 && &lower[pos - 2..pos] == "</" && is_name_end(&lower, pos + 3) {
                depth -= 1;
                if depth == 0 {
                    end = lower[pos..].find('>').map_or(html.len(), |g| pos + g + 1);
                    break;
                }
            }
            j = pos + 3;
        }
        out.push(&html[start..end]);
        i = end;
    }
    out
}

fn is_name_end(s: &str, at: usize) -> bool {
    s.as_bytes().get(at).map_or(true, |c| {
        c.is_ascii_whitespace() || *c == b'>' || *c == b'/'
    })
}

/// Checks that an SVG fragment is well-formed XML: exactly one root element `<svg>`, every
/// start tag closed by a matching end tag in order, attribute values quoted and unique per
/// element, no raw `<` or stray `&` in text or attribute values (only `&amp;`, `&lt;`,
/// `&gt;`, `&quot;`, `&apos;` and numeric references), no control characters.
pub fn svg_well_formed(svg: &str) -> std::result::Result<(), String> {
    let all = tags(svg)?;
    let first = all.first().ok_or("no element")?;
    if first.name != "svg" || first.closing {
        return Err(format!("root element is <{}>, not <svg>", first.name));
    }
    if svg[..first.start].trim() != "" && !svg[..first.start].trim_start().starts_with("<?") {
        return Err("text before the root element".to_string());
    }
    let mut stack: Vec<&str> = Vec::new();
    let mut prev_end = first.start;
    let mut closed_root = false;
    for t in &all {
        check_text(&svg[prev_end..t.start])?;
        prev_end = t.end;
        if closed_root {
            return Err(format!("element <{}> after the root element", t.name));
        }
        let mut seen = std::collections::HashSet::new();
        for (k, v) in &t.attrs {
            if !seen.insert(k.as_str()) {
                return Err(format!("duplicate attribute {k} in <{}>", t.name));
            }
            check_text(v)?;
        }
        let raw = &svg[t.start..t.end];
        if t.attrs.iter().any(|(k, _)| {
            let key = format!("{k}=");
            raw.to_ascii_lowercase()
                .find(&key)
                .and_then(|p| raw.as_bytes().get(p + key.len()))
                .is_some_and(|c| *c != b'"' && *c != b'\'')
        }) {
            return Err(format!("unquoted attribute value in <{}>", t.name));
        }
        if t.closing {
            match stack.pop() {
                Some(open) if open == t.name => {
                    if stack.is_empty() {
                        closed_root = true;
                    }
                }
                Some(open) => {
                    return Err(format!("</{}> closes <{open}> at byte {}", t.name, t.start))
                }
                None => return Err(format!("</{}> without a start tag", t.name)),
            }
        } else if !t.self_closing {
            stack.push(&t.name);
        } else if stack.is_empty() {
            closed_root = true;
        }
    }
    check_text(&svg[prev_end..])?;
    if let Some(open) = stack.last() {
        return Err(format!("<{open}> is never closed"));
    }
    Ok(())
}

/// Text and attribute values: `&` must start an XML entity or character reference, no `<`,
/// no character XML forbids.
fn check_text(text: &str) -> std::result::Result<(), String> {
    if text.contains('<') {
        return Err("raw '<' in text".to_string());
    }
    if let Some(c) = text.chars().find(|&c| xml_forbidden(c)) {
        return Err(format!(
            "character U+{:04X} is not allowed in XML",
            c as u32
        ));
    }
    let mut rest = text;
    while let Some(k) = rest.find('&') {
        let after = &rest[k + 1..];
        let semi = after.find(';').ok_or("'&' without ';'")?;
        let ent = &after[..semi];
        let ok = matches!(ent, "amp" | "lt" | "gt" | "quot" | "apos")
            || ent
                .strip_prefix("#x")
                .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()))
            || ent
                .strip_prefix('#')
                .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
        if !ok {
            return Err(format!("unknown entity &{ent};"));
        }
        rest = &after[semi + 1..];
    }
    Ok(())
}
