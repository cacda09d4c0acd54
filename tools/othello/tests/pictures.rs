//! End-to-end tests of the pictures: `show`/`search`/`solve --svg` and `play`/`stats --plot`,
//! each file parsed as XML and its marks counted against the position or the match; bad paths
//! exit 2 before any work; writes leave no temporary file behind.

mod common;

use common::{args, array, othello};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;

const START: &str = "---------------------------OX------XO--------------------------- X";

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json_lines(o: &Output) -> Vec<Value> {
    common::json_lines(&String::from_utf8_lossy(&o.stdout))
}

/// A fresh directory for one test.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("othello-pictures-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn files_in(d: &Path) -> BTreeSet<String> {
    std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The `data-square` values of the elements of class `class`, and the text of each.
fn marks(svg: &str, class: &str) -> Vec<(String, String)> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .map(|n| {
            let text: String = n
                .descendants()
                .filter(|t| t.is_text())
                .filter_map(|t| t.text())
                .collect();
            (n.attribute("data-square").unwrap_or("").to_string(), text)
        })
        .collect()
}

fn squares(svg: &str, class: &str) -> BTreeSet<String> {
    marks(svg, class).into_iter().map(|m| m.0).collect()
}

/// `show --json` of a position: its moves and disc counts.
fn shown(args: &[&str]) -> Value {
    let mut a = vec!["show", "--json"];
    a.extend_from_slice(args);
    let o = othello(&a);
    assert!(o.status.success(), "{}", stderr(&o));
    json_lines(&o).remove(0)
}

#[test]
fn show_draws_the_discs_legal_moves_and_last_move() {
    let d = dir("show");
    for (args, last) in [
        (vec![START], None),
        (vec![START, "--moves", "f5d6c3"], Some("c3")),
        (vec!["--size", "6", "--moves", "c2"], Some("c2")),
        (vec!["--size", "4"], None),
        (vec!["--moves", "f5d6c3 pass"], None),
    ] {
        // (The last one is illegal: the move after c3 is white's, and white can move.)
        let file = d.join("board.svg");
        let mut a = vec!["show", "--svg", s(&file)];
        a.extend_from_slice(&args);
        let o = othello(&a);
        if args.last() == Some(&"f5d6c3 pass") {
            assert_eq!(o.status.code(), Some(2));
            continue;
        }
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let svg = std::fs::read_to_string(&file).unwrap();
        let info = shown(&args);
        assert_eq!(
            marks(&svg, "disc black").len() as u64,
            info["black"].as_u64().unwrap(),
            "{args:?}"
        );
        assert_eq!(
            marks(&svg, "disc white").len() as u64,
            info["white"].as_u64().unwrap(),
            "{args:?}"
        );
        let moves: BTreeSet<String> = array(&info, "moves", Value::as_str)
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(squares(&svg, "legal"), moves, "{args:?}");
        assert_eq!(
            squares(&svg, "last-move"),
            last.into_iter().map(String::from).collect(),
            "{args:?}"
        );
        assert_eq!(
            files_in(&d),
            BTreeSet::from(["board.svg".to_string()]),
            "a temporary file was left"
        );
    }
}

