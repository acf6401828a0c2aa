//! Scale-out: `verify --shard I/N` + `merge` gives the single-machine report (issue 8), and a
//! bad set of shards is refused (missing, duplicated, or mixed settings).

use saddlefw::theorems::builtin;
use saddlefw::verify::shard::{merge, Shard};
use saddlefw::verify::{self, without_timings, Tier, VerifyOptions, VerifyReport};

fn opts(filter: &str, shard: Option<&str>) -> VerifyOptions {
    let mut o = VerifyOptions::new(Tier::Test).filter(filter);
    o.shard = shard.map(|s| s.parse().unwrap());
    o
}

fn json(r: &VerifyReport) -> serde_json::Value {
    without_timings(&serde_json::from_str(&r.to_json()).unwrap())
}

#[test]
fn merged_shards_equal_the_unsharded_run() {
    // two cases, so jobs of both cases and both entries of each are spread over the shards
    let filter = "/nc-sc";
    let table = builtin();
    let whole = verify::run(&table, &opts(filter, None)).unwrap();
    let shards: Vec<VerifyReport> = ["1/3", "2/3", "3/3"]
        .iter()
        .map(|s| verify::run(&table, &opts(filter, Some(s))).unwrap())
        .collect();
    // every job ran exactly once across the shards
    let runs = |r: &VerifyReport| -> usize { r.entries.iter().map(|e| e.instances.len()).sum() };
    assert_eq!(shards.iter().map(runs).sum::<usize>(), runs(&whole));
    assert!(
        shards.iter().all(|s| runs(s) < runs(&whole)),
        "each shard is a proper part"
    );
    let merged = merge(shards.clone(), &opts(filter, None)).unwrap();
    assert_eq!(
        json(&merged),
        json(&whole),
        "merged shards differ from the unsharded run"
    );

    // negative controls: a missing shard, a duplicated shard, mixed settings
    let err = merge(shards[..2].to_vec(), &opts(filter, None))
        .unwrap_err()
        .to_string();
    assert!(err.contains("3/3 is missing"), "{err}");
    let dup = vec![shards[0].clone(), shards[0].clone(), shards[2].clone()];
    let err = merge(dup, &opts(filter, None)).unwrap_err().to_string();
    assert!(err.contains("given twice"), "{err}");
    let mut other = shards.clone();
    other[1].t_max *= 2;
    let err = merge(other, &opts(filter, None)).unwrap_err().to_string();
    assert!(err.contains("other settings"), "{err}");
    // an unsharded report is not a shard output
    let err = merge(vec![whole], &opts(filter, None))
        .unwrap_err()
        .to_string();
    assert!(err.contains("not a shard output"), "{err}");

    // edited shard files: the runs are checked against the shared job list
    let merge_err = |s: Vec<VerifyReport>| merge(s, &opts(filter, None)).unwrap_err().to_string();
    let with_runs = |s: &VerifyReport| {
        s.entries
            .iter()
            .position(|e| !e.instances.is_empty())
            .unwrap()
    };
    // a run deleted
    let mut cut = shards.clone();
    let i = with_runs(&cut[0]);
    cut[0].entries[i].instances.pop();
    assert!(merge_err(cut).contains("is in no shard output"));
    // a run duplicated
    let mut dup = shards.clone();
    let i = with_runs(&dup[1]);
    let r = dup[1].entries[i].instances[0].clone();
    dup[1].entries[i].instances.push(r);
    assert!(merge_err(dup).contains("given twice"));
    // a run copied into another shard's file
    let mut moved = shards.clone();
    let i = with_runs(&moved[0]);
    let r = moved[0].entries[i].instances[0].clone();
    let id = moved[0].entries[i].id.clone();
    let j = moved[2].entries.iter().position(|e| e.id == id).unwrap();
    moved[2].entries[j].instances.push(r);
    assert!(merge_err(moved).contains("belongs to another shard"));
    // shards relabelled: 2/3 as 3/3 (3/3 then comes twice), and as 0/3 or 2/0
    let mut relabelled = shards.clone();
    relabelled[1].shard = Some(Shard { index: 3, count: 3 });
    assert!(merge_err(relabelled).contains("given twice"));
    for (index, count) in [(0, 3), (2, 0), (4, 3)] {
        let mut bad = shards.clone();
        bad[1].shard = Some(Shard { index, count });
        assert!(merge_err(bad).contains("does not belong to a split"));
    }
    // a split into a huge number of shards is reported missing, not allocated
    let mut huge = shards.clone();
    for s in &mut huge {
        s.shard = Some(Shard {
            index: s.shard.unwrap().index,
            count: usize::MAX,
        });
    }
    assert!(merge_err(huge).contains(&format!("shard 4/{} is missing", usize::MAX)));
}

