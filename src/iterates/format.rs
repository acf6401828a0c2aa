//! The iterate file format (`saddlefw-iterates-v1`): JSON Lines, one iterate per line,
//!
//! ```text
//! {"t": 0, "x": [0.5, 0.5], "y": [1.0, 0.0]}
//! {"t": 1, "x": [0.25, 0.75], "y": [0.5, 0.5]}
//! ```
//!
//! `t` runs 0, 1, 2, ... in order without gaps; `x` has length `dx`, `y` length `dy`; every
//! number is finite. Lines that are empty or only white space are skipped; any other member
//! is an error (a typo such as `"y_"` is not silently ignored). The reader streams: it holds
//! one line and one iterate, whatever the file's size.
//!
//! Every error is an [`Error::Input`] naming the file, `line N` and the reason.
//!
//! ```
//! use saddlefw::iterates::format::{IterateReader, IterateWriter};
//! let mut buf = Vec::new();
//! let mut w = IterateWriter::new(&mut buf);
//! w.write(0, &[0.5, 0.5], &[1.0]).unwrap();
//! w.write(1, &[0.25, 0.75], &[1.0]).unwrap();
//! drop(w);
//! let mut r = IterateReader::new(&buf[..], "it.jsonl", 2, 1);
//! let (mut x, mut y) = (vec![0.0; 2], vec![0.0; 1]);
//! assert_eq!(r.next_into(&mut x, &mut y).unwrap(), Some(0));
//! assert_eq!(r.next_into(&mut x, &mut y).unwrap(), Some(1));
//! assert_eq!(x, [0.25, 0.75]);
//! assert_eq!(r.next_into(&mut x, &mut y).unwrap(), None);
//! // wrong dimension: one line naming the file, the line and the reason
//! let mut r = IterateReader::new(&b"{\"t\": 0, \"x\": [1], \"y\": [1]}\n"[..], "it.jsonl", 2, 1);
//! let e = r.next_into(&mut x, &mut y).unwrap_err();
//! assert_eq!(e.to_string(), "it.jsonl: line 1: x has length 1, expected 2 (dx)");
//! ```

use crate::{Error, Result};
use serde::Deserialize;
use std::io::{BufRead, Read, Write};
use std::path::Path;

/// The format's name (in the export manifest and the README).
pub const ITERATES_FORMAT: &str = "saddlefw-iterates-v1";

/// The longest line read (bytes): 64 MiB, far above `dx + dy` of any exported instance
/// (a longer line is refused rather than buffered without bound).
pub const MAX_LINE: usize = 64 << 20;

/// One line as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    t: u64,
    x: Vec<f64>,
    y: Vec<f64>,
}

/// Reads the iterates of one file in order (module doc).
pub struct IterateReader<R: BufRead> {
    input: String,
    src: R,
    dx: usize,
    dy: usize,
    line_no: usize,
    next_t: u64,
    buf: Vec<u8>,
}

impl IterateReader<std::io::BufReader<std::fs::File>> {
    /// Opens `path` for iterates of dimensions `dx`, `dy`; an error names the file and `read`.
    pub fn open(path: &Path, dx: usize, dy: usize) -> Result<Self> {
        let name = path.display().to_string();
        let f = std::fs::File::open(path).map_err(|e| Error::io(&name, "read", e))?;
        Ok(Self::new(std::io::BufReader::new(f), &name, dx, dy))
    }
}

impl<R: BufRead> IterateReader<R> {
    /// A reader of `src`; `input` names it in errors.
    pub fn new(src: R, input: &str, dx: usize, dy: usize) -> Self {
        IterateReader {
            input: input.to_string(),
            src,
            dx,
            dy,
            line_no: 0,
            next_t: 0,
            buf: Vec::new(),
        }
    }

    /// The file's name as errors give it.
    pub fn input(&self) -> &str {
        &self.input
    }

    /// The number of the last line read (1-based; 0 before the first).
    pub fn line(&self) -> usize {
        self.line_no
    }

    /// An input error at the current line.
    pub fn error(&self, reason: impl Into<String>) -> Error {
        Error::input(&self.input, format!("line {}", self.line_no), reason)
    }

