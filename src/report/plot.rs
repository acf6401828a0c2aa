//! SVG plots drawn with `plotters` into a string (no font files needed: text is emitted as
//! SVG `<text>` and the viewer's sans-serif font renders it).
//!
//! One generic renderer, [`render`], draws a [`Figure`] (axes, layers, legend); the public
//! builders ([`rate_plot`], [`local_slope_plot`], [`algorithms_plot`], [`tightness_plot`])
//! only choose layers and pens. Log axes work in log10 units internally with ticks at powers
//! of ten. Values that a log axis cannot show (<= 0) and non-finite values are skipped and
//! counted, and the count is reported in [`PlotOutput::notes`] and in the legend panel: a
//! plot never takes the log of a non-positive number and never adds an epsilon.
//!
//! Greyscale legibility: every pen differs from the others in at least one of dash pattern,
//! marker, width or lightness, not only in hue.
//!
//! ```
//! use saddlefw::report::plot::{algorithms_plot, pow10_label, Axis};
//! use saddlefw::report::Series;
//! assert_eq!((pow10_label(-3), pow10_label(2)), ("10⁻³".to_string(), "100".to_string()));
//! // a value a log axis cannot show is skipped and said so, never shifted by an epsilon
//! let s = Series::new("LMO-PO", vec![(1.0, 1.0), (2.0, 0.0), (4.0, 0.25)]);
//! let out = algorithms_plot("demo", Axis::log("t"), Axis::log("gap"), &[s.clone()]);
//! assert!(out.svg.contains("<svg") && out.notes.len() == 1, "{:?}", out.notes);
//! // the same series without the zero has nothing to report
//! let clean = Series::new("LMO-PO", vec![(1.0, 1.0), (4.0, 0.25)]);
//! assert!(algorithms_plot("demo", Axis::log("t"), Axis::log("gap"), &[clean]).notes.is_empty());
//! ```

use super::model::{RateEntry, Series, SeriesStyle};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;

/// A linear coordinate (in axis units) with our own bold (labelled) and light tick lists.
struct TickedAxis {
    lo: f64,
    hi: f64,
    bold: Vec<f64>,
    light: Vec<f64>,
}

impl Ranged for TickedAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let f = if self.hi > self.lo {
            (v - self.lo) / (self.hi - self.lo)
        } else {
            0.5
        };
        let f = if f.is_finite() {
            f.clamp(-10.0, 11.0)
        } else {
            0.5
        };
        limit.0 + ((limit.1 - limit.0) as f64 * f).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.bold.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

/// An SVG document (standalone, with its `xmlns`) and the notes that go with it.
#[derive(Debug, Clone, PartialEq)]
pub struct PlotOutput {
    pub svg: String,
    /// What the plot had to leave out or could not draw, in plain words.
    pub notes: Vec<String>,
}

/// Axis scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    Linear,
    /// Base-10 logarithmic; ticks at powers of ten.
    Log,
}

/// An axis: its label and scale.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    pub label: String,
    pub scale: Scale,
}

impl Axis {
    pub fn log(label: impl Into<String>) -> Self {
        Axis {
            label: label.into(),
            scale: Scale::Log,
        }
    }
    pub fn linear(label: impl Into<String>) -> Self {
        Axis {
            label: label.into(),
            scale: Scale::Linear,
        }
    }
}

/// Line pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dash {
    Solid,
    Dashed,
    Dotted,
    /// Markers only.
    NoLine,
}

/// Point marker (drawn on a subsample of at most about a dozen points per line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    NoMarker,
    Circle,
    OpenCircle,
    Triangle,
    Square,
    Diamond,
    Cross,
}

/// How a layer is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pen {
    pub color: (u8, u8, u8),
    pub width: u32,
    pub dash: Dash,
    pub marker: Marker,
    /// 0 (invisible) to 1 (opaque).
    pub opacity: f64,
}

impl Pen {
    const fn new(color: (u8, u8, u8), width: u32, dash: Dash, marker: Marker) -> Self {
        Pen {
            color,
            width,
            dash,
            marker,
            opacity: 1.0,
        }
    }
}

/// Thin, light lines: one per seed.
pub const SEED_PEN: Pen = Pen {
    color: (120, 150, 190),
    width: 1,
    dash: Dash::Solid,
    marker: Marker::NoMarker,
    opacity: 0.75,
};
/// The median over seeds: bold, dark, with markers.
pub const MEDIAN_PEN: Pen = Pen::new((8, 48, 107), 3, Dash::Solid, Marker::Circle);
/// The least-squares fit over its window: medium tone, solid.
pub const FIT_PEN: Pen = Pen::new((213, 94, 0), 3, Dash::Solid, Marker::NoMarker);
/// The theorem's slope: black, dashed.
pub const REFERENCE_PEN: Pen = Pen::new((0, 0, 0), 2, Dash::Dashed, Marker::NoMarker);
/// The explicit envelope bound(T): dotted, with open markers.
pub const ENVELOPE_PEN: Pen = Pen::new((0, 130, 90), 2, Dash::Dotted, Marker::OpenCircle);
/// Shading of the fit window.
pub const WINDOW_PEN: Pen = Pen {
    color: (255, 200, 120),
    width: 0,
    dash: Dash::Solid,
    marker: Marker::NoMarker,
    opacity: 0.22,
};

/// Eight pens that differ in colour (Okabe-Ito), dash pattern and marker.
pub const PALETTE: [Pen; 8] = [
    Pen::new((213, 94, 0), 2, Dash::Solid, Marker::Circle),
    Pen::new((0, 114, 178), 2, Dash::Solid, Marker::Square),
    Pen::new((0, 158, 115), 2, Dash::Dashed, Marker::Diamond),
    Pen::new((0, 0, 0), 2, Dash::Dotted, Marker::Triangle),
    Pen::new((230, 159, 0), 2, Dash::Dashed, Marker::Cross),
    Pen::new((204, 121, 167), 2, Dash::Dotted, Marker::OpenCircle),
    Pen::new((86, 180, 233), 2, Dash::Dashed, Marker::Square),
    Pen::new((110, 110, 110), 2, Dash::Solid, Marker::Triangle),
];

