//! The journal of finished jobs (issue 17): what `verify`, `check`, `experiment` and `tighten`
//! have finished survives SIGKILL, a crash or a power cut, and `--resume DIR` skips it.
//!
//! * **Where**: beside the command's record, its path with `.journal` appended
//!   ([`journal_path`]: `DIR/verify.json.journal`, `CHECK.json.journal`,
//!   `DIR/experiment.json.journal`, `DIR/tighten.json.journal`, `DIR/manifest.json.journal`
//!   of `export --write-iterates`).
//! * **When**: a finished job is appended as one JSON line as soon as it finishes, so killing
//!   the process loses only the jobs in flight; the file is flushed to disk (`fsync`) at most
//!   every `--checkpoint-every` seconds (default [`crate::resume::CHECKPOINT_EVERY_S`]), so a
//!   power cut loses at most that interval. Once the command has written its record (complete,
//!   or interrupted by a first signal), the journal is removed: the record holds everything.
//! * **Format** (`saddlefw-journal` v2): every line is `SUM REST`, `SUM` the first 16 hex
//!   digits of the SHA-256 of `REST` ([`crate::fingerprint::short_hash`]), so an edited line is
//!   refused with its number. Line 1's `REST` is the [`Header`] (the command, the build, the
//!   job-defining arguments, the inputs' content hashes ([`crate::fingerprint`]), the number of
//!   jobs); every further line's is `FP JOB`: the header's fingerprint ([`Header::fingerprint`],
//!   so a line from another run's journal is refused) and one finished job in the command's
//!   own JSON form. A last line without its newline was cut by the kill and is ignored; any
//!   other malformed line is an error naming the journal, the line and what to do.
//! * **Owner**: at its first finished job a run writes its journal to a temporary file and
//!   renames it into place, so two runs writing the same directory never interleave lines (the
//!   later one owns the path), and a run refused or failing before any job leaves an earlier
//!   journal as it was. A resumed run's journal starts with the jobs it reuses.
//!
//! ```
//! use saddlefw::journal::{parse, Header, Journal};
//! let dir = std::env::temp_dir().join(format!("saddlefw-doc-journal-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("verify.json.journal");
//! use saddlefw::fingerprint::Inputs;
//! let header = Header::new("verify", vec![("--tier".into(), "quick".into())], Inputs::default(), 3);
//! let j = Journal::create(&path, &header, &[1u32], 60.0).unwrap();
//! j.append(&2u32);
//! let text = std::fs::read_to_string(&path).unwrap();
//! // a line cut short by SIGKILL is not a job
//! let (h, jobs): (Header, Vec<u32>) = parse("j", &(text.clone() + "[3, 4")).unwrap();
//! assert_eq!((h.total, jobs), (3, vec![1, 2]));
//! use saddlefw::resume::Identity;
//! let work = |tier: &str| Identity::current(vec![("--tier", tier.into())], Inputs::default());
//! assert!(h.check_command("j", "verify").is_ok() && work("quick").accept("j", &h.identity()).is_ok());
//! let e = work("full").accept("j", &h.identity()).unwrap_err();
//! assert!(e.to_string().contains("recorded with --tier quick, this run has full"), "{e}");
//! // a complete line that is not a job is an error naming the line
//! let e = parse::<u32>("j", &(text.clone() + "oops\n")).unwrap_err();
//! assert!(e.to_string().starts_with("j: line 4:"), "{e}");
//! // an edited job is refused with its line number
//! let edited = text.replacen(" 2\n", " 7\n", 1);
//! let e = parse::<u32>("j", &edited).unwrap_err().to_string();
//! assert!(e.starts_with("j: line 3: checksum mismatch"), "{e}");
//! j.remove();
//! assert!(!path.exists());
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use crate::files::JsonTop;
use crate::{Error, Result};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The format name on a journal's first line.
pub const FORMAT: &str = "saddlefw-journal";
/// The format version this build writes and reads (2: checksums, fingerprints and inputs).
pub const VERSION: u32 = 2;

/// The journal of the record `out`: the same path with `.journal` appended.
pub fn journal_path(out: &Path) -> PathBuf {
    crate::files::with_suffix(out, ".journal")
}

/// The first line of a journal: which work it belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// `verify`, `check`, `experiment` or `tighten`.
    pub command: String,
    /// The build that writes it ([`crate::build_info::Build`]).
    pub build: String,
    /// The job-defining arguments, `(name, value)`, in the command's order.
    pub arguments: Vec<(String, String)>,
    /// The content hashes of the run's inputs ([`crate::fingerprint`]).
    #[serde(default)]
    pub inputs: crate::fingerprint::Inputs,
    /// Jobs of the whole command.
    pub total: usize,
}

