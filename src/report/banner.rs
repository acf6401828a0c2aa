//! The banner at the top of a page whose record a signal stopped (issue 17): it says where
//! the command stopped and how to finish it, so a partial page is never read as a final one.
//!
//! ```
//! use saddlefw::report::banner::interrupted;
//! assert_eq!(interrupted(None), "");
//! let b = interrupted(Some("interrupted by SIGINT after 3 of 7 jobs"));
//! assert!(b.contains("class=\"interrupted\"") && b.contains("3 of 7"));
//! assert!(interrupted(Some("a < b")).contains("a &lt; b"));
//! ```

/// The banner's HTML for the interruption `text` (nothing without one).
pub fn interrupted(text: Option<&str>) -> String {
    match text {
        None => String::new(),
        Some(t) => format!(
            "<section class=\"interrupted\" id=\"interrupted\" style=\"border:2px solid #b00;\
             background:#fff3f3;padding:0.6em 1em;margin:1em 0\"><strong>INTERRUPTED: partial \
             results.</strong> {}. Verdicts on this page are partial and do not gate.</section>\n",
            super::escape(t)
        ),
    }
}