#[test]
fn show_values_annotate_every_legal_move() {
    let d = dir("values");
    // 4x4, solved exactly: every first move loses by 10 (the 4x4 game's value).
    let file = d.join("four.svg");
    let o = othello(&["show", "--size", "4", "--values", "solve", "--svg", s(&file), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = &json_lines(&o)[0];
    let values: Vec<(String, i64)> = v["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["move"].as_str().unwrap().to_string(), x["score"].as_i64().unwrap()))
        .collect();
    assert_eq!(values.len(), 4);
    assert!(values.iter().all(|x| x.1 == -10), "{values:?}");
    let svg = std::fs::read_to_string(&file).unwrap();
    let drawn = marks(&svg, "value");
    assert_eq!(drawn.len(), 4);
    assert!(drawn.iter().all(|(_, text)| text == "-10"), "{drawn:?}");
    assert_eq!(squares(&svg, "value"), squares(&svg, "legal"));

    // 6x6 with a search: one value per legal move, in the JSON and on the board (one decimal).
    let file = d.join("six.svg");
    let flags = "show --size 6 --moves c2 --values search -e pvs:depth=3 --json --svg";
    let o = othello(&args(flags, &[s(&file)]));
    assert!(o.status.success(), "{}", stderr(&o));
    let v = &json_lines(&o)[0];
    let listed: BTreeSet<&str> = array(v, "values", |x| x["move"].as_str()).into_iter().collect();
    let moves: BTreeSet<&str> = array(v, "moves", Value::as_str).into_iter().collect();
    assert_eq!(listed, moves);
    let svg = std::fs::read_to_string(&file).unwrap();
    let moves: BTreeSet<String> = moves.into_iter().map(String::from).collect();
    assert_eq!(squares(&svg, "value"), moves);
    for x in v["values"].as_array().unwrap() {
        let sq = x["move"].as_str().unwrap();
        let text = marks(&svg, "value").into_iter().find(|m| m.0 == sq).unwrap().1;
        let want = x["score"].as_f64().unwrap();
        let got: f64 = text.parse().unwrap();
        assert!((got - want).abs() <= 0.05 + 1e-9, "{sq}: {text} vs {want}");
    }
}

#[test]
fn bad_picture_options_exit_2_before_any_work() {
    let d = dir("bad");
    let missing = d.join("no/such/dir/board.svg");
    for args in [
        vec!["show", "--svg", s(&missing)],
        vec!["show", "--svg", s(&d)],
        vec!["show", "--values", "solve"],
        vec!["show", "--values", "guess"],
        vec!["show", "--values", "search", "-e", "mcts:playouts=10"],
        vec!["show", "--values", "solve", "--size", "4", "-e", "pvs"],
        vec!["show", "-e", "pvs:depth=2"],
        vec!["search", "-e", "pvs:depth=2", "--svg", s(&missing)],
        vec!["solve", "-----OX--XO----- X", "--svg", s(&missing)],
        vec!["play", "pvs:depth=1", "random", "--games", "2", "--plot", s(&missing)],
        vec!["stats", "--penta", "1,2,3,4,5", "--plot", "x.svg"],
    ] {
        let o = othello(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}: work was done");
    }
    assert!(files_in(&d).is_empty(), "{:?}", files_in(&d));
}

#[test]
fn search_and_solve_number_the_principal_variation() {
    let d = dir("pv");
    let file = d.join("search.svg");
    let o = othello(&[
        "search",
        "--moves",
        "f5d6",
        "-e",
        "pvs:depth=5",
        "--svg",
        s(&file),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let last = json_lines(&o).pop().unwrap();
    let pv: Vec<String> = last["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert!(!pv.is_empty());
    let svg = std::fs::read_to_string(&file).unwrap();
    let numbered = marks(&svg, "pv");
    let mut want: Vec<(String, String)> = Vec::new();
    for (i, m) in pv.iter().enumerate() {
        if m != "pass" && !want.iter().any(|w| &w.0 == m) {
            want.push((m.clone(), (i + 1).to_string()));
        }
    }
    assert_eq!(numbered, want);
    assert_eq!(squares(&svg, "last-move"), BTreeSet::from(["d6".to_string()]));

    // An OBF file of three positions: one picture each, by a {n} pattern or in a directory.
    let obf = d.join("three.obf");
    let text: String = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../crates/endgame/data/fforum-1-19.obf"
    ))
    .unwrap()
    .lines()
    .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    .take(3)
    .map(|l| format!("{l}\n"))
    .collect();
    std::fs::write(&obf, text).unwrap();
    let plain = d.join("one.svg");
    let o = othello(&["solve", s(&obf), "--quiet", "--svg", s(&plain)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("{n}"), "{}", stderr(&o));
    assert!(!plain.exists());
    let pattern = d.join("pos-{n}.svg");
    let o = othello(&[
        "solve",
        s(&obf),
        "--quiet",
        "--json",
        "--svg",
        s(&pattern),
        "--all-moves",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines = json_lines(&o);
    for (n, line) in lines.iter().take(3).enumerate() {
        let svg = std::fs::read_to_string(d.join(format!("pos-{}.svg", n + 1))).unwrap();
        let first = line["pv"][0].as_str().unwrap();
        assert!(marks(&svg, "pv").iter().any(|m| m.0 == first && m.1 == "1"), "{n}");
        // Every scored move not on the variation shows its score.
        for m in line["moves"].as_array().unwrap() {
            let sq = m["move"].as_str().unwrap();
            let on_pv = marks(&svg, "pv").iter().any(|p| p.0 == sq);
            let value = marks(&svg, "value").into_iter().find(|v| v.0 == sq);
            match value {
                Some((_, text)) => assert_eq!(text, format!("{:+}", m["score"].as_i64().unwrap())),
                None => assert!(on_pv, "{sq} has no value"),
            }
        }
    }
    let out = d.join("out");
    std::fs::create_dir(&out).unwrap();
    let o = othello(&["solve", s(&obf), "--quiet", "--svg", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        files_in(&out),
        ["position-1.svg", "position-2.svg", "position-3.svg"]
            .map(String::from)
            .into_iter()
            .collect()
    );
}

/// The polyline points of class `class` in a plot.
fn polyline_points(svg: &str, class: &str) -> usize {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .map(|n| n.attribute("points").unwrap().split(' ').count())
        .sum()
}

fn penta(v: &Value) -> Vec<u64> {
    v["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

#[test]
fn play_and_stats_plot_the_same_match() {
    let d = dir("plot");
    let plot = d.join("match.svg");
    let full = d.join("full.jsonl");
    let engines = ["pvs:depth=2,eval=mobility", "pvs:depth=1,eval=mobility"];
    let o = othello(&[
        "play",
        engines[0],
        engines[1],
        "--games",
        "8",
        "--sprt",
        "0,100",
        "--quiet",
        "--json",
        "--jsonl",
        s(&full),
        "--plot",
        s(&plot),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = json_lines(&o).pop().unwrap();
    let svg = std::fs::read_to_string(&plot).unwrap();
    // One LLR point per pair, two bounds, the final counts in the header.
    assert_eq!(polyline_points(&svg, "llr"), 4);
    assert_eq!(marks(&svg, "llr-bound").len(), 2);
    let counts = penta(&summary);
    let text = marks(&svg, "pentanomial").pop().unwrap().1;
    assert!(
        text.ends_with(&counts.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")),
        "{text}"
    );
    // Nothing but the plot and the records in the directory: the writes were renames.
    assert_eq!(
        files_in(&d),
        ["full.jsonl", "match.svg"].map(String::from).into_iter().collect()
    );

    // The same pairs played apart and merged by `stats --records`: the same counts and plot.
    let (a, b) = (d.join("a.jsonl"), d.join("b.jsonl"));
    for (range, file) in [("0..2", &a), ("2..4", &b)] {
        let o = othello(&[
            "play",
            engines[0],
            engines[1],
            "--pairs",
            range,
            "--quiet",
            "--jsonl",
            s(file),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let merged = d.join("merged.svg");
    let o = othello(&[
        "stats",
        "--records",
        s(&b),
        s(&a),
        "--sprt",
        "0,100",
        "--json",
        "--plot",
        s(&merged),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = &json_lines(&o)[0];
    assert_eq!(penta(v), counts);
    assert_eq!(v["llr"], summary["llr"]);
    assert_eq!((v["games"].as_u64(), v["unpaired_games"].as_u64()), (Some(8), Some(0)));
    let merged_svg = std::fs::read_to_string(&merged).unwrap();
    assert_eq!(polyline_points(&merged_svg, "llr"), 4);
    // The full run's records give the very same picture.
    let again = d.join("again.svg");
    let o = othello(&["stats", "--records", s(&full), "--sprt", "0,100", "--plot", s(&again)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&again).unwrap(), svg);
}