impl Header {
    /// The header of `command` run by this build with `arguments` and `inputs`, `total` jobs.
    pub fn new(
        command: &str,
        arguments: Vec<(String, String)>,
        inputs: crate::fingerprint::Inputs,
        total: usize,
    ) -> Header {
        Header {
            format: FORMAT.into(),
            version: VERSION,
            command: command.into(),
            build: crate::build_info::Build::current().to_string(),
            arguments,
            inputs,
            total,
        }
    }

    /// The run's fingerprint: the hash of the header (build, arguments, inputs), carried by
    /// every job line.
    pub fn fingerprint(&self) -> String {
        crate::fingerprint::short_hash(serde_json::to_string(self).expect("serialises").as_bytes())
    }

    /// The work the journal belongs to.
    pub fn identity(&self) -> crate::resume::Identity {
        crate::resume::Identity {
            build: self.build.clone(),
            arguments: self.arguments.clone(),
            inputs: self.inputs.clone(),
        }
    }

    /// Refuses the journal `input` unless it is of `command`.
    pub fn check_command(&self, input: &str, command: &str) -> Result<()> {
        if self.command == command {
            return Ok(());
        }
        Err(Error::input(
            input,
            "--resume",
            format!("the journal of `{}`, not of `{command}`", self.command),
        ))
    }
}

/// What to do about a refused line `n` (1: the header).
fn way_on(n: usize) -> String {
    if n <= 1 {
        return "delete the journal to resume from the record beside it, or run without --resume"
            .into();
    }
    format!("journals are written by saddlefw only: delete line {n} and the lines after it to run those jobs again, or run without --resume")
}

/// The content of a line `SUM REST` once its checksum holds (`n` its number, for errors).
fn checked(input: &str, n: usize, line: &str) -> Result<String> {
    let at = format!("line {n}");
    let (sum, rest) = line.split_once(' ').unwrap_or(("", line));
    if sum.len() != 16 || !sum.bytes().all(|b| b.is_ascii_hexdigit()) {
        let what = if n == 1 {
            "a header".to_string()
        } else {
            "a finished job".to_string()
        };
        return Err(Error::input(
            input,
            at,
            format!(
                "not {what} (no checksum: not a saddlefw-journal v{VERSION} line); {}",
                way_on(n)
            ),
        ));
    }
    if crate::fingerprint::short_hash(rest.as_bytes()) != sum {
        return Err(Error::input(
            input,
            at,
            format!("checksum mismatch: the line was edited; {}", way_on(n)),
        ));
    }
    Ok(rest.to_string())
}

/// Parses the text of a journal (`input` names it in errors): its header and its finished jobs
/// (a last line without its newline is dropped: the kill cut it). Every line's checksum and
/// every job's fingerprint must hold.
pub fn parse<T: DeserializeOwned>(input: &str, text: &str) -> Result<(Header, Vec<T>)> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    // the part after the last newline: empty, or a line the kill cut short
    lines.pop();
    let first = lines.first().ok_or_else(|| {
        Error::input(
            input,
            "line 1",
            format!("no header line (an empty journal); {}", way_on(1)),
        )
    })?;
    let at = |n: usize| format!("line {n}");
    let version = |v: &serde_json::Value| v.get("version").and_then(|v| v.as_u64());
    if let Ok(old) = serde_json::from_str::<serde_json::Value>(first) {
        // a journal of an older build (v1: no checksums)
        return Err(Error::input(
            input,
            at(1),
            match version(&old) {
                Some(v) => format!(
                    "a saddlefw-journal version {v}: this build reads version {VERSION}; {}",
                    way_on(1)
                ),
                None => format!("not a saddlefw-journal header; {}", way_on(1)),
            },
        ));
    }
    let first = checked(input, 1, first)?;
    let header: Header = crate::files::parse_json(input, &first, JsonTop::Object)
        .map_err(|e| Error::input(input, at(1), strip(input, &e)))?;
    if header.format != FORMAT || header.version != VERSION {
        return Err(Error::input(
            input,
            at(1),
            format!(
                "format {:?} version {}: this build reads {FORMAT} version {VERSION}; {}",
                header.format,
                header.version,
                way_on(1)
            ),
        ));
    }
    let fingerprint = header.fingerprint();
    let mut jobs = Vec::with_capacity(lines.len() - 1);
    for (i, line) in lines.iter().enumerate().skip(1) {
        let n = i + 1;
        let rest = checked(input, n, line)?;
        let (fp, job) = rest.split_once(' ').unwrap_or(("", &rest));
        if fp != fingerprint {
            return Err(Error::input(
                input,
                at(n),
                format!(
                    "a job of another run (fingerprint {fp:?}, the header's {fingerprint}); {}",
                    way_on(n)
                ),
            ));
        }
        let job = serde_json::from_str(job).map_err(|e| {
            Error::input(
                input,
                at(n),
                format!("not a finished job: {e}; {}", way_on(n)),
            )
        })?;
        jobs.push(job);
    }
    Ok((header, jobs))
}

