//! Tick positions and tick labels (log axes in log10 units, ticks at powers of ten).

use super::figure::Scale;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::prelude::*;
use std::ops::Range;

/// A linear coordinate (in axis units) with our own bold (labelled) and light tick lists.
pub(super) struct TickedAxis {
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) bold: Vec<f64>,
    pub(super) light: Vec<f64>,
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
pub(super) fn log_tick_label(v: f64) -> String {
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

pub(super) fn linear_tick_label(v: f64, step: f64) -> String {
    let mag = v.abs().max(step.abs());
    if mag != 0.0 && !(1e-4..1e6).contains(&mag) {
        return format!("{v:.1e}").replace('-', "−");
    }
    let decimals = (-(step.log10().floor())).max(0.0) as usize + 1;
    trim_number(v, decimals.min(12))
}
