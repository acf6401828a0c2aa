//! The user's files, in and out: every read, JSON parse and write of a file that a command
//! names goes through this module, so the rules below hold for all of them.
//!
//! * **Operating-system errors** name the path and the operation, in the documented
//!   `INPUT: LOCATION: REASON` form: `/x/RUN.json: write: Permission denied (os error 13)`
//!   ([`read_text`], [`read_bytes`], [`create_dir_all`], [`write_atomic`]).
//! * **JSON inputs** (problem files, theorem tables, rate baselines, hard-instance fixtures,
//!   RUN.json, verify.json and CHECK.json shards, experiment.json) pass through [`json_body`]:
//!   a leading UTF-8 byte-order mark is skipped (editors on Windows write one), an empty file
//!   and a top level of the wrong JSON type are named as such (`top level: expected a JSON
//!   object, found an array`) instead of serde's first type mismatch deep inside.
//!   [`parse_json`] adds serde with [`crate::error::json_error`]'s locations.
//! * **Outputs never replace inputs**: [`check_outputs`] refuses, before any work starts, an
//!   output that is the same file as one of the command's inputs (after symlinks, and hard
//!   links on Unix) or that names a directory where a file is written; the journal and the
//!   `.partial` file beside every output count as outputs, and a temporary file never
//!   replaces an existing file.
//! * **Writes are atomic** ([`write_atomic`]): a temporary file beside the target, then a
//!   rename. Temporary files in flight are registered, so an interrupting signal removes them
//!   ([`exit_removing_temp_files`], called by `crate::interrupt`) instead of leaving
//!   `.NAME.PID.N.tmp` behind.
//!
//! ```
//! use saddlefw::files::{parse_json, JsonTop};
//! let v: Vec<u32> = parse_json("t.json", "\u{feff}[1, 2]", JsonTop::Array).unwrap();
//! assert_eq!(v, [1, 2]);
//! let e = parse_json::<serde_json::Value>("p.json", "[1]", JsonTop::Object).unwrap_err();
//! assert_eq!(e.to_string(), "p.json: top level: expected a JSON object, found an array");
//! ```

use crate::{Error, Result};
use serde::de::DeserializeOwned;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// Reads a whole file as bytes; an error names the path and `read`.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::io(path.display().to_string(), "read", e))
}

/// Reads a whole text file; an error names the path and `read`, and text that is not UTF-8
/// names the byte where it stops being UTF-8.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Error::input(
            path.display().to_string(),
            format!("byte {at}"),
            "not UTF-8 text (saddlefw reads UTF-8)",
        )
    })
}

/// Creates a directory and its missing parents; an error names the directory and
/// `create directory`.
pub fn create_dir_all(dir: &Path) -> Result<()> {
    // an output directory named like a file that exists (`--out exp/manifest.json`): say so,
    // rather than the system's "File exists" or "Not a directory"
    if let Some(file) = dir.ancestors().find(|a| a.is_file()) {
        return Err(Error::input(
            dir.display().to_string(),
            "output directory",
            format!(
                "{} is a file, not a directory: give a directory (the outputs are written inside it)",
                file.display()
            ),
        ));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::io(dir.display().to_string(), "create directory", e))
}

/// The JSON type a file must have at its top level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonTop {
    /// `{ ... }`: every format except the theorem table.
    Object,
    /// `[ ... ]`: the theorem table.
    Array,
}

/// The JSON text of `text` with a leading UTF-8 byte-order mark removed, after checking that
/// it is not empty and that its top-level value is of type `top` (a value that is not JSON
/// at all is left to serde, which names the line and column). `input` names the source.
pub fn json_body<'a>(input: &str, text: &'a str, top: JsonTop) -> Result<&'a str> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let expected = match top {
        JsonTop::Object => "a JSON object",
        JsonTop::Array => "a JSON array",
    };
    let found = match body
        .bytes()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    {
        None => {
            return Err(Error::input(
                input,
                "top level",
                format!("the file is empty (expected {expected})"),
            ))
        }
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b'-' | b'0'..=b'9') => "a number",
        Some(b't' | b'f') => "true or false",
        Some(b'n') => "null",
        Some(_) => return Ok(body),
    };
    let ok = matches!(
        (top, found),
        (JsonTop::Object, "an object") | (JsonTop::Array, "an array")
    );
    if ok {
        Ok(body)
    } else {
        Err(Error::input(
            input,
            "top level",
            format!("expected {expected}, found {found}"),
        ))
    }
}