    /// Reads the next iterate into `x`, `y` (lengths `dx`, `dy`) and returns its `t`, or
    /// `None` at the end of the file. `x`, `y` are unchanged on an error or at the end.
    pub fn next_into(&mut self, x: &mut [f64], y: &mut [f64]) -> Result<Option<u64>> {
        loop {
            self.buf.clear();
            let n = Read::take(self.src.by_ref(), MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut self.buf)
                .map_err(|e| Error::io(&self.input, "read", e))?;
            if n == 0 {
                return Ok(None);
            }
            self.line_no += 1;
            if self.buf.len() > MAX_LINE {
                return Err(self.error(format!("line longer than {MAX_LINE} bytes")));
            }
            let ended = self.buf.last() == Some(&b'\n');
            let text = std::str::from_utf8(&self.buf)
                .map_err(|e| self.error(format!("not UTF-8 (byte {})", e.valid_up_to() + 1)))?;
            let text = if self.line_no == 1 {
                text.trim_start_matches('\u{feff}')
            } else {
                text
            };
            if text.trim().is_empty() {
                continue;
            }
            let line: Line = serde_json::from_str(text).map_err(|e| {
                let why = e.to_string();
                let why = why.split(" at line ").next().unwrap_or(&why).to_string();
                if !ended && e.is_eof() {
                    self.error(format!("truncated line (the file ends inside it): {why}"))
                } else if e.is_syntax() && ["NaN", "Infinity", "nan", "inf"].iter().any(|w| text.contains(w)) {
                    self.error(format!("{why} (NaN and infinities are not JSON numbers: every number must be finite)"))
                } else if why.starts_with("number out of range") {
                    self.error(format!(
                        "{}: number out of range (beyond f64: every number must be finite)",
                        field_at(text, e.column())
                    ))
                } else if why.starts_with("invalid type") || why.starts_with("invalid value") {
                    self.error(wrong_type(text, e.column(), &why))
                } else {
                    self.error(why)
                }
            })?;
            self.check(&line)?;
            x.copy_from_slice(&line.x);
            y.copy_from_slice(&line.y);
            self.next_t += 1;
            return Ok(Some(line.t));
        }
    }

    /// `t` in order, dimensions, finiteness.
    fn check(&self, line: &Line) -> Result<()> {
        if line.t != self.next_t {
            return Err(self.error(format!(
                "t = {} where t = {} was expected (one line per t = 0, 1, 2, ... in order)",
                line.t, self.next_t
            )));
        }
        for (name, v, d, dname) in [("x", &line.x, self.dx, "dx"), ("y", &line.y, self.dy, "dy")] {
            if v.len() != d {
                return Err(self.error(format!(
                    "{name} has length {}, expected {d} ({dname})",
                    v.len()
                )));
            }
            if let Some(i) = v.iter().position(|a| !a.is_finite()) {
                return Err(self.error(format!("{name}[{i}] is not finite ({})", v[i])));
            }
        }
        Ok(())
    }
}

/// A value of the wrong type at `column` (serde's `why`), in the format's words: the field,
/// and what it must be.
fn wrong_type(text: &str, column: usize, why: &str) -> String {
    let field = field_at(text, column);
    let why = why
        .replace("expected u64", "expected a whole number >= 0")
        .replace("expected f64", "expected a number");
    if field == "t" {
        format!("t: {why} (t is the iterate's index: 0, 1, 2, ... written without a decimal point)")
    } else {
        format!("{field}: {why}")
    }
}

/// The field of an iterate line at 1-based `column`: `t`, `x[i]` or `y[i]` (`the line` when
/// no key precedes it).
fn field_at(text: &str, column: usize) -> String {
    let end = text
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(text.len(), |(i, _)| i);
    let prefix = &text[..end];
    let key = ["t", "x", "y"]
        .into_iter()
        .filter_map(|k| prefix.rfind(&format!("\"{k}\"")).map(|at| (at, k)))
        .max();
    match key {
        None => "the line".into(),
        Some((_, "t")) => "t".into(),
        Some((at, k)) => match prefix[at..].find('[') {
            Some(open) => format!("{k}[{}]", prefix[at + open..].matches(',').count()),
            None => k.into(),
        },
    }
}

/// Writes iterates in the format of the module doc (numbers in the shortest form that reads
/// back to the same f64).
pub struct IterateWriter<W: Write> {
    out: W,
}

impl<W: Write> IterateWriter<W> {
    /// A writer into `out` (wrap a file in a `BufWriter`).
    pub fn new(out: W) -> Self {
        IterateWriter { out }
    }

    /// Writes the line of iterate `t`.
    pub fn write(&mut self, t: u64, x: &[f64], y: &[f64]) -> std::io::Result<()> {
        let mut line = String::with_capacity(24 * (x.len() + y.len()) + 32);
        line.push_str(&format!("{{\"t\": {t}, \"x\": "));
        push_array(&mut line, x);
        line.push_str(", \"y\": ");
        push_array(&mut line, y);
        line.push_str("}\n");
        self.out.write_all(line.as_bytes())
    }

    /// Flushes and returns the inner writer.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// `[a, b, ...]` with each number as serde_json writes it (non-finite numbers as `null`,
/// which the reader refuses).
fn push_array(s: &mut String, v: &[f64]) {
    s.push('[');
    for (i, a) in v.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&serde_json::to_string(a).unwrap_or_else(|_| "null".into()));
    }
    s.push(']');
}
