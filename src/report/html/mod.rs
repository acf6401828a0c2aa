//! Self-contained HTML pages: inline CSS, inline SVG, no scripts, nothing fetched.
//!
//! All pages share one skeleton (`page`) and the same pieces (verdict badges, figures,
//! the invariant table, the errata list, runs tables, the metadata block). Every piece of
//! text that comes from data passes through [`escape`](crate::report::escape).
//!
//! ```
//! use saddlefw::fit::Verdict;
//! use saddlefw::report::html::{fmt_num, runs_page, verdict_badge};
//! use saddlefw::report::{Meta, RunSummary, Series};
//! assert_eq!((fmt_num(0.012345, 3), fmt_num(123456.0, 3)), ("0.0123".to_string(), "1.23e5".to_string()));
//! assert!(verdict_badge(Verdict::Fail).contains("FAIL"));
//! // a page is self-contained (no script, nothing fetched) and escapes the text of its data
//! let run = RunSummary {
//!     algorithm: "SP-FW".into(),
//!     provenance: Some("VERIFIED <authors' code>".into()),
//!     problem: Some("p".into()),
//!     measure: None,
//!     status: "completed".into(),
//!     iterations: 3,
//!     wall_time_s: Some(0.1),
//!     cpu_share: None,
//!     by_iteration: Some(Series::new("SP-FW", vec![(1.0, 1.0), (2.0, 0.5), (3.0, 0.3)])),
//!     by_time: None,
//! };
//! let page = runs_page(&Meta::current(None, &[0]), &[run]);
//! assert!(page.contains("VERIFIED &lt;authors") && !page.contains("<authors"));
//! assert!(!page.contains("<script") && !page.contains("src=\"http"));
//! ```

mod check;
mod experiment;
mod format;
mod page;
mod runs;
mod verify;

pub use self::check::check_page;
pub use self::experiment::experiment_page;
pub use self::format::{fmt_num, verdict_badge};
pub use self::runs::runs_page;
pub use self::verify::verify_page;
pub(crate) use self::verify::verify_page_with;
