//! Small formatting pieces: verdict badges, numbers and counts.

use crate::report::model::Verdict;

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
pub(super) fn fmt_count(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        fmt_num(v, 4)
    }
}

pub(super) fn opt_num(v: Option<f64>, sig: usize) -> String {
    v.map_or_else(|| "n/a".to_string(), |x| fmt_num(x, sig))
}
