//! THE byte-mutation engine of the parser fuzz tests (tests/fuzz.rs and the LIBSVM tests in
//! tests/data.rs): proptest draws a list of [`Mutation`]s and [`mutate`] applies them to a
//! valid seed input, so every case is a near-valid input that reaches deep into a parser and
//! shrinks to a short list of edits when it fails.
//!
//! Case counts: [`cases`] reads `SADDLEFW_FUZZ_CASES` (default [`DEFAULT_CASES`], small so
//! `cargo test` stays fast); the full campaign is `SADDLEFW_FUZZ_CASES=100000` (docs/fuzzing.md).

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, RngSeed, TestCaseError, TestRunner};
use std::cell::Cell;
use std::time::Instant;

/// Cases per parser in a plain `cargo test`.
pub const DEFAULT_CASES: u32 = 2_000;

/// The number of cases per parser: `SADDLEFW_FUZZ_CASES` or [`DEFAULT_CASES`].
pub fn cases() -> u32 {
    std::env::var("SADDLEFW_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_CASES)
}

/// Proptest configuration of a fuzz test: `cases` cases, failures persisted in
/// `fixtures/proptest-regressions/<file>` (committed: a found crash is replayed first by every
/// later run), a seed fixed per file unless `PROPTEST_RNG_SEED` is set, no shrinking beyond
/// a bounded number of steps.
pub fn config(cases: u32, file: &str) -> Config {
    let path = format!(
        "{}/fixtures/proptest-regressions/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let default = Config::default();
    let rng_seed = if std::env::var("PROPTEST_RNG_SEED").is_ok() {
        default.rng_seed
    } else {
        RngSeed::Fixed(file.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        }))
    };
    Config {
        cases,
        rng_seed,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(Box::leak(
            path.into_boxed_str(),
        )))),
        max_shrink_iters: 4_000,
        ..default
    }
}

/// One edit of a byte string (positions are taken modulo the current length).
#[derive(Debug, Clone)]
pub enum Mutation {
    /// Overwrite the byte at a position.
    Replace(usize, u8),
    /// Insert a byte before a position.
    Insert(usize, u8),
    /// Delete the byte at a position.
    Delete(usize),
    /// Duplicate a run of up to `len` bytes in place.
    Duplicate(usize, usize),
    /// Insert one of the dictionary's tokens (keywords, extreme numbers) before a position.
    Token(usize, usize),
    /// Truncate at a position.
    Truncate(usize),
    /// Replace the number at or after a position (a maximal run of `0-9 . e E + -`) with one of
    /// [`NUMBERS`]: keeps the syntax valid and moves the value to an edge.
    Number(usize, usize),
}

/// Replacement numbers: zero, signs, extremes, overflow, subnormals, integers beyond u32/u64.
pub const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "2",
    "3",
    "0.5",
    "-7.5e-3",
    "100",
    "1000000",
    "1e308",
    "-1e308",
    "1e999",
    "1e-320",
    "4294967297",
    "18446744073709551616",
    "1.7976931348623157e308",
];

/// Tokens every parser is fed: extreme and non-finite numbers, signs, separators, keywords.
pub const COMMON_TOKENS: &[&str] = &[
    "0",
    "-0",
    "1e999",
    "-1e999",
    "1e-400",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "Infinity",
    "18446744073709551616",
    "-1",
    "4294967296",
    "9999999999",
    "0.5",
    "1e308",
    "null",
    "true",
    "\u{0}",
    "\u{feff}",
    "é",
    "\\u0000",
    "\"",
    ",",
    ":",
    "=",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
];

/// A byte from `alphabet` (three times in four) or any byte.
pub fn byte(alphabet: &'static [u8]) -> impl Strategy<Value = u8> {
    prop_oneof![
        3 => prop::sample::select(alphabet.to_vec()),
        1 => any::<u8>(),
    ]
}