/// The pen of an algorithm: fixed for the paper's methods and the four baselines, so an
/// algorithm looks the same on every page; others take palette entries by position.
pub fn algorithm_pen(name: &str, index: usize) -> Pen {
    let known = [
        "LMO-PO", "LMO-LMO", "PO-LMO", "SP-FW", "AGP", "R-PDCG", "CG-RPGA",
    ];
    let norm = name.trim().to_ascii_uppercase().replace('_', "-");
    match known.iter().position(|k| *k == norm) {
        Some(i) => PALETTE[i],
        None => PALETTE[(known.len() + index) % PALETTE.len()],
    }
}

/// What a layer draws.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A polyline through points in data units.
    Line(Vec<(f64, f64)>),
    /// A horizontal line across the plot at this y (data units).
    HLine(f64),
    /// A shaded vertical band between two x values (data units).
    Band(f64, f64),
}

/// One drawn element and its legend entry (`None`: not in the legend).
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    pub legend: Option<String>,
    pub shape: Shape,
    pub pen: Pen,
}

/// A complete plot description.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub title: String,
    pub x: Axis,
    pub y: Axis,
    pub layers: Vec<Layer>,
    pub width: u32,
    pub height: u32,
    /// Choose the y range from the 5%-95% quantiles (plus horizontal lines) instead of all
    /// points, clipping outliers (used for local slopes, which explode at the floor).
    pub robust_y: bool,
}

/// Minimum distance in pixels between two markers of one line.
const MARKER_GAP: f64 = 34.0;
/// Width of the legend panel on the right.
const LEGEND_W: u32 = 200;
const FONT: &str = "sans-serif";

/// Data value to axis units (log10 on log axes); `None` when the axis cannot show it.
fn to_axis(v: f64, scale: Scale) -> Option<f64> {
    match scale {
        _ if !v.is_finite() => None,
        Scale::Log if v <= 0.0 => None,
        Scale::Log => Some(v.log10()),
        Scale::Linear => Some(v),
    }
}

/// Layers in axis units, with the count of points each had to drop.
struct Prepared {
    shape: Shape,
    pen: Pen,
    legend: Option<String>,
}

/// Renders a figure to a standalone SVG document (text that XML forbids is replaced).
pub fn render(fig: &Figure) -> PlotOutput {
    let clean = |s: &str| super::xml_clean(s);
    let fig = &Figure {
        title: clean(&fig.title),
        x: Axis {
            label: clean(&fig.x.label),
            ..fig.x.clone()
        },
        y: Axis {
            label: clean(&fig.y.label),
            ..fig.y.clone()
        },
        layers: fig
            .layers
            .iter()
            .map(|l| Layer {
                legend: l.legend.as_deref().map(clean),
                ..l.clone()
            })
            .collect(),
        ..fig.clone()
    };
    let mut notes = Vec::new();
    let mut prepared = Vec::new();
    // Points a log axis cannot show (or non-finite ones): counted, reported once per plot.
    let (mut skipped, mut total, mut series_hit) = (0usize, 0usize, 0usize);
    for layer in &fig.layers {
        let shape = match &layer.shape {
            Shape::Line(pts) => {
                let kept: Vec<(f64, f64)> = pts
                    .iter()
                    .filter_map(|&(x, y)| {
                        Some((to_axis(x, fig.x.scale)?, to_axis(y, fig.y.scale)?))
                    })
                    .collect();
                total += pts.len();
                if kept.len() < pts.len() {
                    skipped += pts.len() - kept.len();
                    series_hit += 1;
                }
                Shape::Line(kept)
            }
            Shape::HLine(y) => match to_axis(*y, fig.y.scale) {
                Some(v) => Shape::HLine(v),
                None => {
                    notes.push(format!(
                        "horizontal line at {y} not shown ({})",
                        skip_reason(fig)
                    ));
                    continue;
                }
            },
            Shape::Band(a, b) => match (to_axis(*a, fig.x.scale), to_axis(*b, fig.x.scale)) {
                (Some(a), Some(b)) => Shape::Band(a.min(b), a.max(b)),
                _ => {
                    notes.push(format!("band [{a}, {b}] not shown ({})", skip_reason(fig)));
                    continue;
                }
            },
        };
        prepared.push(Prepared {
            shape,
            pen: layer.pen,
            legend: layer.legend.clone(),
        });
    }
    if skipped > 0 {
        notes.push(format!(
            "{skipped} of {total} points skipped in {series_hit} series ({})",
            skip_reason(fig)
        ));
    }
    let (xr, yr, clipped) = ranges(&prepared, fig.robust_y);
    if clipped > 0 {
        notes.push(format!(
            "{clipped} points lie outside the shown y range and are clipped"
        ));
    }
    let has_data = prepared
        .iter()
        .any(|p| matches!(&p.shape, Shape::Line(v) if !v.is_empty()));
    if !has_data {
        notes.push("no plottable data".to_string());
    }
    let mut svg = String::new();
    let drawn = draw(&mut svg, fig, &prepared, xr, yr, &notes);
    if let Err(e) = drawn {
        notes.push(format!("plot could not be drawn: {e}"));
        svg = fallback_svg(fig, &notes);
    }
    PlotOutput { svg, notes }
}

fn skip_reason(fig: &Figure) -> &'static str {
    if fig.x.scale == Scale::Log || fig.y.scale == Scale::Log {
        "values <= 0 or non-finite: not shown on a log axis"
    } else {
        "non-finite values"
    }
}

