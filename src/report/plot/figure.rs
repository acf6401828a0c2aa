//! The plot description: a [`Figure`] of [`Layer`]s on two [`Axis`]es, and its output.

use super::pen::Pen;

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

/// A layer in axis units: what [`render`](super::render) kept of a [`Layer`] after dropping
/// the points an axis cannot show.
pub(super) struct Prepared {
    pub(super) shape: Shape,
    pub(super) pen: Pen,
    pub(super) legend: Option<String>,
}