#[test]
fn shard_spec_parsing() {
    assert_eq!(
        "3/3".parse::<Shard>().unwrap(),
        Shard { index: 3, count: 3 }
    );
    for bad in ["", "1", "0/2", "3/2", "a/2", "1/0", "1/-2"] {
        assert!(bad.parse::<Shard>().is_err(), "{bad:?} accepted");
    }
    // the partition covers every position exactly once
    let shards: Vec<Shard> = (1..=4).map(|i| Shard { index: i, count: 4 }).collect();
    for p in 0..50 {
        assert_eq!(shards.iter().filter(|s| s.takes(p)).count(), 1);
    }
}

// ------------------------------------------------------------------------------------------
// `check --shard I/N` and merging its outputs
// ------------------------------------------------------------------------------------------

use saddlefw::invariants::check::{merge_shards, run_check_shard, CaseOptions, CheckReport};

fn check_json(r: &CheckReport) -> String {
    serde_json::to_string_pretty(r).unwrap()
}

/// The three shards of a small check, as (name, CHECK.json text) pairs.
fn check_shards(cases: usize, seed: u64) -> Vec<(String, String)> {
    (1..=3)
        .map(|i| {
            let s = Shard { index: i, count: 3 };
            let r = run_check_shard(cases, seed, &CaseOptions::default(), 2, Some(s)).unwrap();
            (format!("s{i}/CHECK.json"), check_json(&r))
        })
        .collect()
}

#[test]
fn merged_check_shards_equal_the_unsharded_check() {
    let whole = run_check_shard(7, 3, &CaseOptions::default(), 1, None).unwrap();
    assert!(whole.shard.is_none());
    let shards = check_shards(7, 3);
    // every job ran in exactly one shard, and each shard is a proper part
    let evals = |text: &str| -> usize {
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        v["shard"]["results"].as_array().unwrap().len()
    };
    let per_shard: Vec<usize> = shards.iter().map(|(_, t)| evals(t)).collect();
    let total: usize = serde_json::from_str::<serde_json::Value>(&shards[0].1).unwrap()["shard"]
        ["jobs"]
        .as_u64()
        .unwrap() as usize;
    assert_eq!(per_shard.iter().sum::<usize>(), total, "{per_shard:?}");
    assert!(per_shard.iter().all(|&n| n > 0 && n < total));
    let merged = merge_shards(&shards).unwrap();
    assert_eq!(
        check_json(&merged),
        check_json(&whole),
        "merged shards differ from the unsharded check"
    );
    // the merged counts are the sums over every job of every shard, computed here from the
    // shard files (the Real invariants count only the grids, which no job touches)
    let mut sums: std::collections::BTreeMap<String, u64> = Default::default();
    for (_, text) in &shards {
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        for job in v["shard"]["results"].as_array().unwrap() {
            for (name, t) in job["tallies"].as_object().unwrap() {
                *sums.entry(name.clone()).or_default() += t["evaluations"].as_u64().unwrap();
            }
        }
    }
    let mut checked = 0;
    for r in merged
        .invariants
        .iter()
        .filter(|r| format!("{:?}", r.scope) != "Real")
    {
        assert_eq!(
            r.evaluations as u64,
            sums.get(r.name).copied().unwrap_or(0),
            "{}",
            r.name
        );
        checked += (r.evaluations > 0) as usize;
    }
    assert!(checked > 50, "only {checked} invariants were evaluated");
    // the order of the inputs does not matter
    let mut rev = shards.clone();
    rev.reverse();
    assert_eq!(check_json(&merge_shards(&rev).unwrap()), check_json(&whole));
}