/// A single mutation with bytes biased to `alphabet`.
pub fn mutation(alphabet: &'static [u8]) -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), byte(alphabet)).prop_map(|(i, b)| Mutation::Replace(i, b)),
        3 => (any::<usize>(), byte(alphabet)).prop_map(|(i, b)| Mutation::Insert(i, b)),
        3 => any::<usize>().prop_map(Mutation::Delete),
        2 => (any::<usize>(), 1usize..12).prop_map(|(i, l)| Mutation::Duplicate(i, l)),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(i, t)| Mutation::Token(i, t)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
        4 => (any::<usize>(), any::<usize>()).prop_map(|(i, t)| Mutation::Number(i, t)),
    ]
}

/// Between 1 and `max` mutations, mostly one or two (a near-valid input goes deeper).
pub fn mutations(alphabet: &'static [u8], max: usize) -> impl Strategy<Value = Vec<Mutation>> {
    let max = max.max(1);
    prop_oneof![
        4 => prop::collection::vec(mutation(alphabet), 1..=2.min(max)),
        2 => prop::collection::vec(mutation(alphabet), 1..=(max / 2).max(1)),
        1 => prop::collection::vec(mutation(alphabet), 1..=max),
    ]
}

fn is_number_byte(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-')
}

/// Applies `muts` to `s` in order, with the tokens `tokens` for [`Mutation::Token`]
/// (plus [`COMMON_TOKENS`]).
pub fn mutate_with(mut s: Vec<u8>, muts: &[Mutation], tokens: &[&str]) -> Vec<u8> {
    for m in muts {
        let n = s.len();
        match *m {
            Mutation::Replace(i, b) if n > 0 => s[i % n] = b,
            Mutation::Insert(i, b) => s.insert(i % (n + 1), b),
            Mutation::Delete(i) if n > 0 => {
                s.remove(i % n);
            }
            Mutation::Duplicate(i, l) if n > 0 => {
                let a = i % n;
                let chunk = s[a..(a + l).min(n)].to_vec();
                s.splice(a..a, chunk);
            }
            Mutation::Token(i, t) => {
                let all = tokens.len() + COMMON_TOKENS.len();
                let k = t % all;
                let tok = if k < tokens.len() {
                    tokens[k]
                } else {
                    COMMON_TOKENS[k - tokens.len()]
                };
                let at = i % (n + 1);
                s.splice(at..at, tok.bytes());
            }
            Mutation::Truncate(i) if n > 0 => s.truncate(i % n),
            Mutation::Number(i, t) if n > 0 => {
                let from = i % n;
                if let Some(a) = (from..n).chain(0..from).find(|&k| s[k].is_ascii_digit()) {
                    let mut lo = a;
                    while lo > 0 && is_number_byte(s[lo - 1]) {
                        lo -= 1;
                    }
                    let mut hi = a;
                    while hi < n && is_number_byte(s[hi]) {
                        hi += 1;
                    }
                    s.splice(lo..hi, NUMBERS[t % NUMBERS.len()].bytes());
                }
            }
            _ => {}
        }
    }
    s
}

/// Applies `muts` with the common tokens only.
pub fn mutate(s: Vec<u8>, muts: &[Mutation]) -> Vec<u8> {
    mutate_with(s, muts, &[])
}

/// Bytes as text for a `&str` parser: valid UTF-8 is kept, invalid sequences become U+FFFD
/// (what a user's file read with `read_to_string` would fail on is tested separately).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What a parser did with an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Accepted (and the accepted value passed the parser's contract checks).
    Accepted,
    /// Rejected with a well-formed input error.
    Rejected,
}

/// A fuzz campaign of one parser: seeds, mutation alphabet and tokens, sizes.
pub struct Campaign {
    /// Name printed with the statistics (and the regression file `fuzz-<name>.txt`).
    pub name: &'static str,
    /// Valid inputs the mutations start from (chosen uniformly).
    pub seeds: Vec<Vec<u8>>,
    /// Bytes inserted and replaced three times in four.
    pub alphabet: &'static [u8],
    /// Parser-specific tokens (added to [`COMMON_TOKENS`]).
    pub tokens: &'static [&'static str],
    /// At most this many mutations per input.
    pub max_mutations: usize,
    /// Inputs to try.
    pub cases: u32,
}

