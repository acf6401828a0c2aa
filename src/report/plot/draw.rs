//! Drawing a prepared figure with `plotters` into an SVG string: title, chart and mesh,
//! bands, then lines with their markers; the legend panel on the right ([`draw_legend`]).

use super::clip::clip_polyline;
use super::figure::{Figure, Prepared, Scale, Shape};
use super::legend::draw_legend;
use super::marks::{color, draw_marker, draw_pixel_line, err, DrawResult, Root, FONT, LEGEND_W};
use super::pen::{Marker, Pen};
use super::ticks::{linear_tick_label, log_tick_label, ticks, TickedAxis};
use plotters::prelude::*;

/// Minimum distance in pixels between two markers of one line.
const MARKER_GAP: f64 = 34.0;

/// The chart of a figure: both coordinates in axis units with our own ticks.
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<TickedAxis, TickedAxis>>;

/// Draws the prepared layers of a figure over the ranges `xr x yr` (axis units), with the
/// legend panel and the notes on the right.
pub(super) fn draw(
    buf: &mut String,
    fig: &Figure,
    layers: &[Prepared],
    xr: (f64, f64),
    yr: (f64, f64),
    notes: &[String],
) -> DrawResult {
    let root = SVGBackend::with_string(buf, (fig.width, fig.height)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let title = shortened_title(fig);
    let body = root
        .titled(&title, (FONT, 21).into_font().style(FontStyle::Bold))
        .map_err(err)?;
    let (plot_area, legend_area) = body.split_horizontally(fig.width.saturating_sub(LEGEND_W));
    let mut chart = chart_with_mesh(&plot_area, fig, xr, yr)?;
    draw_bands(&mut chart, layers, xr, yr)?;
    draw_lines(&root, &chart, layers, xr, yr)?;
    draw_legend(&root, &legend_area, layers, notes)?;
    root.present().map_err(err)?;
    Ok(())
}

/// The title, cut with an ellipsis when it would not fit the figure's width.
fn shortened_title(fig: &Figure) -> String {
    let max_title = ((fig.width as f64) / 8.5) as usize;
    if fig.title.chars().count() > max_title {
        let mut t: String = fig
            .title
            .chars()
            .take(max_title.saturating_sub(1))
            .collect();
        t.push('…');
        t
    } else {
        fig.title.clone()
    }
}

/// The chart on `area` with its mesh, tick labels and axis descriptions drawn.
fn chart_with_mesh<'a, 'b>(
    area: &'a Root<'b>,
    fig: &Figure,
    xr: (f64, f64),
    yr: (f64, f64),
) -> Result<Chart<'a, 'b>, String> {
    let (xb, xl) = ticks(xr.0, xr.1, fig.x.scale);
    let (yb, yl) = ticks(yr.0, yr.1, fig.y.scale);
    let smallest_step = |b: &[f64]| {
        b.windows(2)
            .map(|w| w[1] - w[0])
            .fold(f64::INFINITY, f64::min)
    };
    let (xstep, ystep) = (smallest_step(&xb), smallest_step(&yb));
    let fmt = |scale: Scale, step: f64| {
        move |v: &f64| match scale {
            Scale::Log => log_tick_label(*v),
            Scale::Linear => linear_tick_label(*v, if step.is_finite() { step } else { 1.0 }),
        }
    };
    let (fx, fy) = (fmt(fig.x.scale, xstep), fmt(fig.y.scale, ystep));

    let mut chart = ChartBuilder::on(area)
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
    Ok(chart)
}

/// The shaded bands, under everything else.
fn draw_bands(
    chart: &mut Chart,
    layers: &[Prepared],
    xr: (f64, f64),
    yr: (f64, f64),
) -> DrawResult {
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
    Ok(())
}

/// The lines and horizontal lines, clipped to the ranges, with their markers.
fn draw_lines(
    root: &Root,
    chart: &Chart,
    layers: &[Prepared],
    xr: (f64, f64),
    yr: (f64, f64),
) -> DrawResult {
    for l in layers {
        let pts = match &l.shape {
            Shape::Line(v) => v.clone(),
            Shape::HLine(y) => vec![(xr.0, *y), (xr.1, *y)],
            Shape::Band(..) => continue,
        };
        for piece in clip_polyline(&pts, xr, yr) {
            let px: Vec<(i32, i32)> = piece.iter().map(|p| chart.backend_coord(p)).collect();
            draw_pixel_line(root, &px, &l.pen)?;
            if l.pen.marker != Marker::NoMarker && matches!(l.shape, Shape::Line(_)) {
                draw_spaced_markers(root, &px, &l.pen)?;
            }
        }
    }
    Ok(())
}

/// Markers spaced at least [`MARKER_GAP`] pixels apart along a pixel line, the first and the
/// last always.
fn draw_spaced_markers(root: &Root, px: &[(i32, i32)], pen: &Pen) -> DrawResult {
    let mut last: Option<(i32, i32)> = None;
    for (i, p) in px.iter().enumerate() {
        let far = last.map_or(true, |q| {
            let (dx, dy) = ((p.0 - q.0) as f64, (p.1 - q.1) as f64);
            (dx * dx + dy * dy).sqrt() >= MARKER_GAP
        });
        if far || i + 1 == px.len() {
            draw_marker(root, *p, pen.marker, pen)?;
            last = Some(*p);
        }
    }
    Ok(())
}