/// Parses JSON text of top-level type `top` into `T` ([`json_body`], then serde; a serde
/// error becomes [`crate::error::json_error`]'s `line L column C: reason`).
pub fn parse_json<T: DeserializeOwned>(input: &str, text: &str, top: JsonTop) -> Result<T> {
    let body = json_body(input, text, top)?;
    serde_json::from_str(body).map_err(|e| crate::error::json_error(input, &e, None))
}

/// Refuses, before a command starts its work, an output that would replace one of its inputs
/// or that cannot be a file:
/// * an output that is the same file as an input (its path after symlinks, or on Unix the same
///   device and inode, so hard links count too) is an error naming the input, the option and
///   the reason; the input stays untouched;
/// * an output file whose path ends in `/` or is an existing directory names a directory where
///   a file is written.
///
/// `inputs` are the files the command reads (a missing one is skipped: reading it reports
/// it); `option` and `given` are the output option and its value (`--out`, `reports/verify`),
/// `outputs` the files the command writes there (for a directory, each file it writes in
/// it). Shared by every subcommand that writes files.
///
/// ```
/// use saddlefw::files::check_outputs;
/// use std::path::{Path, PathBuf};
/// let dir = std::env::temp_dir().join(format!("saddlefw-doc-out-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let shard = dir.join("CHECK.json");
/// std::fs::write(&shard, "{}").unwrap();
/// let err = check_outputs(&[shard.clone()], "--out", &dir, &[shard.clone()]).unwrap_err();
/// assert!(err.to_string().contains("refusing to overwrite an input"));
/// assert!(check_outputs(&[shard], "--out", &dir, &[dir.join("merged.json")]).is_ok());
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn check_outputs(
    inputs: &[PathBuf],
    option: &str,
    given: &Path,
    outputs: &[PathBuf],
) -> Result<()> {
    let given_shown = given.display().to_string();
    // a directory option (the outputs are inside `given`) naming a file, or a path under one
    if !outputs.iter().any(|o| o == given) {
        if let Some(file) = given.ancestors().find(|a| a.is_file()) {
            return Err(Error::input(
                given_shown,
                option,
                format!(
                    "{} is a file, not a directory: give a directory (the outputs are written inside it)",
                    file.display()
                ),
            ));
        }
    }
    // every name a command writes beside a file: its journal and its checkpoint file
    let outputs: Vec<PathBuf> = outputs
        .iter()
        .flat_map(|o| {
            [
                o.clone(),
                with_suffix(o, ".journal"),
                with_suffix(o, ".partial"),
            ]
        })
        .collect();
    for out in &outputs {
        let shown = out.display().to_string();
        let trailing_slash = shown.ends_with('/') || shown.ends_with(std::path::MAIN_SEPARATOR);
        if trailing_slash || out.is_dir() {
            return Err(Error::input(
                shown,
                option,
                "names a directory, but this option writes a file: add a file name (missing directories are created)",
            ));
        }
        for input in inputs {
            if same_file(input, out) {
                let location = if out.as_path() == given {
                    format!("{option} {given_shown}")
                } else {
                    format!("{option} {given_shown} (writes {shown})")
                };
                return Err(Error::input(
                    input.display().to_string(),
                    location,
                    "the output is this input file: refusing to overwrite an input (choose another output path)",
                ));
            }
        }
    }
    Ok(())
}

/// `path` with `suffix` appended to its file name (`verify.json` -> `verify.json.journal`):
/// the names a command writes beside a record ([`crate::journal::journal_path`],
/// [`crate::resume::checkpoint_path`]), all checked by [`check_outputs`].
pub(crate) fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}

/// The files directly in `dir` (none when it cannot be read): the inputs a command reads from
/// a fixture directory, for [`check_outputs`] (every file, whatever its name: none may be
/// replaced by an output).
pub(crate) fn files_in(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default()
}

/// Whether the output path `out` names the existing file `input`: the same device and inode
/// on Unix when `out` exists (symlinks followed, hard links included), else the same path
/// once `out` is resolved like the system will when the file is written ([`resolve`]).
fn same_file(input: &Path, out: &Path) -> bool {
    let Ok(canonical_input) = std::fs::canonicalize(input) else {
        // an input that does not exist is reported when it is read
        return false;
    };
    #[cfg(unix)]
    if let (Ok(mi), Ok(mo)) = (std::fs::metadata(input), std::fs::metadata(out)) {
        use std::os::unix::fs::MetadataExt;
        if (mi.dev(), mi.ino()) == (mo.dev(), mo.ino()) {
            return true;
        }
    }
    resolve(out).is_some_and(|o| o == canonical_input)
}

