//! End-to-end tests of `othello play --pairs` (given pairs of the opening order, merged across
//! runs) and `othello stats` (the statistics of merged pentanomial counts).

use serde_json::Value;
use std::process::Command;

mod common;

use common::{BIN, run_json as run};

const ENGINES: [&str; 3] = ["play", "pvs:depth=1", "pvs:depth=2"];

fn counts(v: &Value) -> [u64; 5] {
    let c: Vec<u64> = v["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    c.try_into().unwrap()
}

#[test]
fn pair_ranges_merge_into_the_full_run() {
    let mut full_args = ENGINES.to_vec();
    full_args.extend(["--games", "14", "--seed", "3", "--concurrency", "2"]);
    let (full_games, full) = run(&full_args);
    assert_eq!(full_games.len(), 14);
    let mut merged = [0u64; 5];
    let mut games = Vec::new();
    for range in ["0..3", "3..4", "4..7"] {
        let mut a = ENGINES.to_vec();
        a.extend(["--pairs", range, "--seed", "3"]);
        let (g, s) = run(&a);
        let (lo, hi) = range.split_once("..").unwrap();
        let (lo, hi): (u64, u64) = (lo.parse().unwrap(), hi.parse().unwrap());
        assert_eq!(s["pair_range"], serde_json::json!([lo, hi]));
        assert_eq!(s["pairs"], hi - lo);
        // Games keep their numbers of the full run: pair p is games 2p+1 and 2p+2.
        let numbers: Vec<u64> = g.iter().map(|x| x["game"].as_u64().unwrap()).collect();
        assert_eq!(numbers, (2 * lo + 1..=2 * hi).collect::<Vec<_>>());
        for (m, c) in merged.iter_mut().zip(counts(&s)) {
            *m += c;
        }
        games.extend(g);
    }
    assert_eq!(merged, counts(&full));
    // The same games, move for move (deterministic engines), as the full run's.
    let key = |g: &Value| {
        (
            g["game"].as_u64().unwrap(),
            g["moves"].to_string(),
            g["opening"].to_string(),
        )
    };
    let mut a: Vec<_> = games.iter().map(key).collect();
    let mut b: Vec<_> = full_games.iter().map(key).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    // `othello stats` on the merged counts prints the full run's statistics.
    let penta = merged.map(|c| c.to_string()).join(",");
    let (_, stats) = run(&["stats", "--penta", &penta, "--sprt", "-5,5"]);
    let mut with_sprt = full_args.clone();
    with_sprt.extend(["--sprt", "-5,5"]);
    let (_, full_sprt) = run(&with_sprt);
    if full_sprt["pairs"] == full["pairs"] {
        for k in [
            "elo",
            "elo_error",
            "elo_low",
            "elo_high",
            "nelo",
            "los",
            "pentanomial",
            "pairs",
            "llr",
            "sprt",
            "llr_bounds",
        ] {
            assert_eq!(stats[k], full_sprt[k], "{k}");
        }
    }
    for k in ["elo", "elo_error", "los", "nelo", "pentanomial", "pairs"] {
        assert_eq!(stats[k], full[k], "{k}");
    }
}

#[test]
fn stats_of_given_counts() {
    let (_, s) = run(&["stats", "--penta", "0,0,10,0,0"]);
    assert_eq!(s["pairs"], 10);
    assert_eq!(s["score"], 0.5);
    assert_eq!(s["elo"], 0.0);
    assert_eq!(s["sprt"], Value::Null);
    // +24 Elo over 1100 pairs decides H1 of 0 < 10; -24 decides H0; five pairs continue.
    let (_, s) = run(&["stats", "--penta", "100,200,400,250,150", "--sprt", "0,10"]);
    assert_eq!(s["sprt"], "H1");
    assert!(s["llr"].as_f64().unwrap() >= s["llr_bounds"][1].as_f64().unwrap());
    let (_, s) = run(&["stats", "--penta", "150,250,400,200,100", "--sprt", "0,10"]);
    assert_eq!(s["sprt"], "H0");
    let (_, s) = run(&[
        "stats",
        "--penta",
        "1,1,1,1,1",
        "--sprt",
        "0,10",
        "--sprt-model",
        "normalized",
    ]);
    assert_eq!(s["sprt"], "continue");
    assert_eq!(s["sprt_model"], "normalized");
}

#[test]
fn bad_pairs_and_counts_exit_2_with_one_line() {
    for args in [
        vec!["play", "random", "random", "--pairs", "5..5"],
        vec!["play", "random", "random", "--pairs", "7..2"],
        vec!["play", "random", "random", "--pairs", "x"],
        vec!["play", "random", "random", "--pairs", "0..2", "--games", "4"],
        vec!["stats", "--penta", "1,2,3,4"],
        vec!["stats", "--penta", "1,2,3,4,-5"],
        vec!["stats", "--penta", "18446744073709551615,1,0,0,0"],
        vec!["stats", "--penta", "1,2,3,4,5", "--sprt", "10,0"],
    ] {
        let out = Command::new(BIN).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.trim().is_empty(), "{args:?}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}