/// A minimal SVG stating why there is no plot.
fn fallback_svg(fig: &Figure, notes: &[String]) -> String {
    let mut s = format!(
        "<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\">\n<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#FFFFFF\"/>\n<text x=\"20\" y=\"30\" font-family=\"sans-serif\" font-size=\"14\">{}</text>\n",
        super::escape(&fig.title),
        w = fig.width,
        h = fig.height
    );
    for (i, n) in notes.iter().enumerate() {
        s.push_str(&format!(
            "<text x=\"20\" y=\"{}\" font-family=\"sans-serif\" font-size=\"12\">{}</text>\n",
            55 + 18 * i,
            super::escape(n)
        ));
    }
    s.push_str("</svg>\n");
    s
}

/// Axis ranges in axis units (padded), and how many points fall outside a robust y range.
fn ranges(layers: &[Prepared], robust_y: bool) -> ((f64, f64), (f64, f64), usize) {
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    let mut hys = Vec::new();
    for l in layers {
        match &l.shape {
            Shape::Line(v) => {
                xs.extend(v.iter().map(|p| p.0));
                ys.extend(v.iter().map(|p| p.1));
            }
            Shape::HLine(y) => hys.push(*y),
            Shape::Band(a, b) => xs.extend([*a, *b]),
        }
    }
    let span = |v: &[f64]| {
        v.iter()
            .fold(None, |acc: Option<(f64, f64)>, &x| match acc {
                None => Some((x, x)),
                Some((lo, hi)) => Some((lo.min(x), hi.max(x))),
            })
    };
    let mut clipped = 0;
    let yspan = if robust_y && ys.len() >= 10 {
        let mut s = ys.clone();
        s.sort_by(f64::total_cmp);
        let q = |f: f64| s[((s.len() - 1) as f64 * f).round() as usize];
        let (lo, hi) = (q(0.05), q(0.95));
        let pad = 0.3 * (hi - lo).max(1e-3);
        let (mut lo, mut hi) = (lo - pad, hi + pad);
        for &h in &hys {
            lo = lo.min(h);
            hi = hi.max(h);
        }
        // Keep the true extremes when they are close to the robust range.
        let (tlo, thi) = span(&ys).unwrap_or((lo, hi));
        if tlo >= lo - pad {
            lo = lo.min(tlo);
        }
        if thi <= hi + pad {
            hi = hi.max(thi);
        }
        clipped = ys.iter().filter(|&&y| y < lo || y > hi).count();
        Some((lo, hi))
    } else {
        let mut all = ys.clone();
        all.extend(&hys);
        span(&all)
    };
    let pad = |r: Option<(f64, f64)>| match r {
        None => (0.0, 1.0),
        Some((lo, hi)) if hi - lo <= 1e-12 * lo.abs().max(1.0) => {
            let d = if lo == 0.0 { 1.0 } else { 0.1 * lo.abs() };
            (lo - d, hi + d)
        }
        Some((lo, hi)) => {
            let d = 0.04 * (hi - lo);
            (lo - d, hi + d)
        }
    };
    (pad(span(&xs)), pad(yspan), clipped)
}

/// Bold (labelled) and light tick positions in axis units (log10 units on a log axis).
pub fn ticks(lo: f64, hi: f64, scale: Scale) -> (Vec<f64>, Vec<f64>) {
    let eps = 1e-9 * (hi - lo).abs().max(1e-300);
    let inside = |v: f64| v >= lo - eps && v <= hi + eps;
    match scale {
        Scale::Log => {
            let (e0, e1) = ((lo - 1e-9).ceil() as i64, (hi + 1e-9).floor() as i64);
            let decades = e1 - e0 + 1;
            let mantissas = |ks: &[f64]| -> Vec<f64> {
                let mut out = Vec::new();
                for e in (lo.floor() as i64)..=(hi.ceil() as i64) {
                    for &k in ks {
                        let v = e as f64 + k.log10();
                        if inside(v) {
                            out.push(v);
                        }
                    }
                }
                out
            };
            let all_minor = mantissas(&[1., 2., 3., 4., 5., 6., 7., 8., 9.]);
            let bold: Vec<f64> = if decades >= 2 {
                let step = ((decades as f64) / 7.0).ceil().max(1.0) as i64;
                (e0..=e1)
                    .filter(|e| e.rem_euclid(step) == 0)
                    .map(|e| e as f64)
                    .collect::<Vec<_>>()
            } else {
                let b = mantissas(&[1., 2., 5.]);
                if b.len() >= 2 {
                    b
                } else {
                    all_minor.clone()
                }
            };
            let bold = if bold.len() >= 2 {
                bold
            } else {
                (e0..=e1).map(|e| e as f64).collect()
            };
            let light = if hi - lo <= 12.0 {
                all_minor
            } else {
                (e0..=e1).map(|e| e as f64).collect()
            };
            let light = light
                .into_iter()
                .filter(|v| !bold.iter().any(|b| (b - v).abs() < 1e-9))
                .collect();
            (bold, light)
        }
        Scale::Linear => {
            let step = nice_step((hi - lo) / 6.0);
            let multiples = |s: f64| {
                let mut out = Vec::new();
                let mut k = (lo / s).ceil();
                while k * s <= hi + eps && out.len() < 200 {
                    out.push(k * s);
                    k += 1.0;
                }
                out
            };
            let bold = multiples(step);
            let light = multiples(step / 2.0)
                .into_iter()
                .filter(|v| !bold.iter().any(|b| (b - v).abs() < 1e-9 * step))
                .collect();
            (bold, light)
        }
    }
}

/// A 1-2-5 step close to `raw`.
fn nice_step(raw: f64) -> f64 {
    if raw.is_nan() || raw <= 0.0 || raw.is_infinite() {
        return 1.0;
    }
    let e = raw.log10().floor();
    let base = 10f64.powf(e);
    let m = raw / base;
    let k = if m < 1.5 {
        1.0
    } else if m < 3.5 {
        2.0
    } else if m < 7.5 {
        5.0
    } else {
        10.0
    };
    k * base
}