/// The reason of an error of [`crate::files::parse_json`] without its input's name.
fn strip(input: &str, e: &Error) -> String {
    let s = e.to_string();
    s.strip_prefix(&format!("{input}: "))
        .unwrap_or(&s)
        .to_string()
}

/// Reads the journal at `path`: `None` when there is none.
pub fn read<T: DeserializeOwned>(path: &Path) -> Result<Option<(Header, Vec<T>)>> {
    if !path.exists() {
        return Ok(None);
    }
    let text = crate::files::read_text(path)?;
    parse(&path.display().to_string(), &text).map(Some)
}

/// A run's journal (shared by worker threads: appends take a lock). The file is written at the
/// first finished job, so a run that is refused or fails before any job leaves an earlier
/// journal as it was.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    /// The header's fingerprint, written on every job line.
    fingerprint: String,
    state: Mutex<State>,
    every: Duration,
}

#[derive(Debug)]
struct State {
    /// The header and the carried jobs, until the file is written.
    start: Option<String>,
    /// None before the first append, and once an append failed (the command goes on).
    file: Option<std::fs::File>,
    last_sync: Instant,
}

impl Journal {
    /// The journal at `path` with `header` and the jobs `carried` over from the record being
    /// resumed; synced to disk at most every `every_s` seconds. Nothing is written until the
    /// first [`Journal::append`]: then a temporary file with the header, the carried jobs and
    /// that job is renamed into place (replacing the journal being resumed).
    pub fn create<T: Serialize>(
        path: &Path,
        header: &Header,
        carried: &[T],
        every_s: f64,
    ) -> Result<Journal> {
        let fingerprint = header.fingerprint();
        let mut start = line(None, header);
        for job in carried {
            start.push_str(&line(Some(&fingerprint), job));
        }
        Ok(Journal {
            path: path.to_path_buf(),
            fingerprint,
            state: Mutex::new(State {
                start: Some(start),
                file: None,
                last_sync: Instant::now(),
            }),
            every: Duration::from_secs_f64(every_s.clamp(1e-3, 1e9)),
        })
    }

    /// Writes the journal's file with `text` (its start and the first job): a new temporary
    /// file renamed into place ([`crate::files`]' temporaries, removed on a failure or an
    /// interrupting signal).
    fn open(&self, text: &str) -> std::io::Result<std::fs::File> {
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let (tmp, mut file) = crate::files::TempFile::beside(&self.path)?;
        let written = file
            .write_all(text.as_bytes())
            .and_then(|_| file.sync_data())
            .and_then(|_| std::fs::rename(&tmp.path, &self.path));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp.path);
        }
        written.map(|_| file)
    }

    /// Appends one finished job. A failing write (a full disk) is reported once on stderr and
    /// ends the journal; the command goes on (its record is written at the end as always).
    pub fn append<T: Serialize>(&self, job: &T) {
        let text = line(Some(&self.fingerprint), job);
        let mut guard = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let State {
            start,
            file,
            last_sync,
        } = &mut *guard;
        let result = match (start.take(), file.as_mut()) {
            (Some(start), _) => self.open(&(start + &text)).map(|f| {
                *file = Some(f);
                *last_sync = Instant::now();
            }),
            (None, Some(f)) => f.write_all(text.as_bytes()).and_then(|_| {
                if last_sync.elapsed() >= self.every {
                    *last_sync = Instant::now();
                    f.sync_data()
                } else {
                    Ok(())
                }
            }),
            (None, None) => return,
        };
        if let Err(e) = result {
            *file = None;
            let _ = writeln!(
                std::io::stderr().lock(),
                "saddlefw: warning: {}: cannot append a finished job ({e}); going on without the journal (a kill now loses the jobs finished)",
                self.path.display()
            );
        }
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Removes the journal, this run's or the one it resumed (the record has been written).
    pub fn remove(&self) {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        s.file = None;
        s.start = None;
        let _ = std::fs::remove_file(&self.path);
    }
}

/// One journal line `SUM REST\n`: `REST` is `v`'s JSON, after the run's `fingerprint` on a job
/// line.
fn line<T: Serialize>(fingerprint: Option<&str>, v: &T) -> String {
    let json = serde_json::to_string(v).expect("journal entries serialise");
    let rest = match fingerprint {
        Some(fp) => format!("{fp} {json}"),
        None => json,
    };
    format!(
        "{} {rest}\n",
        crate::fingerprint::short_hash(rest.as_bytes())
    )
}
