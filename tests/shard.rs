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