const SUPERSCRIPTS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

/// `10⁻³`-style power of ten; plain `1`, `10`, `100`, `1000` for exponents 0 to 3.
pub fn pow10_label(e: i64) -> String {
    if (0..=3).contains(&e) {
        return 10i64.pow(e as u32).to_string();
    }
    let mut s = String::from("10");
    if e < 0 {
        s.push('⁻');
    }
    for d in e.unsigned_abs().to_string().chars() {
        s.push(SUPERSCRIPTS[d.to_digit(10).unwrap_or(0) as usize]);
    }
    s
}

/// Label of a log-axis tick at `v` (log10 units).
fn log_tick_label(v: f64) -> String {
    let e = v.floor();
    let m = 10f64.powf(v - e);
    if (v - v.round()).abs() < 1e-6 {
        return pow10_label(v.round() as i64);
    }
    let m = m.round();
    let e = e as i64;
    if (-2..=3).contains(&e) {
        trim_number(m * 10f64.powi(e as i32), (-e).max(0) as usize)
    } else {
        format!("{m}·{}", pow10_label(e))
    }
}

/// Fixed decimals without trailing zeros, with a true minus sign.
fn trim_number(v: f64, decimals: usize) -> String {
    let mut s = format!("{v:.decimals$}");
    if s.contains('.') {
        s = s.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    if s == "-0" {
        s = "0".to_string();
    }
    s.replace('-', "−")
}

fn linear_tick_label(v: f64, step: f64) -> String {
    let mag = v.abs().max(step.abs());
    if mag != 0.0 && !(1e-4..1e6).contains(&mag) {
        return format!("{v:.1e}").replace('-', "−");
    }
    let decimals = (-(step.log10().floor())).max(0.0) as usize + 1;
    trim_number(v, decimals.min(12))
}

/// Estimated rendered width of `text` in a sans-serif font of `px` pixels (the SVG has no
/// font metrics; this errs on the wide side so legend text stays inside its panel).
fn text_width(text: &str, px: f64) -> f64 {
    text.chars()
        .map(|c| {
            px * match c {
                'i' | 'l' | 'j' | 'I' | '.' | ',' | ':' | ';' | '!' | '|' | '\'' | ' ' => 0.33,
                'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '-' => 0.42,
                'm' | 'w' | 'M' | 'W' => 0.92,
                c if c.is_ascii_uppercase() => 0.72,
                c if c.is_ascii_digit() => 0.64,
                _ => 0.6,
            }
        })
        .sum()
}

/// Splits `text` into lines no wider than `max_px` at spaces (long words are cut).
fn wrap(text: &str, max_px: f64, px: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in text.split_whitespace() {
        let candidate = if cur.is_empty() {
            word.to_string()
        } else {
            format!("{cur} {word}")
        };
        if text_width(&candidate, px) <= max_px || cur.is_empty() {
            cur = candidate;
        } else {
            lines.push(std::mem::replace(&mut cur, word.to_string()));
        }
        while text_width(&cur, px) > max_px && cur.chars().count() > 1 {
            let mut head = String::new();
            for c in cur.chars() {
                if text_width(&format!("{head}{c}"), px) > max_px {
                    break;
                }
                head.push(c);
            }
            if head.is_empty() {
                break;
            }
            cur = cur[head.len()..].to_string();
            lines.push(head);
        }
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

fn color(pen: &Pen) -> RGBAColor {
    RGBColor(pen.color.0, pen.color.1, pen.color.2).mix(pen.opacity)
}

/// Clips a polyline to the box `xr x yr`; returns the visible pieces.
pub fn clip_polyline(pts: &[(f64, f64)], xr: (f64, f64), yr: (f64, f64)) -> Vec<Vec<(f64, f64)>> {
    let mut pieces: Vec<Vec<(f64, f64)>> = Vec::new();
    let inside = |p: (f64, f64)| p.0 >= xr.0 && p.0 <= xr.1 && p.1 >= yr.0 && p.1 <= yr.1;
    if pts.len() == 1 {
        if inside(pts[0]) {
            pieces.push(vec![pts[0]]);
        }
        return pieces;
    }
    let mut cur: Vec<(f64, f64)> = Vec::new();
    for w in pts.windows(2) {
        match clip_segment(w[0], w[1], xr, yr) {
            Some((a, b)) => {
                if cur.last().map_or(true, |l| *l != a) {
                    if !cur.is_empty() {
                        pieces.push(std::mem::take(&mut cur));
                    }
                    cur.push(a);
                }
                cur.push(b);
                if b != w[1] {
                    pieces.push(std::mem::take(&mut cur));
                }
            }
            None => {
                if !cur.is_empty() {
                    pieces.push(std::mem::take(&mut cur));
                }
            }
        }
    }
    if !cur.is_empty() {
        pieces.push(cur);
    }
    pieces
}

/// Liang-Barsky segment clipping.
fn clip_segment(
    a: (f64, f64),
    b: (f64, f64),
    xr: (f64, f64),
    yr: (f64, f64),
) -> Option<((f64, f64), (f64, f64))> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - xr.0),
        (dx, xr.1 - a.0),
        (-dy, a.1 - yr.0),
        (dy, yr.1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    if t0 > t1 {
        return None;
    }
    let at = |t: f64| {
        if t == 0.0 {
            a
        } else if t == 1.0 {
            b
        } else {
            (a.0 + t * dx, a.1 + t * dy)
        }
    };
    Some((at(t0), at(t1)))
}

type Root<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type DrawResult = std::result::Result<(), String>;

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// Draws a marker centred at a backend pixel.
fn draw_marker(root: &Root, at: (i32, i32), marker: Marker, pen: &Pen) -> DrawResult {
    let c = color(pen);
    let fill = ShapeStyle::from(c).filled();
    let line = ShapeStyle::from(c).stroke_width(2);
    let (x, y) = at;
    match marker {
        Marker::NoMarker => Ok(()),
        Marker::Circle => root.draw(&Circle::new(at, 4, fill)).map_err(err),
        Marker::OpenCircle => {
            root.draw(&Circle::new(at, 4, ShapeStyle::from(WHITE).filled()))
                .map_err(err)?;
            root.draw(&Circle::new(at, 4, line)).map_err(err)
        }
        Marker::Triangle => root
            .draw(&Polygon::new(
                vec![(x, y - 5), (x + 5, y + 4), (x - 5, y + 4)],
                fill,
            ))
            .map_err(err),
        Marker::Square => root
            .draw(&Rectangle::new([(x - 4, y - 4), (x + 4, y + 4)], fill))
            .map_err(err),
        Marker::Diamond => root
            .draw(&Polygon::new(
                vec![(x, y - 5), (x + 5, y), (x, y + 5), (x - 5, y)],
                fill,
            ))
            .map_err(err),
        Marker::Cross => {
            root.draw(&PathElement::new(
                vec![(x - 4, y - 4), (x + 4, y + 4)],
                line,
            ))
            .map_err(err)?;
            root.draw(&PathElement::new(
                vec![(x - 4, y + 4), (x + 4, y - 4)],
                line,
            ))
            .map_err(err)
        }
    }
}

/// Draws a polyline in backend pixels with the pen's dash pattern.
fn draw_pixel_line(root: &Root, pts: &[(i32, i32)], pen: &Pen) -> DrawResult {
    if pts.len() < 2 || pen.width == 0 {
        return Ok(());
    }
    let style = ShapeStyle::from(color(pen)).stroke_width(pen.width);
    match pen.dash {
        Dash::NoLine => Ok(()),
        Dash::Solid => root
            .draw(&PathElement::new(pts.to_vec(), style))
            .map_err(err),
        Dash::Dashed | Dash::Dotted => {
            let (on, off) = if pen.dash == Dash::Dashed {
                (9.0, 5.0)
            } else {
                (2.0, 4.0 + pen.width as f64)
            };
            for seg in dash_segments(pts, on, off) {
                root.draw(&PathElement::new(seg, style)).map_err(err)?;
            }
            Ok(())
        }
    }
}

/// Splits a pixel polyline into dashes of length `on` separated by gaps `off`, continuing the
/// pattern across vertices.
fn dash_segments(pts: &[(i32, i32)], on: f64, off: f64) -> Vec<Vec<(i32, i32)>> {
    let mut out = Vec::new();
    let mut cur: Vec<(i32, i32)> = Vec::new();
    let mut phase = 0.0; // position within the on+off period
    for w in pts.windows(2) {
        let (a, b) = (
            (w[0].0 as f64, w[0].1 as f64),
            (w[1].0 as f64, w[1].1 as f64),
        );
        let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
        let mut s = 0.0;
        while s < len {
            let at = |t: f64| {
                let f = if len > 0.0 { t / len } else { 0.0 };
                (
                    (a.0 + f * (b.0 - a.0)).round() as i32,
                    (a.1 + f * (b.1 - a.1)).round() as i32,
                )
            };
            if phase < on {
                let step = (on - phase).min(len - s);
                if cur.is_empty() {
                    cur.push(at(s));
                }
                cur.push(at(s + step));
                s += step;
                phase += step;
                if phase >= on {
                    out.push(std::mem::take(&mut cur));
                }
            } else {
                let step = (on + off - phase).min(len - s);
                s += step;
                phase += step;
                if phase >= on + off {
                    phase = 0.0;
                }
            }
        }
    }
    if cur.len() >= 2 {
        out.push(cur);
    }
    out
}

fn draw(
    buf: &mut String,
    fig: &Figure,
    layers: &[Prepared],
    xr: (f64, f64),
    yr: (f64, f64),
    notes: &[String],
) -> DrawResult {
    let root = SVGBackend::with_string(buf, (fig.width, fig.height)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let max_title = ((fig.width as f64) / 8.5) as usize;
    let title: String = if fig.title.chars().count() > max_title {
        let mut t: String = fig
            .title
            .chars()
            .take(max_title.saturating_sub(1))
            .collect();
        t.push('…');
        t
    } else {
        fig.title.clone()
    };
    let body = root
        .titled(&title, (FONT, 21).into_font().style(FontStyle::Bold))
        .map_err(err)?;
    let (plot_area, legend_area) = body.split_horizontally(fig.width.saturating_sub(LEGEND_W));

    let (xb, xl) = ticks(xr.0, xr.1, fig.x.scale);
    let (yb, yl) = ticks(yr.0, yr.1, fig.y.scale);
    let xstep = xb
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(f64::INFINITY, f64::min);
    let ystep = yb
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(f64::INFINITY, f64::min);
    let fmt = |scale: Scale, step: f64| {
        move |v: &f64| match scale {
            Scale::Log => log_tick_label(*v),
            Scale::Linear => linear_tick_label(*v, if step.is_finite() { step } else { 1.0 }),
        }
    };
    let (fx, fy) = (fmt(fig.x.scale, xstep), fmt(fig.y.scale, ystep));

    let mut chart = ChartBuilder::on(&plot_area)
        .margin_top(6)
        .margin_right(14)
        .margin_left(6)
        .x_label_area_size(46)
        .y_label_area_size(66)
        .build_cartesian_2d(
            TickedAxis {
                lo: xr.0,
                hi: xr.1,
                bold: xb,
                light: xl,
            },
            TickedAxis {
                lo: yr.0,
                hi: yr.1,
                bold: yb,
                light: yl,
            },
        )
        .map_err(err)?;
    chart
        .configure_mesh()
        .bold_line_style(RGBColor(200, 200, 200).stroke_width(1))
        .light_line_style(RGBColor(236, 236, 236).stroke_width(1))
        .axis_style(RGBColor(60, 60, 60).stroke_width(1))
        .label_style((FONT, 17).into_font().color(&RGBColor(40, 40, 40)))
        .axis_desc_style((FONT, 18).into_font().color(&BLACK))
        .x_desc(fig.x.label.as_str())
        .y_desc(fig.y.label.as_str())
        .x_label_formatter(&fx)
        .y_label_formatter(&fy)
        .draw()
        .map_err(err)?;

    // Bands under everything else.
    for l in layers {
        if let Shape::Band(a, b) = l.shape {
            let (a, b) = (a.max(xr.0), b.min(xr.1));
            if a < b {
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(a, yr.0), (b, yr.1)],
                        ShapeStyle::from(color(&l.pen)).filled(),
                    )))
                    .map_err(err)?;
            }
        }
    }
    for l in layers {
        let pts = match &l.shape {
            Shape::Line(v) => v.clone(),
            Shape::HLine(y) => vec![(xr.0, *y), (xr.1, *y)],
            Shape::Band(..) => continue,
        };
        for piece in clip_polyline(&pts, xr, yr) {
            let px: Vec<(i32, i32)> = piece.iter().map(|p| chart.backend_coord(p)).collect();
            draw_pixel_line(&root, &px, &l.pen)?;
            if l.pen.marker != Marker::NoMarker && matches!(l.shape, Shape::Line(_)) {
                // Markers spaced at least MARKER_GAP pixels apart, first and last always.
                let mut last: Option<(i32, i32)> = None;
                for (i, p) in px.iter().enumerate() {
                    let far = last.map_or(true, |q| {
                        let (dx, dy) = ((p.0 - q.0) as f64, (p.1 - q.1) as f64);
                        (dx * dx + dy * dy).sqrt() >= MARKER_GAP
                    });
                    if far || i + 1 == px.len() {
                        draw_marker(&root, *p, l.pen.marker, &l.pen)?;
                        last = Some(*p);
                    }
                }
            }
        }
    }

    // Legend panel.
    let (lx, ly) = legend_area.get_base_pixel();
    let text_style = (FONT, 17).into_font().color(&RGBColor(20, 20, 20));
    let note_style = (FONT, 15)
        .into_font()
        .style(FontStyle::Italic)
        .color(&RGBColor(120, 60, 0));
    let mut y = ly + 14;
    let line_h = 17;
    for l in layers.iter().filter(|l| l.legend.is_some()) {
        let text = l.legend.as_deref().unwrap_or_default();
        let lines = wrap(text, (LEGEND_W - 46) as f64, 17.0 / 1.24);
        let cy = y + 6;
        match l.shape {
            Shape::Band(..) => {
                root.draw(&Rectangle::new(
                    [(lx + 4, cy - 6), (lx + 34, cy + 6)],
                    ShapeStyle::from(color(&l.pen)).filled(),
                ))
                .map_err(err)?;
            }
            _ => {
                draw_pixel_line(&root, &[(lx + 4, cy), (lx + 34, cy)], &l.pen)?;
                if l.pen.dash == Dash::NoLine || l.pen.marker != Marker::NoMarker {
                    draw_marker(&root, (lx + 19, cy), l.pen.marker, &l.pen)?;
                }
            }
        }
        for (i, t) in lines.iter().enumerate() {
            root.draw(&Text::new(
                t.clone(),
                (lx + 42, y + i as i32 * line_h),
                text_style.clone(),
            ))
            .map_err(err)?;
        }
        y += line_h * lines.len().max(1) as i32 + 8;
    }
    if !notes.is_empty() {
        y += 6;
        for n in notes {
            for t in wrap(&format!("⚠ {n}"), (LEGEND_W - 8) as f64, 15.0 / 1.24) {
                root.draw(&Text::new(t, (lx + 4, y), note_style.clone()))
                    .map_err(err)?;
                y += 15;
            }
            y += 4;
        }
    }
    root.present().map_err(err)?;
    Ok(())
}

