//! LIBSVM / SVMlight text format reader (plain text or bzip2-compressed).
//!
//! One sample per line: `<label> <index>:<value> <index>:<value> ...`, fields separated by
//! spaces or tabs, LF or CRLF line ends. The label is an integer class id (`+1`, `-1`, `7`; an
//! integer-valued float such as `3.0` is accepted too). Indices are 1-based, strictly ascending
//! integers; features left out are zero. Values are finite decimal numbers. Text after `#` is a
//! comment, and blank (or comment-only) lines are skipped. There is no limit on line length.
//!
//! Every malformed input is an [`crate::Error::Input`] naming the input and the
//! 1-based line number: bad token, index 0, non-integer index, unsorted or duplicate indices,
//! non-finite value, non-integer label, an index beyond a declared feature count, an empty file.
//! The parser never panics (a property test feeds it mutated bytes).
//!
//! Compression is detected by content (the bzip2 magic `BZh`), not by the file name;
//! multi-stream bzip2 files (as written by `pbzip2`) are read completely.
//!
//! ```
//! use saddlefw::data::libsvm::{decompress_if_bzip2, parse_libsvm, LibsvmOptions};
//! // comments and blank lines are skipped; a declared feature count fixes the width
//! let opts = LibsvmOptions { n_features: Some(4) };
//! let d = parse_libsvm(b"# header\n3 1:1 4:2\n\n7 2:0.5\n", "mini.txt", &opts).unwrap();
//! assert_eq!((d.n_samples(), d.n_features(), d.n_classes()), (2, 4, 2));
//! // an index beyond it, or indices out of order, name the input and the line
//! let e = parse_libsvm(b"1 1:1\n1 5:1\n", "mini.txt", &opts).unwrap_err();
//! assert!(e.to_string().starts_with("mini.txt: line 2:"), "{e}");
//! let e = parse_libsvm(b"1 2:1 1:1\n", "u.txt", &LibsvmOptions::default()).unwrap_err();
//! assert!(e.to_string().starts_with("u.txt: line 1:"), "{e}");
//! // plain text passes the bzip2 detection unchanged
//! assert_eq!(decompress_if_bzip2("x", b"1 1:1\n".to_vec()).unwrap(), b"1 1:1\n");
//! ```

use super::csr::Csr;
use super::Dataset;
use crate::{Error, Result};
use std::io::Read;
use std::path::Path;

/// Options of the reader.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LibsvmOptions {
    /// Declared number of features. The matrix gets exactly this many columns and an index
    /// beyond it is an error; `None` takes the largest index seen.
    pub n_features: Option<usize>,
}

/// Reads a LIBSVM file (plain or `.bz2`, detected by content). `path` names the input in errors.
pub fn read_libsvm(path: &Path, opts: &LibsvmOptions) -> Result<Dataset> {
    let name = path.display().to_string();
    let raw = crate::files::read_bytes(path)?;
    let text = decompress_if_bzip2(&name, raw)?;
    parse_libsvm(&text, &name, opts)
}

/// Returns `raw` unchanged, or its decompression when it starts with the bzip2 magic `BZh`.
pub fn decompress_if_bzip2(name: &str, raw: Vec<u8>) -> Result<Vec<u8>> {
    if !raw.starts_with(b"BZh") {
        return Ok(raw);
    }
    let mut out = Vec::with_capacity(raw.len() * 4);
    bzip2::read::MultiBzDecoder::new(raw.as_slice())
        .read_to_end(&mut out)
        .map_err(|e| Error::input(name, "bzip2 stream", format!("cannot decompress: {e}")))?;
    Ok(out)
}