#[test]
fn merge_of_check_shards_can_fail_and_refuses_bad_sets() {
    let shards = check_shards(5, 8);
    // negative control: a violation recorded in one shard's job reaches the merged report
    let mut v: serde_json::Value = serde_json::from_str(&shards[1].1).unwrap();
    let job = &mut v["shard"]["results"][0]["tallies"];
    let name = job.as_object().unwrap().keys().next().unwrap().clone();
    job[&name]["violations"] = serde_json::json!(1);
    let mut tampered = shards.clone();
    tampered[1].1 = v.to_string();
    let m = merge_shards(&tampered).unwrap();
    let row = m.invariants.iter().find(|r| r.name == name).unwrap();
    assert_eq!(row.violations, 1);
    assert_ne!(check_json(&m), check_json(&merge_shards(&shards).unwrap()));

    let err = |inputs: &[(String, String)]| merge_shards(inputs).unwrap_err().to_string();
    // a missing shard
    assert!(
        err(&shards[..2]).contains("3/3 is missing"),
        "{}",
        err(&shards[..2])
    );
    // a duplicated shard
    let dup = vec![shards[0].clone(), shards[0].clone(), shards[2].clone()];
    assert!(err(&dup).contains("given twice"));
    // a shard of another seed
    let mut other = shards.clone();
    other[2] = check_shards(5, 9).remove(2);
    assert!(err(&other).contains("other settings"), "{}", err(&other));
    // a job dropped from a shard (a truncated or edited file)
    let mut v: serde_json::Value = serde_json::from_str(&shards[0].1).unwrap();
    v["shard"]["results"].as_array_mut().unwrap().pop();
    let mut cut = shards.clone();
    cut[0].1 = v.to_string();
    assert!(err(&cut).contains("in no shard output"), "{}", err(&cut));
    // an unsharded report, and malformed JSON, name the input
    let whole = check_json(&run_check_shard(5, 8, &CaseOptions::default(), 2, None).unwrap());
    let mut plain = shards.clone();
    plain[1] = ("full/CHECK.json".into(), whole);
    assert!(err(&plain).contains("full/CHECK.json") && err(&plain).contains("not a shard output"));
    // labels and sizes from a file are checked, never used to allocate
    let edit = |i: usize, f: &dyn Fn(&mut serde_json::Value)| {
        let mut v: serde_json::Value = serde_json::from_str(&shards[i].1).unwrap();
        f(&mut v);
        let mut s = shards.clone();
        s[i].1 = v.to_string();
        s
    };
    let e = err(&edit(1, &|v| v["shard"]["shard"]["index"] = 0.into()));
    assert!(e.contains("does not belong to a split"), "{e}");
    let e = err(&edit(0, &|v| {
        v["shard"]["shard"]["count"] = u64::MAX.into();
    }));
    assert!(
        e.contains("does not belong to a split") || e.contains("not a job of shard"),
        "{e}"
    );
    let e = err(&edit(2, &|v| v["shard"]["jobs"] = u64::MAX.into()));
    assert!(e.contains("other settings"), "{e}");
    let e = err(&edit(2, &|v| v["cases"] = u64::MAX.into()));
    assert!(e.contains("other settings"), "{e}");
    let e = err(&edit(0, &|v| {
        v["shard"]["results"][0]["job"] = 1_000_000_000u64.into()
    }));
    assert!(e.contains("not a job of shard"), "{e}");
    let mut broken = shards.clone();
    let half = broken[2].1.len() / 2;
    broken[2].1.truncate(half);
    assert!(
        err(&broken).starts_with("s3/CHECK.json: line "),
        "{}",
        err(&broken)
    );
}