/// A number with 3 decimals and a true minus sign.
fn signed(v: f64) -> String {
    format!("{v:.3}").replace('-', "−")
}

/// `1/6`-style exponent when `p` is a fraction with a small denominator, else 3 decimals.
pub fn fmt_exponent(p: f64) -> String {
    if !p.is_finite() {
        return "n/a".to_string();
    }
    for d in 1..=12u32 {
        let n = (p * d as f64).round();
        if (p * d as f64 - n).abs() < 1e-9 {
            return if d == 1 {
                format!("{}", n as i64)
            } else {
                format!("{}/{d}", n as i64)
            };
        }
    }
    format!("{p:.3}")
}

/// Interpolates `ln y` at `ln t` on a positive series (nearest end point outside its range).
fn loglog_value_at(series: &Series, t: f64) -> Option<f64> {
    let mut pts: Vec<(f64, f64)> = series
        .points
        .iter()
        .filter(|(x, y)| x.is_finite() && y.is_finite() && *x > 0.0 && *y > 0.0)
        .map(|(x, y)| (x.ln(), y.ln()))
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (first, last) = (*pts.first()?, *pts.last()?);
    let lt = t.ln();
    if lt <= first.0 {
        return Some(first.1.exp());
    }
    if lt >= last.0 {
        return Some(last.1.exp());
    }
    let k = pts.windows(2).position(|w| w[1].0 >= lt)?;
    let (a, b) = (pts[k], pts[k + 1]);
    let f = if b.0 > a.0 {
        (lt - a.0) / (b.0 - a.0)
    } else {
        0.0
    };
    Some((a.1 + f * (b.1 - a.1)).exp())
}

