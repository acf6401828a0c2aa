//! Shards of a long command (`verify --shard I/N`, `check --shard I/N`) and their merge: the
//! one set of rules by which `saddlefw merge` accepts the results of the shards of one run
//! ([`gather`]).
//!
//! The job list of a run is sorted, so it is the same on every machine; shard `I` of `N` takes
//! the jobs at positions `p` with `p mod N = I - 1` ([`Shard::takes`]). A merge takes every
//! shard `1..=N` exactly once ([`check_labels`]), each finished (not interrupted), of the same
//! build, job-defining arguments and inputs as the first; every result belongs to a job of
//! its own shard, none comes twice and none is missing.
//!
//! ```
//! use saddlefw::ledger::shard::{gather, Part, Shard};
//! use saddlefw::resume::Identity;
//! let part = |i: usize, results: Vec<usize>| Part {
//!     name: format!("s{i}"),
//!     shard: Shard { index: i, count: 2 },
//!     identity: Identity::current(vec![("--n", "4".into())], Default::default()),
//!     interrupted: None,
//!     results,
//! };
//! let key = |r: &usize| *r;
//! let all = gather("check", vec![part(1, vec![0, 2]), part(2, vec![1, 3])], key, |&k| Some(k), 0..4, |k| format!("job {k}"));
//! assert_eq!(all.unwrap().into_keys().collect::<Vec<_>>(), vec![0, 1, 2, 3]);
//! let e = gather("check", vec![part(1, vec![0]), part(2, vec![1, 3])], key, |&k| Some(k), 0..4, |k| format!("job {k}"));
//! assert!(e.unwrap_err().to_string().contains("job 2 is in no shard output"));
//! let e = gather("check", vec![part(1, vec![0, 2, 1]), part(2, vec![3])], key, |&k| Some(k), 0..4, |k| format!("job {k}"));
//! assert!(e.unwrap_err().to_string().contains("s1: job 1: not a job of shard 1/2"));
//! let s: Shard = "2/3".parse().unwrap();
//! assert_eq!((s.index, s.count), (2, 3));
//! assert!(s.takes(1) && !s.takes(0) && s.takes(4));
//! assert!("0/3".parse::<Shard>().is_err() && "4/3".parse::<Shard>().is_err());
//! ```

use crate::resume::{Identity, Interruption};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

/// Shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Whether the job at `position` of the sorted job list belongs to this shard.
    pub fn takes(&self, position: usize) -> bool {
        position % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let bad = |why: &str| {
            Error::invalid(
                "--shard",
                format!("{s:?}: {why} (expected I/N with 1 <= I <= N)"),
            )
        };
        let (i, n) = s.split_once('/').ok_or_else(|| bad("no '/'"))?;
        let index: usize = i
            .trim()
            .parse()
            .map_err(|_| bad("I is not a whole number"))?;
        let count: usize = n
            .trim()
            .parse()
            .map_err(|_| bad("N is not a whole number"))?;
        if count == 0 || index == 0 || index > count {
            return Err(bad("out of range"));
        }
        Ok(Shard { index, count })
    }
}

/// Keeps the items of a sorted job list that belong to `shard` (all of them for `None`).
pub fn select<T>(jobs: Vec<T>, shard: Option<Shard>) -> Vec<T> {
    match shard {
        None => jobs,
        Some(s) => jobs
            .into_iter()
            .enumerate()
            .filter(|(p, _)| s.takes(*p))
            .map(|(_, j)| j)
            .collect(),
    }
}

/// Checks the labels of a set of shard outputs: all of one split into N (the first label's),
/// each index in `1..=N` exactly once. Returns N. The labels come from files, so N is never
/// used to allocate.
pub fn check_labels(labels: &[Shard]) -> Result<usize> {
    let count = labels
        .first()
        .ok_or_else(|| Error::invalid("merge", "no shard outputs given"))?
        .count;
    let mut seen = BTreeSet::new();
    for s in labels {
        if s.count != count || s.index == 0 || s.index > s.count {
            return Err(Error::invalid(
                "merge",
                format!("shard {s} does not belong to a split into {count}"),
            ));
        }
        if !seen.insert(s.index) {
            return Err(Error::invalid("merge", format!("shard {s} given twice")));
        }
    }
    if seen.len() != count {
        // the first index not given (at most labels.len() + 1 candidates)
        let missing = (1..=count).find(|i| !seen.contains(i)).unwrap_or(count);
        return Err(Error::invalid(
            "merge",
            format!("shard {missing}/{count} is missing"),
        ));
    }
    Ok(count)
}

