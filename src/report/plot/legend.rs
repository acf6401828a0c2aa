//! The legend panel: one entry per legend layer, then the notes, wrapped to the panel.

use super::figure::{Prepared, Shape};
use super::marks::{color, draw_marker, draw_pixel_line, err, DrawResult, Root, FONT, LEGEND_W};
use super::pen::{Dash, Marker};
use plotters::prelude::*;

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

/// Draws the legend panel on `legend_area`: a sample of each legend layer's pen and its
/// wrapped text, then the notes.
pub(super) fn draw_legend(
    root: &Root,
    legend_area: &Root,
    layers: &[Prepared],
    notes: &[String],
) -> DrawResult {
    let (lx, ly) = legend_area.get_base_pixel();
    let text_style = (FONT, 17).into_font().color(&RGBColor(20, 20, 20));
    let mut y = ly + 14;
    let line_h = 17;
    for l in layers.iter().filter(|l| l.legend.is_some()) {
        let text = l.legend.as_deref().unwrap_or_default();
        let lines = wrap(text, (LEGEND_W - 46) as f64, 17.0 / 1.24);
        draw_pen_sample(root, l, (lx, y + 6))?;
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
    draw_notes(root, notes, (lx, y))
}

/// A layer's legend sample with its left edge at `lx` and its centre line at `cy`: a filled
/// box for a band, otherwise a short line with the marker.
fn draw_pen_sample(root: &Root, l: &Prepared, (lx, cy): (i32, i32)) -> DrawResult {
    match l.shape {
        Shape::Band(..) => root
            .draw(&Rectangle::new(
                [(lx + 4, cy - 6), (lx + 34, cy + 6)],
                ShapeStyle::from(color(&l.pen)).filled(),
            ))
            .map_err(err),
        _ => {
            draw_pixel_line(root, &[(lx + 4, cy), (lx + 34, cy)], &l.pen)?;
            if l.pen.dash == Dash::NoLine || l.pen.marker != Marker::NoMarker {
                draw_marker(root, (lx + 19, cy), l.pen.marker, &l.pen)?;
            }
            Ok(())
        }
    }
}

/// The notes below the legend entries (which end at `y`), each with a warning sign.
fn draw_notes(root: &Root, notes: &[String], (lx, mut y): (i32, i32)) -> DrawResult {
    if notes.is_empty() {
        return Ok(());
    }
    let note_style = (FONT, 15)
        .into_font()
        .style(FontStyle::Italic)
        .color(&RGBColor(120, 60, 0));
    y += 6;
    for n in notes {
        for t in wrap(&format!("⚠ {n}"), (LEGEND_W - 8) as f64, 15.0 / 1.24) {
            root.draw(&Text::new(t, (lx + 4, y), note_style.clone()))
                .map_err(err)?;
            y += 15;
        }
        y += 4;
    }
    Ok(())
}