/// Default plot size.
pub const PLOT_SIZE: (u32, u32) = (640, 400);

/// The log-log rate plot of an entry: the quantity against T per seed (thin), the median
/// (bold), the fitted line over its window, the theorem's slope anchored at the median's value
/// at the window start (dashed), the explicit envelope (dotted), the fit window shaded.
pub fn rate_plot(entry: &RateEntry) -> PlotOutput {
    let mut layers = Vec::new();
    if let Some((a, b)) = entry.window {
        layers.push(Layer {
            legend: Some("fit window".to_string()),
            shape: Shape::Band(a, b),
            pen: WINDOW_PEN,
        });
    }
    for (i, s) in entry.seeds.iter().enumerate() {
        layers.push(Layer {
            legend: (i == 0).then(|| format!("seeds (n = {})", entry.seeds.len())),
            shape: Shape::Line(s.points.clone()),
            pen: SEED_PEN,
        });
    }
    if let Some(env) = &entry.envelope {
        layers.push(Layer {
            legend: Some(if env.label.is_empty() {
                "explicit envelope".to_string()
            } else {
                env.label.clone()
            }),
            shape: Shape::Line(env.points.clone()),
            pen: ENVELOPE_PEN,
        });
    }
    if let Some(m) = &entry.median {
        layers.push(Layer {
            legend: Some("median over seeds".to_string()),
            shape: Shape::Line(m.points.clone()),
            pen: MEDIAN_PEN,
        });
    }
    if let Some(f) = &entry.fit {
        let pts: Vec<(f64, f64)> = [f.t_start, f.t_end]
            .iter()
            .map(|&t| (t, f.value_at(t)))
            .collect();
        layers.push(Layer {
            legend: Some(format!("least-squares fit, slope {}", signed(f.slope))),
            shape: Shape::Line(pts),
            pen: FIT_PEN,
        });
    }
    let mut notes = Vec::new();
    // Reference line: the theorem's slope, anchored at the median at the window start (the
    // median series when given, else the median over the seeds at that T).
    let anchor_set: Vec<&Series> = match &entry.median {
        Some(m) => vec![m],
        None => entry.seeds.iter().collect(),
    };
    let xs: Vec<f64> = anchor_set
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .filter(|x| x.is_finite() && *x > 0.0)
        .collect();
    let t_end = xs.iter().cloned().fold(f64::NAN, f64::max);
    let t0 = entry
        .window
        .map(|w| w.0)
        .or_else(|| xs.iter().cloned().reduce(f64::min));
    let mut at_t0: Vec<f64> = t0
        .map(|t| {
            anchor_set
                .iter()
                .filter_map(|s| loglog_value_at(s, t))
                .collect()
        })
        .unwrap_or_default();
    at_t0.sort_by(f64::total_cmp);
    match (t0, at_t0.get(at_t0.len() / 2)) {
        (Some(t0), Some(&q0)) if t_end > t0 => {
            let pts = vec![(t0, q0), (t_end, q0 * (t_end / t0).powf(-entry.p))];
            layers.push(Layer {
                legend: Some(format!(
                    "theorem slope −{}{}",
                    fmt_exponent(entry.p),
                    if entry.log_factor {
                        " (up to logs)"
                    } else {
                        ""
                    }
                )),
                shape: Shape::Line(pts),
                pen: REFERENCE_PEN,
            });
        }
        _ => notes
            .push("theorem reference line not drawn: no positive value to anchor it".to_string()),
    }
    let mut out = render(&Figure {
        title: format!("{}: {}", entry.case, entry.quantity_text),
        x: Axis::log("iterations T"),
        y: Axis::log(quantity_axis_label(&entry.quantity_text)),
        layers,
        width: PLOT_SIZE.0,
        height: PLOT_SIZE.1,
        robust_y: false,
    });
    out.notes.splice(0..0, notes);
    out
}

