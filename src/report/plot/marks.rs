//! Drawing primitives in backend pixels: the pen's colour, dashed polylines and markers,
//! shared by the plot area and the legend.

use super::pen::{Dash, Marker, Pen};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Width of the legend panel on the right.
pub(super) const LEGEND_W: u32 = 200;
pub(super) const FONT: &str = "sans-serif";

pub(super) fn color(pen: &Pen) -> RGBAColor {
    RGBColor(pen.color.0, pen.color.1, pen.color.2).mix(pen.opacity)
}

pub(super) type Root<'a> = DrawingArea<SVGBackend<'a>, Shift>;
pub(super) type DrawResult = std::result::Result<(), String>;

pub(super) fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// Draws a marker centred at a backend pixel.
pub(super) fn draw_marker(root: &Root, at: (i32, i32), marker: Marker, pen: &Pen) -> DrawResult {
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
pub(super) fn draw_pixel_line(root: &Root, pts: &[(i32, i32)], pen: &Pen) -> DrawResult {
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