/// One shard output as `merge` reads it.
#[derive(Debug, Clone)]
pub struct Part<R> {
    /// The file it was read from (for errors).
    pub name: String,
    /// Its label.
    pub shard: Shard,
    /// The work it says it did (its `--shard` argument is not compared).
    pub identity: Identity,
    /// Set when a signal stopped it.
    pub interrupted: Option<Interruption>,
    /// Its results.
    pub results: Vec<R>,
}

impl<R> Part<R> {
    /// Refuses an interrupted shard (saying how to finish it with `command`), and one of
    /// another build, other job-defining arguments or other inputs than `first`.
    fn check(&self, command: &str, first: &Part<R>) -> Result<()> {
        let (name, s) = (self.name.as_str(), self.shard);
        if let Some(i) = &self.interrupted {
            return Err(Error::input(
                name,
                "interrupted",
                format!("shard {s} stopped by {} after {} of {} jobs: finish it with `saddlefw {command} --shard {s} --resume DIR` first", i.signal, i.done, i.total),
            ));
        }
        let (now, was) = (&self.identity, &first.identity);
        if now.build != was.build {
            return Err(Error::input(
                name,
                "build",
                format!(
                    "shard {s} was written by another build ({}) than the first ({})",
                    now.build, was.build
                ),
            ));
        }
        let other = |n: &str| was.arguments.iter().find(|(m, _)| m == n).map(|(_, v)| v);
        for (n, v) in now.arguments.iter().filter(|(n, _)| n != "--shard") {
            if other(n) != Some(v) {
                let v0 = other(n).map_or("(none)", String::as_str);
                return Err(Error::input(
                    name,
                    "settings",
                    format!(
                        "shard {s} was run with other settings ({n} {v}; the first shard's: {v0})"
                    ),
                ));
            }
        }
        now.inputs.check(name, "merge", &was.inputs)
    }
}

/// The results of the shards of one run of `command`, by key (`key(result)`), once every
/// rule of the module holds: `position(key)` is the job's position in the job list (`None`:
/// not a job of this run), `expected` every key the run has, `describe(key)` names one in
/// errors.
pub fn gather<K: Ord + Clone, R>(
    command: &str,
    parts: Vec<Part<R>>,
    key: impl Fn(&R) -> K,
    position: impl Fn(&K) -> Option<usize>,
    expected: impl IntoIterator<Item = K>,
    describe: impl Fn(&K) -> String,
) -> Result<BTreeMap<K, R>> {
    let labels: Vec<Shard> = parts.iter().map(|p| p.shard).collect();
    check_labels(&labels)?;
    for p in &parts {
        p.check(command, &parts[0])?;
    }
    let mut all = BTreeMap::new();
    for p in parts {
        let s = p.shard;
        for r in p.results {
            let k = key(&r);
            let why = match position(&k) {
                None => Some("not a job of this run".to_string()),
                Some(at) if !s.takes(at) => Some(format!("job {at} belongs to another shard")),
                Some(_) if all.contains_key(&k) => Some("given twice".to_string()),
                Some(_) => None,
            };
            if let Some(why) = why {
                return Err(Error::input(
                    &p.name,
                    describe(&k),
                    format!("not a job of shard {s} ({why})"),
                ));
            }
            all.insert(k, r);
        }
    }
    if let Some(k) = expected.into_iter().find(|k| !all.contains_key(k)) {
        return Err(Error::invalid(
            "merge",
            format!(
                "{} is in no shard output (a truncated or edited file?)",
                describe(&k)
            ),
        ));
    }
    Ok(all)
}