/// A y-axis label for a theorem quantity: the quantity itself when it is short, otherwise its
/// measure (`mean of G_X^LMO(x_t, y_t) over t = 0..T` -> `running mean of G_X^LMO`; the title
/// keeps the full text).
///
/// ```
/// use saddlefw::report::plot::quantity_axis_label;
/// assert_eq!(quantity_axis_label("G^Opt(x_T)"), "G^Opt(x_T)");
/// assert_eq!(
///     quantity_axis_label("mean of G_X^LMO(x_t, y_t) over t = 0..T"),
///     "running mean of G_X^LMO"
/// );
/// ```
pub fn quantity_axis_label(quantity: &str) -> String {
    const MAX: usize = 34;
    if quantity.chars().count() <= MAX {
        return quantity.to_string();
    }
    if let Some(rest) = quantity.strip_prefix("mean of ") {
        let measure = rest.split(['(', ' ']).next().unwrap_or(rest);
        let label = format!("running mean of {measure}");
        if label.chars().count() <= MAX {
            return label;
        }
    }
    let mut short: String = quantity.chars().take(MAX - 1).collect();
    short.push('\u{2026}');
    short
}

/// The local-slope plot: `d ln q / d ln T` against T (log x, linear y), with the theorem's
/// `-p` as a dashed horizontal line, the fitted `-p_hat` dotted and the fit window shaded.
pub fn local_slope_plot(entry: &RateEntry) -> PlotOutput {
    let mut layers = Vec::new();
    if let Some((a, b)) = entry.window {
        layers.push(Layer {
            legend: Some("fit window".to_string()),
            shape: Shape::Band(a, b),
            pen: WINDOW_PEN,
        });
    }
    let many = entry.local_slopes.len() > 1;
    let mut thin_seen = false;
    for s in &entry.local_slopes {
        let bold = match s.style {
            SeriesStyle::Bold => true,
            SeriesStyle::Thin => false,
            _ => !many,
        };
        let (pen, legend) = if bold {
            (MEDIAN_PEN, Some(nonempty(&s.label, "local slope")))
        } else {
            let first = !thin_seen;
            thin_seen = true;
            let n = entry
                .local_slopes
                .iter()
                .filter(|s| s.style != SeriesStyle::Bold && (many || s.style == SeriesStyle::Thin))
                .count();
            (
                SEED_PEN,
                first.then(|| format!("local slopes per seed (n = {n})")),
            )
        };
        layers.push(Layer {
            legend,
            shape: Shape::Line(s.points.clone()),
            pen,
        });
    }
    layers.push(Layer {
        legend: Some(format!(
            "theorem: −p = −{}{}",
            fmt_exponent(entry.p),
            if entry.log_factor {
                " (up to logs)"
            } else {
                ""
            }
        )),
        shape: Shape::HLine(-entry.p),
        pen: REFERENCE_PEN,
    });
    if let Some(ph) = entry.p_hat {
        layers.push(Layer {
            legend: Some(format!("fit: −p̂ = {}", signed(-ph))),
            shape: Shape::HLine(-ph),
            pen: Pen {
                dash: Dash::Dotted,
                ..FIT_PEN
            },
        });
    }
    render(&Figure {
        title: format!("{}: local slopes", entry.case),
        x: Axis::log("iterations T"),
        y: Axis::linear("local slope d ln q / d ln T"),
        layers,
        width: PLOT_SIZE.0,
        height: PLOT_SIZE.1,
        robust_y: true,
    })
}

