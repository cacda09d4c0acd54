//! `othello-train errors` through the binary: the `--depth` options reach the search (its own
//! search labels score zero, another mean or depth does not), the bands below the table, and
//! bad values exit 2 with a message naming the option.

use std::path::PathBuf;
use std::process::{Command, Output};

fn train(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_othello-train"))
        .args(args)
        .output()
        .expect("the othello-train binary runs")
}

/// A scratch directory, removed when dropped (also when a test fails).
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("othello-train-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }

    fn path(&self, file: &str) -> String {
        self.0.join(file).to_string_lossy().into_owned()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The RMS of the one pooled row of an `errors --bucket 61` table, and its count.
fn pooled(out: &Output) -> (usize, f64) {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let row = text
        .lines()
        .find(|l| l.starts_with("| 0-60 |"))
        .unwrap_or_else(|| panic!("no pooled row in {text}"));
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    (cells[2].parse().unwrap(), cells[3].parse().unwrap())
}

#[test]
fn errors_depth_scores_the_search_labels_of_its_options() {
    let dir = Dir::new("depth");
    let (games, labels) = (dir.path("g.jsonl"), dir.path("l.jsonl"));
    assert!(
        train(&[
            "games", "--out", &games, "--games", "3", "--seed", "5", "--eval", "pattern", "--quiet"
        ])
        .status
        .success()
    );
    let made = train(&[
        "labels",
        "--games",
        &games,
        "--out",
        &labels,
        "--mode",
        "search",
        "--depth",
        "5",
        "--mean-of",
        "2",
        "--selectivity",
        "2",
        "--min-empties",
        "30",
        "--max-empties",
        "50",
        "--quiet",
    ]);
    assert!(made.status.success());
    let n = std::fs::read_to_string(&labels).unwrap().lines().count();
    assert!(n >= 30, "{n} labels");
    let errors = |extra: &[&str]| {
        let mut args = vec![
            "errors",
            "--labels",
            &labels,
            "--sources",
            "search",
            "--bucket",
            "61",
            "--quiet",
        ];
        args.extend_from_slice(extra);
        pooled(&train(&args))
    };
    assert_eq!(
        errors(&["--depth", "5", "--mean-of", "2", "--selectivity", "2"]),
        (n, 0.0)
    );
    for other in [
        &["--depth", "5", "--selectivity", "2"][..],
        &["--depth", "4", "--mean-of", "2", "--selectivity", "2"],
        &["--depth", "5", "--mean-of", "2"],
        &[],
    ] {
        let (count, rms) = errors(other);
        assert_eq!(count, n);
        assert!(rms > 0.0, "{other:?}");
    }
}

/// Below the table: the fixed 14-20 band, and the band of all the rows when it is another
/// (here 20-24 empties), equal to the table's pooled row.
#[test]
fn errors_prints_the_band_of_all_its_rows() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/data/heldout-20-24-engine.jsonl");
    let out = train(&["errors", "--labels", file, "--bucket", "61", "--quiet"]);
    let (n, rms) = pooled(&out);
    assert_eq!(n, 2301);
    let text = String::from_utf8_lossy(&out.stdout);
    let band = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .unwrap_or_else(|| panic!("no {name} line in {text}"))
            .to_string()
    };
    assert!(
        band("20-24 empties: ").starts_with(&format!("n 2301, RMS {rms:.2},")),
        "{text}"
    );
    assert!(band("14-20 empties: ").starts_with("n 481,"), "{text}");
    assert_eq!(text.matches(" empties: n ").count(), 3, "{text}");
}

#[test]
fn errors_refuses_bad_options() {
    for (args, named) in [
        (&["--depth", "31"][..], "--depth 31"),
        (&["--depth", "4", "--mean-of", "5"], "--mean-of 5"),
        (&["--depth", "3", "--mean-of", "0"], "--mean-of 0"),
        (&["--selectivity", "2"], "--selectivity needs --depth"),
        (&["--test-every", "0"], "--test-every or --bucket 0"),
        (&["--bucket", "0"], "--test-every or --bucket 0"),
    ] {
        let mut all = vec!["errors", "--labels", "no-such-file.jsonl"];
        all.extend_from_slice(args);
        let out = train(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(named), "{args:?}: {err}");
    }
    // At the limits the options are taken: the error is then the missing labels file.
    for args in [
        &["--depth", "30", "--mean-of", "30"][..],
        &["--depth", "0", "--mean-of", "1"],
    ] {
        let mut all = vec!["errors", "--labels", "no-such-file.jsonl"];
        all.extend_from_slice(args);
        let err = String::from_utf8_lossy(&train(&all).stderr).into_owned();
        assert!(err.contains("no-such-file.jsonl"), "{args:?}: {err}");
    }
}

/// `labels --ordering`: `pattern` and `none` write the same exact labels (other node counts);
/// another value exits 2 naming it.
#[test]
fn labels_ordering_changes_nodes_not_labels() {
    let dir = Dir::new("ordering");
    let games = dir.path("g.jsonl");
    assert!(
        train(&["games", "--out", &games, "--games", "3", "--seed", "8", "--quiet"])
            .status
            .success()
    );
    let mut lines = Vec::new();
    for ordering in ["pattern", "none"] {
        let out = dir.path(&format!("l-{ordering}.jsonl"));
        let run = train(&[
            "labels",
            "--games",
            &games,
            "--out",
            &out,
            "--min-empties",
            "15",
            "--max-empties",
            "16",
            "--ordering",
            ordering,
            "--quiet",
        ]);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let text = std::fs::read_to_string(&out).unwrap();
        let rows: Vec<(String, String)> = text
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (v["position"].to_string(), v["score"].to_string())
            })
            .collect();
        let nodes: u64 = text
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["nodes"]
                    .as_u64()
                    .unwrap()
            })
            .sum();
        assert!(rows.len() >= 4);
        lines.push((rows, nodes));
    }
    assert_eq!(lines[0].0, lines[1].0);
    assert_ne!(lines[0].1, lines[1].1);
    let out = train(&[
        "labels",
        "--games",
        &games,
        "--out",
        &dir.path("x.jsonl"),
        "--ordering",
        "eval",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad --ordering \"eval\""));
}
