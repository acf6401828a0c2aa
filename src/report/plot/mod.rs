//! SVG plots drawn with `plotters` into a string (no font files needed: text is emitted as
//! SVG `<text>` and the viewer's sans-serif font renders it).
//!
//! One generic renderer, [`render()`], draws a [`Figure`] (axes, layers, legend); the public
//! builders ([`rate_plot`], [`local_slope_plot`], [`algorithms_plot`], [`tightness_plot`])
//! only choose layers and pens. Log axes work in log10 units internally with ticks at powers
//! of ten. Values that a log axis cannot show (<= 0) and non-finite values are skipped and
//! counted, and the count is reported in [`PlotOutput::notes`] and in the legend panel: a
//! plot never takes the log of a non-positive number and never adds an epsilon.
//!
//! Greyscale legibility: every pen differs from the others in at least one of dash pattern,
//! marker, width or lightness, not only in hue.
//!
//! ```
//! use saddlefw::report::plot::{algorithms_plot, pow10_label, Axis};
//! use saddlefw::report::Series;
//! assert_eq!((pow10_label(-3), pow10_label(2)), ("10⁻³".to_string(), "100".to_string()));
//! // a value a log axis cannot show is skipped and said so, never shifted by an epsilon
//! let s = Series::new("LMO-PO", vec![(1.0, 1.0), (2.0, 0.0), (4.0, 0.25)]);
//! let out = algorithms_plot("demo", Axis::log("t"), Axis::log("gap"), &[s.clone()]);
//! assert!(out.svg.contains("<svg") && out.notes.len() == 1, "{:?}", out.notes);
//! // the same series without the zero has nothing to report
//! let clean = Series::new("LMO-PO", vec![(1.0, 1.0), (4.0, 0.25)]);
//! assert!(algorithms_plot("demo", Axis::log("t"), Axis::log("gap"), &[clean]).notes.is_empty());
//! ```

mod charts;
mod clip;
mod draw;
mod figure;
mod legend;
mod marks;
mod pen;
mod render;
mod ticks;

pub use self::charts::{
    algorithms_plot, fmt_exponent, local_slope_plot, quantity_axis_label, rate_plot,
};
pub use self::charts::{tightness_plot, TightnessPoint};
pub use self::clip::clip_polyline;
pub use self::figure::{Axis, Figure, Layer, PlotOutput, Scale, Shape};
pub use self::pen::{algorithm_pen, Dash, Marker, Pen};
pub use self::render::render;
pub use self::ticks::{pow10_label, ticks};
