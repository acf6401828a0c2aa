//! The public plot builders: they only choose layers and pens for [`render`].

use super::figure::{Axis, Figure, Layer, PlotOutput, Shape};
use super::pen::{
    algorithm_pen, Dash, Marker, Pen, ENVELOPE_PEN, FIT_PEN, MEDIAN_PEN, REFERENCE_PEN, SEED_PEN,
    WINDOW_PEN,
};
use super::render::render;
use crate::report::model::{RateEntry, Series, SeriesStyle};

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

/// The shaded fit window of an entry, when it has one (the first layer of its plots).
fn fit_window_layer(entry: &RateEntry) -> Vec<Layer> {
    entry
        .window
        .map(|(a, b)| Layer {
            legend: Some("fit window".to_string()),
            shape: Shape::Band(a, b),
            pen: WINDOW_PEN,
        })
        .into_iter()
        .collect()
}

/// The theorem's exponent as the legends print it (`1/2`, `1/4 (up to logs)`).
fn theorem_exponent(entry: &RateEntry) -> String {
    let logs = if entry.log_factor {
        " (up to logs)"
    } else {
        ""
    };
    format!("{}{logs}", fmt_exponent(entry.p))
}

/// Default plot size.
pub(crate) const PLOT_SIZE: (u32, u32) = (640, 400);

/// The log-log rate plot of an entry: the quantity against T per seed (thin), the median
/// (bold), the fitted line over its window, the theorem's slope anchored at the median's value
/// at the window start (dashed), the explicit envelope (dotted), the fit window shaded.
pub fn rate_plot(entry: &RateEntry) -> PlotOutput {
    let mut layers = fit_window_layer(entry);
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
                legend: Some(format!("theorem slope −{}", theorem_exponent(entry))),
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
    let mut layers = fit_window_layer(entry);
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
        legend: Some(format!("theorem: −p = −{}", theorem_exponent(entry))),
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
