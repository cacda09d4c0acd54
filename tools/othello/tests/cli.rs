//! End-to-end tests: the real `othello` binary, its happy paths, its JSON, and its exit codes.

use serde_json::Value;
use std::io::Write;
mod common;

use common::{args, othello, othello_stdin};
use std::process::{Command, Output, Stdio};

const START: &str = "---------------------------OX------XO--------------------------- X";
const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json_lines(o: &Output) -> Vec<Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

fn temp_file(name: &str, contents: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn perft_prints_published_counts() {
    let o = othello(&["perft", "--depth", "8", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let nodes: Vec<u64> = json_lines(&o).iter().map(|v| v["nodes"].as_u64().unwrap()).collect();
    assert_eq!(nodes, [4, 12, 56, 244, 1396, 8200, 55092, 390216]);
    for v in json_lines(&o) {
        assert!(v["depth"].is_u64() && v["time_ms"].is_number());
    }
    let o = othello(&["perft", "--size", "4", "--depth", "12"]);
    assert!(stdout(&o).contains("57436"));
    let o = othello(&["perft", "--depth", "0", "--json"]);
    assert_eq!(json_lines(&o)[0]["nodes"], 1);
    let o = othello(&args("perft --depth 6 --divide --hash 4 --threads 2 --moves f5", &[]));
    assert!(o.status.success());
    assert!(stdout(&o).contains("d6") && stdout(&o).contains("total"));
}

#[test]
fn show_search_solve_play_happy_paths() {
    let o = othello(&["show", START, "--moves", "f5d6", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = &json_lines(&o)[0];
    assert_eq!(v["black"], 3);
    assert_eq!(v["white"], 3);

    let o = othello(&["search", START, "--depth", "4", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines = json_lines(&o);
    let last = lines.last().unwrap();
    assert!(["d3", "c4", "f5", "e6"].contains(&last["best_move"].as_str().unwrap()));
    for key in ["score", "depth", "nodes", "time_ms"] {
        assert!(!last[key].is_null(), "{key}");
    }
    assert_eq!(lines.len(), 5, "four iterations then the result");
    for it in &lines[..4] {
        for key in ["depth", "score", "nodes", "time_ms", "pv"] {
            assert!(!it[key].is_null(), "{key}");
        }
    }
    let o = othello(&["search", "--engine", "mcts:playouts=300,seed=1", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));

    let file = temp_file("ffo1.obf", &format!("{FFO1}\n"));
    let o = othello(&["solve", file.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines = json_lines(&o);
    assert_eq!(lines[0]["score"], 18);
    assert_eq!(lines[0]["best_move"], "g8");
    assert_eq!(lines[0]["ok"], true);
    assert_eq!(lines[1]["positions"], 1);
    assert_eq!(lines[1]["mismatches"], 0);
    let o = othello(&["solve", FFO1.split(';').next().unwrap(), "--wld", "--json"]);
    assert_eq!(json_lines(&o)[0]["score"], 1);

    let o = othello(&args(
        "play random:seed=1 random:seed=2 --games 4 --size 6 --json --quiet",
        &[],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 5);
    let sum = &lines[4];
    assert_eq!(sum["games"], 4);
    assert_eq!(
        sum["wins"].as_u64().unwrap() + sum["draws"].as_u64().unwrap() + sum["losses"].as_u64().unwrap(),
        4
    );
    for g in &lines[..4] {
        for key in ["game", "opening", "a_color", "result", "a_discs", "b_discs"] {
            assert!(!g[key].is_null(), "{key}");
        }
    }
}

/// A position's node count in `othello solve` does not depend on the positions before it in
/// the file: each is solved from an empty table, as a fresh solver would.
#[test]
fn solve_counts_do_not_depend_on_earlier_positions() {
    let ffo1 = FFO1.split(';').next().unwrap();
    // The same position first: with the table kept, the second solve would find it stored.
    let before = ffo1;
    let nodes_of_last = |file: &std::path::Path| -> u64 {
        let o = othello(&["solve", file.to_str().unwrap(), "--json", "--quiet", "--hash", "16"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let lines = json_lines(&o);
        let per: Vec<&Value> = lines.iter().filter(|v| v.get("position").is_some()).collect();
        per.last().unwrap()["nodes"].as_u64().unwrap()
    };
    let alone = temp_file("alone.obf", &format!("{ffo1}\n"));
    let after = temp_file("after.obf", &format!("{before}\n{ffo1}\n"));
    let (a, b) = (nodes_of_last(&alone), nodes_of_last(&after));
    assert!(a > 0);
    assert_eq!(a, b, "FFO #1 alone: {a} nodes; after another position: {b}");
}

/// `othello search FILE.obf`: each position searched, the move scored against the listed
/// scores (a line without scores searched, not scored), then the tally; a line that lists some
/// moves but not all, and the single-position options, are bad input.
#[test]
fn search_scores_moves_against_an_obf_file() {
    let listed: Vec<(String, i64)> = FFO1
        .split(';')
        .skip(1)
        .filter(|f| !f.trim().is_empty())
        .map(|f| {
            let (m, v) = f.trim().split_once(':').unwrap();
            (m.to_lowercase(), v.trim_start_matches('+').parse().unwrap())
        })
        .collect();
    let file = temp_file("quality.obf", &format!("% comment\n{FFO1}\n{START}\n"));
    let path = file.to_str().unwrap();
    for depth in ["1", "3"] {
        let o = othello(&["search", path, "--depth", depth, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let lines = json_lines(&o);
        assert_eq!(lines.len(), 3);
        let first = &lines[0];
        assert_eq!(
            (first["n"].as_u64(), first["depth"].as_u64()),
            (Some(1), depth.parse().ok())
        );
        let chosen = first["best_move"].as_str().unwrap();
        let score = listed.iter().find(|(m, _)| m == chosen).unwrap().1;
        assert_eq!(
            (first["listed"].as_i64(), first["best"].as_i64()),
            (Some(score), Some(18))
        );
        assert_eq!(first["loss"].as_i64(), Some(18 - score));
        assert!(lines[1]["listed"].is_null() && lines[1]["loss"].is_null());
        assert_eq!(
            (first["book"].as_bool(), lines[1]["book"].as_bool()),
            (Some(false), Some(false))
        );
        assert_eq!(lines[1]["position"], START);
        let q = &lines[2]["quality"];
        assert_eq!(
            (q["positions"].as_u64(), q["unscored"].as_u64(), q["moves"].as_u64()),
            (Some(2), Some(1), Some(1))
        );
        assert_eq!(q["discs_lost"].as_i64(), Some(18 - score));
        assert_eq!(q["mistakes"].as_u64(), Some(u64::from(score < 18)));
        assert_eq!(q["by_empties"][0]["empties"].as_u64(), Some(60), "most empties first");
        assert_eq!(q["by_empties"][1]["empties"].as_u64(), Some(14));
        // The mean time is that of the positions' times (both in ms, rounded to a microsecond).
        let times: Vec<f64> = lines[..2].iter().map(|l| l["time_ms"].as_f64().unwrap()).collect();
        let mean = q["time_ms"].as_f64().unwrap();
        assert!(times.iter().all(|&t| t > 0.0 && t < 60_000.0), "{times:?}");
        assert!((mean - (times[0] + times[1]) / 2.0).abs() < 0.01, "{mean} {times:?}");
    }
    let o = othello(&["search", path, "--depth", "2"]);
    assert!(
        stdout(&o).contains("2 positions, 1 scored (1 list no scores)"),
        "{}",
        stdout(&o)
    );
    // Beyond the empties the search solves: an exact answer, the best move.
    let solved = temp_file("quality-solved.obf", &format!("{FFO1}\n"));
    for (depth, exact) in [("13", false), ("14", true)] {
        let lines = json_lines(&othello(&[
            "search",
            solved.to_str().unwrap(),
            "--depth",
            depth,
            "--json",
        ]));
        assert_eq!(lines[0]["exact"].as_bool(), Some(exact), "depth {depth}");
        assert_eq!(lines[1]["quality"]["exact"].as_u64(), Some(u64::from(exact)));
        assert_eq!(
            lines[1]["quality"]["by_empties"][0]["exact"].as_u64(),
            Some(u64::from(exact))
        );
        if exact {
            assert_eq!(
                (lines[0]["loss"].as_i64(), lines[0]["score"].as_f64()),
                (Some(0), Some(18.0))
            );
        }
    }
    // Bad input, before any search.
    let partial = FFO1.replace(" A4:-22; G2:-24;", "");
    let partial = temp_file("partial.obf", &format!("{START}\n{partial}\n"));
    let partial = partial.to_str().unwrap();
    let o = othello(&["search", partial, "--depth", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    assert!(
        stderr(&o).contains("position 2: lists 6 scores for 8 legal moves"),
        "{}",
        stderr(&o)
    );
    // A missing file that looks like one is named as such, by both commands that read OBF.
    for args in [
        vec!["search", "nosuch.obf", "--depth", "1"],
        vec!["solve", "dir/nosuch"],
    ] {
        let o = othello(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("no such file: "), "{args:?}: {}", stderr(&o));
    }
    let o = othello(&["search", "nosuchboard", "--depth", "1"]);
    assert!(stderr(&o).contains("bad position"), "{}", stderr(&o));
    for args in [
        vec!["search", path, "--moves", "f5"],
        vec!["search", path, "--size", "8"],
        vec!["search", path, "--svg", "x.svg"],
        vec!["search", path, "--depth", "0"],
        vec!["search", path, "--engine", "pvs:depth=2,eval=nosuchfeature"],
    ] {
        let o = othello(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_one_line(&args, &stderr(&o));
    }
}

#[test]
fn solve_mismatch_exits_1() {
    let wrong = FFO1.replace("G8:+18", "G8:+16").replace("H1:+12", "H1:+2");
    let file = temp_file("wrong.obf", &format!("{wrong}\n"));
    let o = othello(&["solve", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("MISMATCH"));
}

#[test]
fn nboard_session_with_pass() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
        .arg("nboard")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // A 4x4 game where white must pass: black's only move is a1.
    let script = format!(
        "nboard 2\nset depth 3\nping 1\nset game (;GM[Othello]BO[4 -O{} O];)\nmove PA\ngo\nhint 2\nlearn\nping 2\n",
        "*".repeat(14)
    );
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("set myname"), "{text}");
    assert!(text.contains("pong 1") && text.contains("pong 2"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("=== A1")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("search A1")), "{text}");
    assert!(text.contains("learned"));
}

/// `search` drives every engine through the `Player` layer: MCTS reports its node count,
/// playouts, the chosen move's visit share and mean result (no null among them), the random
/// player its move and zero nodes; neither has a centi-disc score or a depth.
#[test]
fn search_reports_mcts_figures_and_random_moves() {
    let o = othello(&["search", START, "--engine", "mcts:playouts=400,seed=3", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 1, "no iteration lines for MCTS");
    let r = &lines[0];
    for key in [
        "best_move",
        "nodes",
        "playouts",
        "visits",
        "visit_share",
        "mean_result",
        "time_ms",
    ] {
        assert!(!r[key].is_null(), "{key}: {r}");
    }
    assert!(
        ["d3", "c4", "f5", "e6"].contains(&r["best_move"].as_str().unwrap()),
        "{r}"
    );
    assert_eq!(r["nodes"], 400, "the iterations are the MCTS node count");
    let playouts = r["playouts"].as_u64().unwrap();
    assert!(playouts > 0 && playouts <= 400, "{r}");
    let share = r["visit_share"].as_f64().unwrap();
    assert!(share > 0.0 && share <= 1.0, "{r}");
    assert_eq!(r["visits"].as_f64().unwrap(), (share * 400.0).round(), "{r}");
    assert!((0.0..=1.0).contains(&r["mean_result"].as_f64().unwrap()), "{r}");
    assert!(
        r["score"].is_null() && r["depth"].is_null(),
        "MCTS has no centi-disc score: {r}"
    );
    let text = othello(&["search", START, "--engine", "mcts:playouts=400,seed=3"]);
    let line = stdout(&text);
    assert!(
        line.starts_with(&format!("bestmove {} mean ", r["best_move"].as_str().unwrap())) && line.contains("playouts"),
        "{line}"
    );

    let o = othello(&["search", START, "--engine", "random:seed=2", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = &json_lines(&o)[0];
    assert!(
        ["d3", "c4", "f5", "e6"].contains(&r["best_move"].as_str().unwrap()),
        "{r}"
    );
    assert_eq!((r["nodes"].as_u64(), r["score"].is_null()), (Some(0), true), "{r}");
    assert!(r.get("playouts").is_none(), "{r}");
}

#[test]
fn bad_inputs_exit_2_with_one_line() {
    let missing = std::env::temp_dir().join("othello-no-such-file.obf");
    let empty = temp_file("empty.obf", "");
    let corrupt = temp_file("corrupt.obf", "this is not a board\n");
    let bad_openings = temp_file("openings.txt", "f5f5\n");
    let cases: Vec<Vec<&str>> = vec![
        vec![
            "show",
            "---------------------------OX------XO--------------------------- Q",
        ],
        vec![
            "show",
            "---------------------------OX------XO---------------------------- X",
        ],
        vec![
            "show",
            "---------------------------OX------XA--------------------------- X",
        ],
        vec![
            "show",
            "---------------------------OX------XO---------------------------",
        ],
        vec!["show", START, "--moves", "f5f5"],
        vec!["show", START, "--moves", "z9"],
        vec!["show", START, "--moves", "pass"],
        vec!["perft", "--depth", "-1"],
        vec!["perft", "--depth", "1000"],
        vec!["perft", "--size", "5"],
        vec!["perft", "--size", "4", "--position", START],
        vec!["perft", "--frobnicate"],
        vec!["search", START, "--depth", "0"],
        vec!["search", START, "--depth", "-3"],
        vec!["search", START, "--engine", "pvs:nosuchkey=1"],
        vec!["search", START, "--engine", "nosuchengine"],
        vec!["search", START, "--engine", "pvs:depth=x"],
        vec!["search", START, "--engine", "pvs:eval=mobility*x"],
        vec!["search", START, "--engine", "pvs:eval=nosuchfeature"],
        vec!["search", START, "--engine", "mcts:c=-1"],
        vec!["solve", missing.to_str().unwrap()],
        vec!["solve", empty.to_str().unwrap()],
        vec!["solve", corrupt.to_str().unwrap()],
        vec!["play", "random", "random", "--games", "3"],
        vec!["play", "random", "nosuch", "--games", "2"],
        vec!["play", "random", "random", "--games", "2", "--sprt", "10,0"],
        vec!["play", "random", "random", "--games", "2", "--sprt", "0,1e308"],
        vec!["play", "random", "random", "--games", "2", "--sprt", "-1001,0"],
        vec!["stats", "--penta", "1,2,3,4,5", "--sprt", "0,inf"],
        args(
            "play random random --games 2 --openings",
            &[bad_openings.to_str().unwrap()],
        ),
        vec!["nosuchcommand"],
    ];
    assert!(cases.len() >= 15);
    for args in cases {
        let o = othello(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_one_line(&args, &err);
    }
}

/// One line naming the problem, plus clap's tip line where it gives one.
fn assert_one_line(args: &[&str], err: &str) {
    let lines: Vec<&str> = err.trim_end().lines().collect();
    assert!(
        lines.len() == 1 || (lines.len() == 2 && lines[1].starts_with("tip:")),
        "{args:?}: one line (and a tip) expected, got {err:?}"
    );
    assert!(!err.contains("panicked"), "{args:?}");
}

#[test]
fn unknown_options_are_option_errors_not_positions() {
    // (arguments, what the error names, what clap's tip names)
    let cases: [(&[&str], &str, Option<&str>); 6] = [
        (&["show", "--frobnicate"], "'--frobnicate'", None),
        (&["search", "--dpeth", "5"], "'--dpeth'", Some("'--depth'")),
        (&["solve", "--frobnicate"], "'--frobnicate'", None),
        (&["perft", "--dpeth", "3"], "'--dpeth'", Some("'--depth'")),
        (&["show", START, "--mvoes", "f5"], "'--mvoes'", Some("'--moves'")),
        (&["solve"], "<INPUT>", None),
    ];
    for (args, named, tip) in cases {
        let o = othello(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_one_line(args, &err);
        let first = err.lines().next().unwrap();
        assert!(first.starts_with("error: ") && first.contains(named), "{args:?}: {err}");
        assert!(!err.contains("board"), "{args:?} read as a position: {err}");
        if let Some(tip) = tip {
            let line = err.lines().nth(1).unwrap_or_else(|| panic!("{args:?}: no tip: {err}"));
            assert!(line.starts_with("tip:") && line.contains(tip), "{args:?}: {err}");
        }
    }
    // Positions whose board starts with '-' are still positions, before or after options.
    let ffo1 = FFO1.split(';').next().unwrap();
    for args in [
        vec!["show", START, "--json"],
        vec!["show", "--json", START],
        vec!["show", ffo1],
        vec!["search", START, "--depth", "1"],
        vec!["perft", START, "--depth", "1"],
    ] {
        let o = othello(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn directories_and_special_files_have_their_own_messages() {
    let dir = std::env::temp_dir();
    let o = othello(&["solve", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is a directory"), "{}", stderr(&o));
    let o = othello(&["solve", "/dev/null"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("empty input"), "{}", stderr(&o));
    let comments = temp_file("comments.obf", "# only a comment\n\n");
    let o = othello(&["solve", comments.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no positions"), "{}", stderr(&o));
    // A position on the command line still solves, and a pipe is read like a file.
    let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["solve", "/dev/stdin", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{FFO1}\n").as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json_lines(&o)[0]["score"], 18);
}

#[test]
fn tables_larger_than_the_memory_are_bad_input() {
    // No machine has this much memory available: every spelling of a table size says so.
    let huge = (u64::MAX >> 21).to_string();
    let spec = format!("pvs:tt={huge}");
    for args in [
        vec!["perft", "--depth", "1", "--hash", &huge],
        vec!["solve", START, "--hash", &huge],
        vec!["search", "--depth", "1", "--hash", &huge],
        vec!["search", "--depth", "1", "--engine", &spec],
        vec!["bench", "--depth", "1", "--hash", &huge],
    ] {
        let o = othello(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_one_line(&args, &stderr(&o));
        assert!(stderr(&o).contains("memory available"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn one_spelling_per_concept() {
    // perft takes the position as the other commands do; `--position` stays as an alias.
    let a = othello(&["perft", START, "--moves", "f5", "--depth", "3", "--json"]);
    let b = othello(&["perft", "--position", START, "--moves", "f5", "--depth", "3", "--json"]);
    assert!(a.status.success() && b.status.success(), "{}{}", stderr(&a), stderr(&b));
    let nodes = |o: &Output| {
        json_lines(o)
            .iter()
            .map(|v| v["nodes"].as_u64().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        nodes(&a),
        [3, 14, 61],
        "perft 2, 3, 4 of the start divided by its four symmetric moves"
    );
    assert_eq!(nodes(&a), nodes(&b));
    // `--hash` on search means the spec's `tt`.
    let o = othello(&["search", "--depth", "3", "--hash", "1", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = othello(&["search", "--depth", "3", "--hash", "1", "--engine", "mcts"]);
    assert_eq!(o.status.code(), Some(2), "mcts has no table");
    // The thread count is checked the same way everywhere.
    for args in [
        vec!["perft", "--threads", "0"],
        vec!["solve", START, "--threads", "0"],
        vec!["bench", "--threads", "0"],
        vec!["search", "--threads", "0"],
        vec!["search", "--engine", "pvs:threads=0"],
    ] {
        let o = othello(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("expected 1 to 256"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn speeds_are_integers_and_times_exclude_the_table() {
    let o = othello(&["search", "--depth", "3", "--json"]);
    for v in json_lines(&o) {
        if !v["nps"].is_null() {
            assert!(v["nps"].is_u64(), "{v}");
        }
    }
    let o = othello(&["perft", "--depth", "2", "--json"]);
    assert!(json_lines(&o).iter().all(|v| v["nps"].is_u64()));
    let o = othello(&["solve", FFO1.split(';').next().unwrap(), "--json"]);
    assert!(json_lines(&o)[0]["nps"].is_u64());
    // Allocating and clearing 256 MiB takes far longer than a depth-1 search (hundreds of
    // milliseconds against microseconds): the reported time must be the search's only.
    let o = othello(&["search", "--depth", "1", "--hash", "256", "--json"]);
    let ms = json_lines(&o).last().unwrap()["time_ms"].as_f64().unwrap();
    assert!(ms < 100.0, "the table's allocation is counted: {ms} ms");
}

#[test]
fn all_moves_reports_the_nodes_it_searched() {
    let ffo1 = FFO1.split(';').next().unwrap();
    let plain = json_lines(&othello(&["solve", ffo1, "--json"]));
    let all = json_lines(&othello(&["solve", ffo1, "--all-moves", "--json"]));
    let (p, a) = (plain[0]["nodes"].as_u64().unwrap(), all[0]["nodes"].as_u64().unwrap());
    // Scoring the eight moves exactly is more work than proving the best one.
    assert!(a > p, "all-moves {a} nodes, plain {p}");
    assert_eq!(all[1]["nodes"].as_u64().unwrap(), a);
    assert_eq!(all[0]["moves"].as_array().unwrap().len(), 8);
}

/// The bench signature: the total node count of `othello bench` at depth 6, single thread.
/// It changes only when the search's behaviour changes; update it on purpose (see
/// docs/BENCHMARKS.md, "The bench signature"). The default selectivity (`0@6`) cuts no node
/// of a search this shallow, so this is also the full-width count.
const BENCH_SIGNATURE_DEPTH_6: u64 = 110594;

/// The signature at depth 6 of selectivity level 2 everywhere (`--selectivity 2`, the
/// default before `0@8` and `0@6`), which cuts at every depth from 3.
const BENCH_SIGNATURE_LEVEL_2_DEPTH_6: u64 = 77390;

/// The level-2 signature with late-move reductions (`pvs:reductions=on,selectivity=2`;
/// reductions are off by default, and under `0@6` they start where the cuts do): their move
/// order and the plies they pass on (killers are kept per ply) show in the count.
const BENCH_SIGNATURE_REDUCTIONS_DEPTH_6: u64 = 65765;

/// The level-2 signature at depth 8, the first depth whose iterations skip one (`skipdepths`,
/// on by default: 1-6 then 8), and with every depth iterated (`skipdepths=off`).
const BENCH_SIGNATURE_DEPTH_8: [u64; 2] = [231783, 312552];

/// The default's signatures (`0@6`: level 0 from ply 6) at depths 8 and 10: 8 is the first
/// bench depth where it cuts nodes (the embedded cut table's pairs shallow by 2 plies or more,
/// so a cut needs depth 8: a shallow search to ply 6, such as 3 plies from a node at ply 3).
const BENCH_SIGNATURE_DEFAULT: [(u32, u64); 2] = [(8, 204026), (10, 439833)];

/// The same with a one-sided level-2 guard over the first 5 plies (`--selectivity 0@6/2:5r`,
/// the default for the evening of 2026-12-06), at depths 8 and 10.
const BENCH_SIGNATURE_ONE_SIDED: [(u32, u64); 2] = [(8, 245232), (10, 615745)];

/// The signature at depth 10 of `0@6` with a two-sided level-2 guard over its first 5 plies
/// (`--selectivity 0@6/2:5`, docs/search.md, "A guard near the root").
const BENCH_SIGNATURE_GUARDED_DEPTH_10: u64 = 814705;

#[test]
fn bench_signature() {
    let o = othello(&["bench", "--depth", "6", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines = json_lines(&o);
    let last = lines.last().unwrap();
    for key in ["positions", "nodes", "time_ms", "nps"] {
        assert!(!last[key].is_null(), "{key}");
    }
    for l in &lines[..lines.len() - 1] {
        for key in ["position", "best_move", "score", "nodes", "time_ms"] {
            assert!(!l[key].is_null(), "{key}");
        }
    }
    // Deterministic: the same count twice.
    let again = json_lines(&othello(&["bench", "--depth", "6", "--json"]));
    assert_eq!(again.last().unwrap()["nodes"], last["nodes"]);
    // The evaluations, and the evaluation cache's share of them, are as deterministic.
    let (evals, cached) = (last["evals"].as_u64().unwrap(), last["cached_evals"].as_u64().unwrap());
    assert_eq!(again.last().unwrap()["evals"], last["evals"]);
    assert_eq!(again.last().unwrap()["cached_evals"], last["cached_evals"]);
    assert!(
        0 < cached && cached < evals && evals < BENCH_SIGNATURE_DEPTH_6,
        "{cached} {evals}"
    );
    assert_eq!(
        last["nodes"].as_u64().unwrap(),
        BENCH_SIGNATURE_DEPTH_6,
        "bench signature changed"
    );
    let nodes_of = |args: &[&str]| -> u64 {
        let o = othello(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        json_lines(&o).last().unwrap()["nodes"].as_u64().unwrap()
    };
    let level_2 = nodes_of(&["bench", "--depth", "6", "--json", "--selectivity", "2"]);
    assert_eq!(
        level_2, BENCH_SIGNATURE_LEVEL_2_DEPTH_6,
        "level-2 bench signature changed"
    );
    // The default is the full-width search at this depth.
    let off = nodes_of(&["bench", "--depth", "6", "--json", "--selectivity", "off"]);
    assert_eq!(off, BENCH_SIGNATURE_DEPTH_6);
    let reduced = json_lines(&othello(&[
        "bench",
        "--depth",
        "6",
        "--json",
        "--engine",
        "pvs:reductions=on,selectivity=2",
    ]));
    assert_eq!(
        reduced.last().unwrap()["nodes"].as_u64().unwrap(),
        BENCH_SIGNATURE_REDUCTIONS_DEPTH_6,
        "bench signature with reductions changed"
    );
    for (spec, nodes) in ["pvs:selectivity=2", "pvs:selectivity=2,skipdepths=off"]
        .into_iter()
        .zip(BENCH_SIGNATURE_DEPTH_8)
    {
        let eight = json_lines(&othello(&["bench", "--depth", "8", "--json", "--engine", spec]));
        assert_eq!(
            eight.last().unwrap()["nodes"].as_u64().unwrap(),
            nodes,
            "bench signature at depth 8 of {spec} changed"
        );
    }
    // A guard: its own signature, named in the JSON; a guard at the base's level is the
    // base, and one over every ply at level 2 is `2@6`.
    let guarded = json_lines(&othello(&[
        "bench",
        "--depth",
        "10",
        "--json",
        "--selectivity",
        "0@6/2:5",
    ]));
    let last = guarded.last().unwrap();
    assert_eq!(last["selectivity"], "0@6/2:5");
    assert_eq!(last["nodes"].as_u64().unwrap(), BENCH_SIGNATURE_GUARDED_DEPTH_10);
    let at = |s: &str| nodes_of(&["bench", "--depth", "10", "--json", "--selectivity", s]);
    assert_eq!(at("0@6/0:5"), BENCH_SIGNATURE_DEFAULT[1].1);
    assert_eq!(at("0@6/0:5r"), BENCH_SIGNATURE_DEFAULT[1].1);
    assert_eq!(at("0@6/2:60"), at("2@6"));
    // The default names itself, and is `0@6` written out.
    let default = json_lines(&othello(&["bench", "--depth", "10", "--json"]));
    assert_eq!(default.last().unwrap()["selectivity"], "0@6");
    assert_eq!(at("0@6"), BENCH_SIGNATURE_DEFAULT[1].1);
    let bad = othello(&["bench", "--depth", "4", "--selectivity", "0@6/2:0"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("0@6/2:0"), "{}", stderr(&bad));
    for ((depth, nodes), (_, one_sided)) in BENCH_SIGNATURE_DEFAULT.into_iter().zip(BENCH_SIGNATURE_ONE_SIDED) {
        let depth = depth.to_string();
        let default = nodes_of(&["bench", "--depth", &depth, "--json"]);
        assert_eq!(default, nodes, "bench signature at depth {depth} changed");
        let off = nodes_of(&["bench", "--depth", &depth, "--json", "--selectivity", "off"]);
        assert!(
            default < off / 2,
            "the default cuts at depth {depth}: {default} against {off}"
        );
        let guarded = nodes_of(&["bench", "--depth", &depth, "--json", "--selectivity", "0@6/2:5r"]);
        assert_eq!(guarded, one_sided, "the signature of 0@6/2:5r at depth {depth} changed");
        assert!(default < guarded, "the guard searches more at depth {depth}");
    }
}

#[test]
fn bench_movetime_reports_the_overshoot_distribution() {
    let o = othello(&["bench", "--movetime", "5", "--count", "4", "--json", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 1);
    let v = &lines[0];
    assert_eq!(v["positions"], 4);
    assert_eq!(v["movetime_ms"], 5);
    let q: Vec<f64> = ["p50_ms", "p90_ms", "p99_ms", "worst_ms"]
        .iter()
        .map(|k| v[*k].as_f64().unwrap())
        .collect();
    assert!(q.windows(2).all(|w| w[0] <= w[1]), "{v}");
    // Overshoot = elapsed - limit, and elapsed times are positive.
    assert!(q[0] > -5.0, "{v}");
    for args in [
        vec!["bench", "--movetime", "0"],
        vec!["bench", "--movetime", "5", "--count", "0"],
        vec!["bench", "--movetime", "5", "--depth", "3"],
    ] {
        let o = othello(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn solve_orders_by_the_pattern_evaluation_on_8x8_only_by_default() {
    // A 6x6 position of 16 empties (no pattern tables) and FFO #40 (8x8, 20 empties: the
    // evaluation orders from 14 empties on), in one file.
    let six = "------XOOO--OOOO---OXO-X--OOOX-OOO-X X";
    let ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    let file = std::env::temp_dir().join(format!("othello-solve-auto-{}.obf", std::process::id()));
    std::fs::write(&file, format!("{six}\n{ffo40}\n")).unwrap();
    let nodes = |eval: Option<&str>| -> Vec<(i64, u64)> {
        let mut args = vec!["solve", file.to_str().unwrap(), "--json", "--hash", "16"];
        if let Some(e) = eval {
            args.extend(["--eval", e]);
        }
        json_lines(&othello(&args))
            .iter()
            .take(2)
            .map(|v| (v["score"].as_i64().unwrap(), v["nodes"].as_u64().unwrap()))
            .collect()
    };
    let (auto, none, pattern) = (nodes(None), nodes(Some("none")), nodes(Some("pattern")));
    std::fs::remove_file(&file).ok();
    // The same scores whatever orders the moves.
    assert_eq!(auto.iter().map(|x| x.0).collect::<Vec<_>>(), vec![30, 38]);
    assert!(none.iter().zip(&pattern).all(|(a, b)| a.0 == b.0) && none[0].0 == auto[0].0);
    // 6x6: the built-in ordering; 8x8: the pattern evaluation's.
    assert_eq!(auto[0].1, none[0].1);
    assert_eq!(auto[1].1, pattern[1].1);
    assert_ne!(auto[1].1, none[1].1);
}

#[test]
fn dash_reads_standard_input_wherever_a_file_is_read() {
    // A 4x4 position a few moves from its end: solved from standard input as from a file.
    let pos = "-XXO-OXO-XXO-OX- X";
    let from_file = othello(&[
        "solve",
        temp_file("four.obf", &format!("{pos}\n")).to_str().unwrap(),
        "-q",
        "--json",
    ]);
    let from_stdin = othello_stdin(&["solve", "-", "-q", "--json"], &format!("# a comment\n{pos}\n"));
    assert!(from_stdin.status.success(), "{}", stderr(&from_stdin));
    let (a, b) = (&json_lines(&from_file)[0], &json_lines(&from_stdin)[0]);
    assert_eq!(
        (a["score"].clone(), a["best"].clone()),
        (b["score"].clone(), b["best"].clone())
    );
    let o = othello_stdin(
        &["perft", "--positions", "-", "--depth", "3", "--json"],
        &format!("{START}\n"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json_lines(&o)[0]["nodes"], 56);
    let o = othello_stdin(
        &args("play random random --games 2 --openings - --json -q", &[]),
        "f5d6\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn empty_inputs_exit_2_for_every_command_that_reads_positions() {
    for input in ["", "# only a comment\n\n"] {
        for args in [vec!["solve", "-"], vec!["perft", "--positions", "-", "--depth", "2"]] {
            let o = othello_stdin(&args, input);
            assert_eq!(o.status.code(), Some(2), "{args:?} on {input:?}: {}", stderr(&o));
            assert!(stderr(&o).contains("standard input"), "{args:?}: {}", stderr(&o));
            assert!(stdout(&o).is_empty());
        }
    }
}

#[test]
fn negative_values_get_a_message_not_a_tip_that_does_not_work() {
    for (args, want) in [
        (vec!["perft", "--hash", "-5"], "bad --hash -5"),
        (vec!["solve", START, "--threads", "-2"], "bad --threads -2"),
        (vec!["play", "random", "random", "--tc", "-5+1"], "bad --tc"),
        (vec!["play", "random", "random", "--st", "-1"], "bad --st"),
        (vec!["stats", "--penta", "-1,2,3,4,5"], "bad --penta"),
    ] {
        let o = othello(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("-- -"), "{args:?}: clap's tip: {err}");
        assert_one_line(&args, &err);
    }
}

#[test]
fn a_flag_states_its_range_one_way() {
    for d in ["0", "99", "-1"] {
        let o = othello(&["bench", "--depth", d]);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains(&format!("bad --depth {d}: expected 1 to 60")),
            "{}",
            stderr(&o)
        );
    }
}
