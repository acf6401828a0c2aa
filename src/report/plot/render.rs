//! The generic renderer: data to axis units, skipped points and ranges, then drawing.

use super::draw::draw;
use super::figure::{Axis, Figure, Layer, PlotOutput, Prepared, Scale, Shape};
use crate::report::{escape, xml_clean};

/// Data value to axis units (log10 on log axes); `None` when the axis cannot show it.
fn to_axis(v: f64, scale: Scale) -> Option<f64> {
    match scale {
        _ if !v.is_finite() => None,
        Scale::Log if v <= 0.0 => None,
        Scale::Log => Some(v.log10()),
        Scale::Linear => Some(v),
    }
}

/// Renders a figure to a standalone SVG document (text that XML forbids is replaced).
pub fn render(fig: &Figure) -> PlotOutput {
    let clean = |s: &str| xml_clean(s);
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
        escape(&fig.title),
        w = fig.width,
        h = fig.height
    );
    for (i, n) in notes.iter().enumerate() {
        s.push_str(&format!(
            "<text x=\"20\" y=\"{}\" font-family=\"sans-serif\" font-size=\"12\">{}</text>\n",
            55 + 18 * i,
            escape(n)
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