/// The absolute path `path` will have once written: component by component, each existing
/// prefix is canonicalised (symlinks followed) and `..` after a missing directory removes it
/// (as `create_dir_all` then makes it a real directory). `None` when the current directory is
/// unknown.
fn resolve(path: &Path) -> Option<PathBuf> {
    use std::path::Component;
    let mut out = std::env::current_dir().ok()?;
    for c in path.components() {
        match c {
            Component::Prefix(_) | Component::RootDir => out.push(c.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(name) => {
                out.push(name);
                if let Ok(real) = std::fs::canonicalize(&out) {
                    out = real;
                }
            }
        }
    }
    Some(out)
}

/// Temporary files being written by [`write_atomic`] (removed on an interrupting signal).
static TEMP_FILES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temp_files() -> MutexGuard<'static, Vec<PathBuf>> {
    // a writer that panicked leaves the list itself intact
    TEMP_FILES.lock().unwrap_or_else(|e| e.into_inner())
}

/// A temporary file of [`write_atomic`] (or a journal's first write), registered while it
/// exists.
pub(crate) struct TempFile {
    pub(crate) path: PathBuf,
}

impl TempFile {
    /// Creates a new temporary file beside `target` (`.NAME.PID.N.tmp`, N counting up past
    /// any existing file: a file is never replaced, even one a killed run left) and registers
    /// it, in one step under the registry's lock: a signal handled in between finds either no
    /// file or a registered one.
    pub(crate) fn beside(target: &Path) -> std::io::Result<(TempFile, std::fs::File)> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let name = target
            .file_name()
            .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut list = temp_files();
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(file) => {
                    list.push(path.clone());
                    return Ok((TempFile { path }, file));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1 << 20 => {}
                Err(e) => return Err(e),
            }
        }
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        temp_files().retain(|p| p != &self.path);
    }
}

/// Removes every temporary file [`write_atomic`] has in flight and exits the process with
/// `code`, holding the registry's lock so that no writer creates another one meanwhile. Called
/// by the signal handler (`crate::interrupt`).
pub fn exit_removing_temp_files(code: i32) -> ! {
    let list = temp_files();
    for p in list.iter() {
        let _ = std::fs::remove_file(p);
    }
    let _ = writeln!(
        std::io::stderr().lock(),
        "saddlefw: stopped at once by {} ({} unfinished file(s) removed; files written before are complete)",
        signal_name(code - 128),
        list.len()
    );
    std::process::exit(code)
}

/// Writes `path` atomically through `write`, which streams into a new temporary file beside it
/// (registered like [`write_atomic`]'s, so a signal removes it); the file is flushed and
/// renamed into place only when `write` succeeds. Errors name the path and `write`/`rename`.
pub(crate) fn write_streamed(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> Result<()> {
    let shown = path.display().to_string();
    let (guard, mut f) = TempFile::beside(path).map_err(|e| Error::io(&shown, "write", e))?;
    let written = write(&mut f).and_then(|_| f.sync_all());
    drop(f);
    let result = written
        .map_err(|e| ("write", e))
        .and_then(|_| std::fs::rename(&guard.path, path).map_err(|e| ("rename", e)));
    if let Err((op, e)) = result {
        let _ = std::fs::remove_file(&guard.path);
        return Err(Error::io(shown, op, e));
    }
    Ok(())
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory is written,
/// flushed to disk and renamed over `path`, so a reader never sees a half-written report.
/// The parent directory is created when missing. The temporary file is removed when writing
/// fails and, in the binary, when SIGINT, SIGTERM or SIGHUP arrives during the write
/// (`crate::interrupt`). Errors name the path and the operation (`create directory`,
/// `write`, `rename`).
pub fn write_atomic(path: impl AsRef<Path>, bytes: &[u8]) -> Result<()> {
    let path = path.as_ref();
    let shown = path.display().to_string();
    if path.file_name().is_none() {
        return Err(Error::input(&shown, "output path", "names no file"));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        create_dir_all(dir)?;
    }
    let (guard, mut f) = TempFile::beside(path).map_err(|e| Error::io(&shown, "write", e))?;
    let written = f.write_all(bytes).and_then(|_| f.sync_all());
    drop(f);
    let result = written
        .map_err(|e| ("write", e))
        .and_then(|_| std::fs::rename(&guard.path, path).map_err(|e| ("rename", e)));
    if let Err((op, e)) = result {
        let _ = std::fs::remove_file(&guard.path);
        return Err(Error::io(shown, op, e));
    }
    Ok(())
}

/// `SIGINT`, `SIGTERM`, `SIGHUP` or `signal N` (kept here so files stays below interrupt).
fn signal_name(signal: i32) -> String {
    match signal {
        1 => "SIGHUP".into(),
        2 => "SIGINT".into(),
        15 => "SIGTERM".into(),
        s => format!("signal {s}"),
    }
}
