//! Clipping of polylines to the plot box (Liang-Barsky).

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