/// Parses LIBSVM text held in memory; `name` identifies the input in error messages.
pub fn parse_libsvm(text: &[u8], name: &str, opts: &LibsvmOptions) -> Result<Dataset> {
    let mut indptr = vec![0usize];
    let mut indices: Vec<u32> = Vec::with_capacity(text.len() / 8);
    let mut values: Vec<f64> = Vec::with_capacity(text.len() / 8);
    let mut raw_labels: Vec<i64> = Vec::new();
    let mut max_index = 0usize;
    let mut lines = 0usize;
    for (ln0, line) in text.split(|&b| b == b'\n').enumerate() {
        let ln = ln0 + 1;
        lines = ln;
        let err = |reason: String| Error::input(name, format!("line {ln}"), reason);
        let line = match line.iter().position(|&b| b == b'#') {
            Some(p) => &line[..p],
            None => line,
        };
        let mut tokens = line
            .split(|&b| b == b' ' || b == b'\t' || b == b'\r')
            .filter(|t| !t.is_empty());
        let Some(label_tok) = tokens.next() else {
            continue;
        };
        raw_labels.push(parse_label(label_tok).map_err(err)?);
        let mut prev = 0usize;
        for tok in tokens {
            let (index, value) = parse_feature(tok).map_err(err)?;
            if index <= prev {
                return Err(err(if index == prev {
                    format!("duplicate index {index} (token `{}`)", show(tok))
                } else {
                    format!(
                        "indices must be strictly ascending: {index} after {prev} (token `{}`)",
                        show(tok)
                    )
                }));
            }
            if let Some(nf) = opts.n_features {
                if index > nf {
                    return Err(err(format!(
                        "index {index} exceeds the declared number of features {nf}"
                    )));
                }
            }
            prev = index;
            indices.push((index - 1) as u32);
            values.push(value);
        }
        max_index = max_index.max(prev);
        indptr.push(indices.len());
    }
    if raw_labels.is_empty() {
        return Err(Error::input(
            name,
            format!("line {}", lines.max(1)),
            "empty file: no samples (only blank or comment lines)",
        ));
    }
    let n_cols = opts.n_features.unwrap_or(max_index);
    let mut classes = raw_labels.clone();
    classes.sort_unstable();
    classes.dedup();
    let labels = raw_labels
        .iter()
        .map(|l| {
            classes
                .binary_search(l)
                .expect("label is among the classes") as u32
        })
        .collect();
    let n_rows = raw_labels.len();
    Ok(Dataset {
        name: name.to_string(),
        features: Csr::from_parts_unchecked(n_rows, n_cols, indptr, indices, values),
        labels,
        classes,
    })
}

/// A token for an error message (lossy UTF-8, shortened).
fn show(tok: &[u8]) -> String {
    let s = String::from_utf8_lossy(tok);
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(40).collect::<String>())
    } else {
        s.into_owned()
    }
}

/// A class id: an integer, optionally signed, or an integer-valued decimal such as `3.0`.
fn parse_label(tok: &[u8]) -> std::result::Result<i64, String> {
    let s = std::str::from_utf8(tok).map_err(|_| format!("label `{}` is not text", show(tok)))?;
    if let Ok(v) = s.parse::<i64>() {
        return Ok(v);
    }
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v.fract() == 0.0 && v.abs() < 9.0e15 => Ok(v as i64),
        Ok(_) => Err(format!(
            "label `{}` is not an integer class id (wrong label type)",
            show(tok)
        )),
        Err(_) => Err(format!(
            "bad label `{}`: expected an integer class id",
            show(tok)
        )),
    }
}

/// An `index:value` pair with a 1-based index (not yet checked against its neighbours).
fn parse_feature(tok: &[u8]) -> std::result::Result<(usize, f64), String> {
    let Some(colon) = tok.iter().position(|&b| b == b':') else {
        return Err(format!(
            "bad token `{}`: expected <index>:<value>",
            show(tok)
        ));
    };
    let (itok, vtok) = (&tok[..colon], &tok[colon + 1..]);
    let index = parse_index(itok).ok_or_else(|| {
        format!(
            "bad token `{}`: index `{}` is not a positive integer",
            show(tok),
            show(itok)
        )
    })?;
    if index == 0 {
        return Err(format!(
            "index 0 in token `{}`: LIBSVM feature indices start at 1",
            show(tok)
        ));
    }
    if index > u32::MAX as usize {
        return Err(format!("index {index} is too large (at most {})", u32::MAX));
    }
    let value = parse_value(vtok).ok_or_else(|| {
        format!(
            "bad token `{}`: value `{}` is not a number",
            show(tok),
            show(vtok)
        )
    })?;
    if !value.is_finite() {
        return Err(format!(
            "value `{}` in token `{}` is not finite",
            show(vtok),
            show(tok)
        ));
    }
    Ok((index, value))
}

/// Unsigned decimal integer, `None` on anything else (empty, sign, dot, overflow).
fn parse_index(tok: &[u8]) -> Option<usize> {
    if tok.is_empty() {
        return None;
    }
    let mut v: usize = 0;
    for &b in tok {
        if !b.is_ascii_digit() {
            return None;
        }
        v = v.checked_mul(10)?.checked_add((b - b'0') as usize)?;
    }
    Some(v)
}

/// A decimal number. Plain digit strings (term counts) take a fast exact path.
fn parse_value(tok: &[u8]) -> Option<f64> {
    if !tok.is_empty() && tok.len() <= 15 && tok.iter().all(u8::is_ascii_digit) {
        let v = tok
            .iter()
            .fold(0u64, |acc, &b| acc * 10 + (b - b'0') as u64);
        return Some(v as f64);
    }
    std::str::from_utf8(tok).ok()?.parse::<f64>().ok()
}