#[test]
fn cli_check_shards_merge_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let d = |p: &str| dir.path().join(p).display().to_string();
    let whole = d("whole/CHECK.json");
    assert_eq!(
        run(&["-q", "check", "--cases", "4", "--seed", "2", "--out", &whole]).0,
        0
    );
    for i in 1..=2 {
        let (code, _) = run(&[
            "-q",
            "check",
            "--cases",
            "4",
            "--seed",
            "2",
            "--jobs",
            "1",
            "--shard",
            &format!("{i}/2"),
            "--out",
            &d(&format!("s{i}/CHECK.json")),
        ]);
        assert_eq!(code, 0);
    }
    let (code, _) = run(&[
        "-q",
        "merge",
        &d("s1"),
        &d("s2/CHECK.json"),
        "--out",
        &d("m"),
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        std::fs::read(d("m/CHECK.json")).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    assert!(std::path::Path::new(&d("m/index.html")).is_file());
    // the report names the build that wrote it; shards of another build are refused
    let edited = other_build(&d("s2/CHECK.json"));
    let (code, stderr) = run(&["merge", &d("s1"), &edited]);
    assert_eq!(code, 2);
    assert!(stderr.contains("another build"), "{stderr}");
    // a shard needs --out; a verify and a check shard do not merge; one shard is not all
    assert_eq!(run(&["check", "--cases", "4", "--shard", "1/2"]).0, 2);
    std::fs::create_dir_all(d("v")).unwrap();
    std::fs::write(d("v/verify.json"), "{}").unwrap();
    let (code, stderr) = run(&["merge", &d("s1"), &d("v")]);
    assert_eq!(code, 2);
    assert!(stderr.contains("mixes verify and check"), "{stderr}");
    let (code, stderr) = run(&["merge", &d("s1")]);
    assert_eq!(code, 2);
    assert!(stderr.contains("2/2 is missing"), "{stderr}");
}

/// Issue 8's acceptance through the binary: `verify --shard I/3` three times, `merge`, and the
/// merged verify.json equals the unsharded one apart from timings (the hard instances run once,
/// in the merge); the shards exit 0, the merge gates.
#[test]
fn cli_verify_shards_merge_to_the_unsharded_report() {
    let dir = tempfile::tempdir().unwrap();
    let d = |p: &str| dir.path().join(p).display().to_string();
    let run = |args: &[&str]| run(args).0;
    let cases = "lmo-po/c-sc/";
    assert_eq!(
        run(&["-q", "verify", "--cases", cases, "--out", &d("whole")]),
        0
    );
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let out = d(&format!("s{i}"));
        assert_eq!(
            run(&["-q", "verify", "--cases", cases, "--shard", &shard, "--out", &out]),
            0
        );
    }
    assert_eq!(
        run(&[
            "-q",
            "merge",
            &d("s1"),
            &d("s2"),
            &d("s3"),
            "--out",
            &d("m")
        ]),
        0
    );
    let read = |p: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(dir.path().join(p)).unwrap();
        without_timings(&serde_json::from_str(&text).unwrap())
    };
    let (merged, whole) = (read("m/verify.json"), read("whole/verify.json"));
    assert!(
        merged["entries"][0]["hard"].is_object(),
        "the merge ran the hard instance"
    );
    assert_eq!(merged, whole);
    // a shard's own report is partial: it differs from the whole one
    assert_ne!(read("s1/verify.json"), whole);
    // the report names the build that wrote it; shards of another build are refused
    assert_eq!(whole["build"]["version"], env!("CARGO_PKG_VERSION"));
    let edited = other_build(&d("s3/verify.json"));
    let (code, stderr) = self::run(&["merge", &d("s1"), &d("s2"), &edited, "--out", &d("m2")]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("another build"), "{stderr}");
}

/// Runs the binary; a panic is never an acceptable outcome. Returns the exit code and stderr.
fn run(args: &[&str]) -> (i32, String) {
    let o = crate::common::saddlefw(args);
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    (o.code, o.stderr)
}

/// A copy of a shard output (verify.json or CHECK.json) as if written by another build: its
/// `build.git_commit` changed. Returns the copy's path (in a sibling directory `PATH-other`).
fn other_build(path: &str) -> String {
    let p = std::path::Path::new(path);
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    assert!(v["build"].is_object(), "{path} names its build");
    v["build"]["git_commit"] = serde_json::json!("0123456789ab");
    let dir = format!("{}-other", p.parent().unwrap().display());
    std::fs::create_dir_all(&dir).unwrap();
    let out = format!("{dir}/{}", p.file_name().unwrap().to_str().unwrap());
    std::fs::write(&out, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    out
}