/// What a campaign saw.
#[derive(Debug, Clone, Copy)]
pub struct Stats {
    pub inputs: usize,
    pub accepted: usize,
    pub rejected: usize,
    pub seconds: f64,
}

impl Campaign {
    /// A campaign of [`cases`] inputs with at most 12 mutations each.
    pub fn new(name: &'static str, seeds: Vec<Vec<u8>>, alphabet: &'static [u8]) -> Self {
        Campaign {
            name,
            seeds,
            alphabet,
            tokens: &[],
            max_mutations: 12,
            cases: cases(),
        }
    }

    /// Adds a copy of every seed that starts with a UTF-8 byte-order mark (JSON readers skip
    /// one: `files::json_body`), so the mutations also reach the parsers through that path.
    pub fn with_bom_seeds(mut self) -> Self {
        let bom: Vec<Vec<u8>> = self
            .seeds
            .iter()
            .map(|s| [&b"\xef\xbb\xbf"[..], s].concat())
            .collect();
        self.seeds.extend(bom);
        self
    }

    /// Runs `check` on every mutated input (panics inside `check` are failures, shrunk to a
    /// minimal list of edits and persisted in `fixtures/proptest-regressions/fuzz-<name>.txt`),
    /// prints and returns the statistics. Every seed must be accepted (the negative control
    /// that the mutations start from valid inputs), and the campaign must reach both outcomes.
    pub fn run(&self, check: impl Fn(&[u8]) -> Outcome) -> Stats {
        assert!(!self.seeds.is_empty());
        for (i, s) in self.seeds.iter().enumerate() {
            assert_eq!(
                check(s),
                Outcome::Accepted,
                "{}: seed {i} is rejected",
                self.name
            );
        }
        let (accepted, rejected) = (Cell::new(0usize), Cell::new(0usize));
        let slowest = std::cell::RefCell::new((0.0f64, Vec::new()));
        let start = Instant::now();
        let mut runner = TestRunner::new(config(self.cases, &format!("fuzz-{}.txt", self.name)));
        let strategy = (
            0..self.seeds.len(),
            mutations(self.alphabet, self.max_mutations),
        );
        let result = runner.run(&strategy, |(seed, muts)| {
            let input = mutate_with(self.seeds[seed].clone(), &muts, self.tokens);
            let clock = Instant::now();
            match check(&input) {
                Outcome::Accepted => accepted.set(accepted.get() + 1),
                Outcome::Rejected => rejected.set(rejected.get() + 1),
            }
            let dt = clock.elapsed().as_secs_f64();
            if dt > slowest.borrow().0 {
                *slowest.borrow_mut() = (dt, input);
            }
            Ok::<(), TestCaseError>(())
        });
        if let Err(e) = result {
            panic!("fuzz {}: {e}", self.name);
        }
        let stats = Stats {
            inputs: accepted.get() + rejected.get(),
            accepted: accepted.get(),
            rejected: rejected.get(),
            seconds: start.elapsed().as_secs_f64(),
        };
        let (dt, input) = slowest.into_inner();
        eprintln!(
            "fuzz {}: {} inputs ({} accepted, {} rejected) in {:.1} s; slowest {:.1} ms",
            self.name,
            stats.inputs,
            stats.accepted,
            stats.rejected,
            stats.seconds,
            dt * 1e3
        );
        if std::env::var("SADDLEFW_FUZZ_SHOW_SLOWEST").is_ok() {
            eprintln!("slowest input:\n{}", text(&input));
        }
        assert!(
            stats.inputs >= self.cases as usize,
            "{}: {stats:?}",
            self.name
        );
        if self.cases >= 500 {
            assert!(
                stats.accepted > 0 && stats.rejected > 0,
                "{}: {stats:?}",
                self.name
            );
        }
        stats
    }
}
