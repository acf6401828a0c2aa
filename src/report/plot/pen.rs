//! Pens: colour, width, dash pattern and marker of a layer, and the fixed pens and palette.

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
    pub(super) const fn new(color: (u8, u8, u8), width: u32, dash: Dash, marker: Marker) -> Self {
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
pub(crate) const SEED_PEN: Pen = Pen {
    color: (120, 150, 190),
    width: 1,
    dash: Dash::Solid,
    marker: Marker::NoMarker,
    opacity: 0.75,
};
/// The median over seeds: bold, dark, with markers.
pub(crate) const MEDIAN_PEN: Pen = Pen::new((8, 48, 107), 3, Dash::Solid, Marker::Circle);
/// The least-squares fit over its window: medium tone, solid.
pub(crate) const FIT_PEN: Pen = Pen::new((213, 94, 0), 3, Dash::Solid, Marker::NoMarker);
/// The theorem's slope: black, dashed.
pub(crate) const REFERENCE_PEN: Pen = Pen::new((0, 0, 0), 2, Dash::Dashed, Marker::NoMarker);
/// The explicit envelope bound(T): dotted, with open markers.
pub(crate) const ENVELOPE_PEN: Pen = Pen::new((0, 130, 90), 2, Dash::Dotted, Marker::OpenCircle);
/// Shading of the fit window.
pub(crate) const WINDOW_PEN: Pen = Pen {
    color: (255, 200, 120),
    width: 0,
    dash: Dash::Solid,
    marker: Marker::NoMarker,
    opacity: 0.22,
};

/// Eight pens that differ in colour (Okabe-Ito), dash pattern and marker.
pub(crate) const PALETTE: [Pen; 8] = [
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