fn nonempty(s: &str, default: &str) -> String {
    if s.trim().is_empty() {
        default.to_string()
    } else {
        s.to_string()
    }
}

/// Several algorithms on one problem: one line per series, pens by algorithm name
/// ([`algorithm_pen`]); the series label is the legend (callers append a baseline's
/// provenance there).
pub fn algorithms_plot(title: &str, x: Axis, y: Axis, series: &[Series]) -> PlotOutput {
    let layers = series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let name = s.label.split_whitespace().next().unwrap_or("");
            Layer {
                legend: Some(nonempty(&s.label, &format!("series {}", i + 1))),
                shape: Shape::Line(s.points.clone()),
                pen: algorithm_pen(name, i),
            }
        })
        .collect();
    render(&Figure {
        title: title.to_string(),
        x,
        y,
        layers,
        width: PLOT_SIZE.0,
        height: PLOT_SIZE.1,
        robust_y: false,
    })
}

/// One point of the tightness scatter.
#[derive(Debug, Clone, PartialEq)]
pub struct TightnessPoint {
    pub p: f64,
    pub p_hat: f64,
    pub ci: Option<(f64, f64)>,
}

/// Theorem exponent p (x) against the slowest observed exponent p_hat (y) with its interval,
/// and the diagonal `p_hat = p` where the rate would be attained exactly. Points sharing a
/// theorem exponent are spread horizontally by at most ±0.012 for legibility (noted).
pub fn tightness_plot(points: &[TightnessPoint]) -> PlotOutput {
    let mut layers = Vec::new();
    let mut notes = Vec::new();
    let finite: Vec<&TightnessPoint> = points
        .iter()
        .filter(|t| t.p.is_finite() && t.p_hat.is_finite())
        .collect();
    let pmax = finite
        .iter()
        .map(|t| t.p.max(t.p_hat).max(t.ci.map_or(0.0, |c| c.1)))
        .fold(1.0f64, f64::max);
    layers.push(Layer {
        legend: Some("p̂ = p (rate attained)".to_string()),
        shape: Shape::Line(vec![(0.0, 0.0), (pmax, pmax)]),
        pen: REFERENCE_PEN,
    });
    let mut offsets = Vec::new();
    let mut spread = false;
    for (i, t) in finite.iter().enumerate() {
        let same: Vec<usize> = finite
            .iter()
            .enumerate()
            .filter(|(_, u)| (u.p - t.p).abs() < 1e-9)
            .map(|(j, _)| j)
            .collect();
        let k = same.iter().position(|&j| j == i).unwrap_or(0) as f64;
        let n = same.len() as f64;
        let off = if n > 1.0 {
            spread = true;
            0.024 * (k / (n - 1.0) - 0.5)
        } else {
            0.0
        };
        offsets.push(off);
    }
    for (i, (t, off)) in finite.iter().zip(&offsets).enumerate() {
        if let Some((lo, hi)) = t.ci {
            layers.push(Layer {
                legend: (i == 0).then(|| "interval".to_string()),
                shape: Shape::Line(vec![(t.p + off, lo), (t.p + off, hi)]),
                pen: Pen::new((8, 48, 107), 1, Dash::Solid, Marker::NoMarker),
            });
        }
    }
    layers.push(Layer {
        legend: Some("slowest observed p̂".to_string()),
        shape: Shape::Line(
            finite
                .iter()
                .zip(&offsets)
                .map(|(t, off)| (t.p + off, t.p_hat))
                .collect(),
        ),
        pen: Pen::new((8, 48, 107), 2, Dash::NoLine, Marker::Circle),
    });
    if spread {
        notes.push(
            "points sharing a theorem exponent are spread horizontally by up to ±0.012".to_string(),
        );
    }
    if finite.len() < points.len() {
        notes.push(format!(
            "{} entries without a finite exponent are not shown",
            points.len() - finite.len()
        ));
    }
    let mut out = render_points(layers);
    out.notes.splice(0..0, notes);
    out
}

/// Markers-only layers need every point drawn, not a subsample: draw them as one layer per
/// point so the marker rule (ends always drawn) applies to each.
fn render_points(mut layers: Vec<Layer>) -> PlotOutput {
    if let Some(last) = layers.pop() {
        if let Shape::Line(pts) = &last.shape {
            for (i, p) in pts.iter().enumerate() {
                layers.push(Layer {
                    legend: if i == 0 { last.legend.clone() } else { None },
                    shape: Shape::Line(vec![*p]),
                    pen: last.pen,
                });
            }
        }
    }
    render(&Figure {
        title: "Tightness: theorem exponent vs slowest observed exponent".to_string(),
        x: Axis::linear("theorem exponent p"),
        y: Axis::linear("observed exponent p̂ (hardest instance)"),
        layers,
        width: PLOT_SIZE.0,
        height: PLOT_SIZE.1,
        robust_y: false,
    })
}
