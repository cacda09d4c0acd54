//! End-to-end tests of what the distributed runner (tools/distributed) relies on: the build
//! identity of `--version`, `perft --leaf-only`, `perft --split` and `perft --positions`.

use serde_json::Value;
mod common;

use common::{othello, othello_stdin};
use std::process::Output;

const PUBLISHED: [u64; 11] = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284];

fn json_lines(o: &Output) -> Vec<Value> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

fn stderr_line(o: &Output) -> String {
    let e = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(e.trim_end().lines().count(), 1, "one line on stderr: {e}");
    e
}

#[test]
fn version_prints_a_build_identity() {
    let o = othello(&["--version"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout).trim().to_string();
    let rest = text.strip_prefix("othello ").expect("starts with the name");
    let (version, ident) = rest.split_once(' ').expect("version then identity");
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    let ident = ident
        .strip_prefix("(commit ")
        .and_then(|s| s.strip_suffix(')'))
        .expect("(commit ...)");
    let (commit, inputs) = ident.split_once(", inputs ").expect("commit, inputs");
    assert!(!commit.is_empty() && !commit.contains(' '));
    assert_eq!(inputs.len(), 32);
    assert!(inputs.chars().all(|c| c.is_ascii_hexdigit()));
    // Every subcommand reports the same identity.
    let o = othello(&["perft", "--version"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains(ident));
}

#[test]
fn leaf_only_prints_the_final_depth_alone() {
    for d in [0usize, 1, 5, 8] {
        let lines = json_lines(&othello(&["perft", "-d", &d.to_string(), "--leaf-only", "--json"]));
        assert_eq!(lines.len(), 1, "depth {d}");
        assert_eq!(lines[0]["depth"], d as u64);
        assert_eq!(lines[0]["nodes"], PUBLISHED[d]);
    }
    let o = othello(&["perft", "-d", "6", "--leaf-only"]);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(text.lines().count(), 1);
    assert!(text.contains("8200"));
}

/// Splits `args` at `ply`, counts every position at `depth - ply` through `--positions` and
/// recombines: ended + sum(count * nodes).
fn recombine(setup: &[&str], ply: u32, depth: u32) -> u64 {
    let mut args = vec!["perft", "--json", "--split"];
    let ply_s = ply.to_string();
    args.push(&ply_s);
    args.extend_from_slice(setup);
    let lines = json_lines(&othello(&args));
    let (summary, units) = lines.split_last().unwrap();
    assert_eq!(summary["split"], ply);
    assert_eq!(summary["positions"].as_u64().unwrap() as usize, units.len());
    let list: String = units
        .iter()
        .map(|u| format!("{}\n", u["position"].as_str().unwrap()))
        .collect();
    let d = (depth - ply).to_string();
    let counted = json_lines(&othello_stdin(
        &["perft", "--positions", "-", "-d", &d, "--json"],
        &list,
    ));
    assert_eq!(counted.len(), units.len());
    let mut total = summary["ended"].as_u64().unwrap();
    let mut paths = total;
    for (u, c) in units.iter().zip(&counted) {
        assert_eq!(u["position"], c["position"], "input order kept");
        assert_eq!(c["depth"], depth - ply);
        total += u["count"].as_u64().unwrap() * c["nodes"].as_u64().unwrap();
        paths += u["count"].as_u64().unwrap();
    }
    assert_eq!(summary["paths"], paths);
    total
}

#[test]
fn split_then_positions_recombines_to_the_published_counts() {
    for (ply, depth) in [(0, 5), (1, 6), (2, 8), (3, 3), (3, 9), (4, 9), (5, 10), (6, 8)] {
        assert_eq!(
            recombine(&[], ply, depth),
            PUBLISHED[depth as usize],
            "ply {ply} depth {depth}"
        );
    }
    // Symmetric positions are merged: 56 paths at ply 3 are 14 classes.
    let lines = json_lines(&othello(&["perft", "--split", "3", "--json"]));
    assert_eq!(lines.last().unwrap()["positions"], 14);
    assert_eq!(lines.last().unwrap()["paths"], 56);
    // 4x4: games end above the split ply, and those leaves count.
    let lines = json_lines(&othello(&["perft", "--split", "11", "--size", "4", "--json"]));
    assert!(lines.last().unwrap()["ended"].as_u64().unwrap() > 0);
    for ply in [3, 8, 11, 12] {
        assert_eq!(recombine(&["--size", "4"], ply, 12), 57436, "4x4 ply {ply}");
    }
    // From a position given with --moves.
    let direct = json_lines(&othello(&[
        "perft",
        "-d",
        "7",
        "--leaf-only",
        "--moves",
        "f5d6",
        "--json",
    ]));
    assert_eq!(
        recombine(&["--moves", "f5d6"], 3, 7),
        direct[0]["nodes"].as_u64().unwrap()
    );
}

#[test]
fn positions_file_skips_comments_and_counts_each_line() {
    let dir = std::env::temp_dir().join(format!("othello-dist-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("list.txt");
    let start = "---------------------------OX------XO--------------------------- X";
    std::fs::write(&path, format!("# a comment\n\n{start}\n{start}\n")).unwrap();
    let lines = json_lines(&othello(&[
        "perft",
        "--positions",
        path.to_str().unwrap(),
        "-d",
        "7",
        "--json",
    ]));
    assert_eq!(lines.len(), 2);
    assert!(
        lines
            .iter()
            .all(|l| l["nodes"] == PUBLISHED[7] && l["position"] == start)
    );
    // Every counting mode gives the same counts.
    for mode in [
        &["--threads", "2"][..],
        &["--hash", "4"],
        &["--threads", "2", "--hash", "4"],
    ] {
        let mut args = vec!["perft", "--positions", path.to_str().unwrap(), "-d", "8", "--json"];
        args.extend_from_slice(mode);
        let lines = json_lines(&othello(&args));
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| l["nodes"] == PUBLISHED[8]), "{mode:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let o = othello_stdin(&["perft", "--positions", "-", "-d", "3"], "---\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr_line(&o).contains("standard input line 1"));
    let o = othello(&["perft", "--positions", "no-such-file.txt", "-d", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr_line(&o).contains("no-such-file.txt"));
    for bad in ["-1", "65", "x"] {
        let o = othello(&["perft", "--split", bad]);
        assert_eq!(o.status.code(), Some(2), "--split {bad}");
        stderr_line(&o);
    }
    let o = othello(&["perft", "--positions", "-", "--moves", "f5"]);
    assert_eq!(o.status.code(), Some(2));
    stderr_line(&o);
    let o = othello(&["perft", "--split", "2", "--divide"]);
    assert_eq!(o.status.code(), Some(2));
}
