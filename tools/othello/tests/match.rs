//! End-to-end tests of `othello play` as a match tool: in-process against external NBoard
//! engines (our own `othello nboard` and misbehaving scripts), clocks, concurrency, openings
//! files of each kind, GGF and JSON Lines records, and the statistics in the summary.

use othello_rules::{GgfGame, Move};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{BIN, args, array, read_json_lines};

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs `othello play ARGS --json -q`; returns the per-game lines and the summary.
fn play(args: &[&str]) -> (Vec<Value>, Value) {
    common::run_json(&[&["play"], args].concat())
}

/// Runs `othello play FLAGS --jsonl FILE --json -q` (FLAGS: white-space separated words) with
/// a fresh FILE named `name`; returns the per-game lines, the summary and the file's path.
fn play_jsonl(name: &str, flags: &str) -> (Vec<Value>, Value, PathBuf) {
    let jsonl = tmp(name);
    let _ = std::fs::remove_file(&jsonl);
    let (games, summary) = play(&args(flags, &["--jsonl", jsonl.to_str().unwrap()]));
    (games, summary, jsonl)
}

/// An engines file with our own NBoard engine (`self`) and each misbehaving script.
fn engines_file() -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines/misbehave.sh");
    let mut list = vec![serde_json::json!({
        "name": "self", "command": BIN, "args": ["nboard", "--engine", "pvs"], "restart": "on"
    })];
    for mode in [
        "crash", "hang", "illegal", "pass", "garbage", "chatter", "mute", "binary",
    ] {
        list.push(serde_json::json!({
            "name": format!("bad-{mode}"), "command": "sh",
            "args": [script.to_str().unwrap(), mode], "protocol": 1
        }));
    }
    // Tests run in parallel and share the file: each writes its own copy and renames it over
    // the shared one, so a reader never sees a file another test has just truncated.
    let path = tmp("engines.json");
    let own = tmp(&format!("engines.json.{:?}", std::thread::current().id()));
    std::fs::write(&own, serde_json::to_string(&list).unwrap()).unwrap();
    std::fs::rename(&own, &path).unwrap();
    path.to_str().unwrap().to_string()
}

fn moves_of(game: &Value) -> Vec<String> {
    array(game, "moves", Value::as_str)
        .into_iter()
        .map(String::from)
        .collect()
}

#[test]
fn in_process_and_external_self_play_identical_moves() {
    // pvs at depth 4 in this process against the same engine as an NBoard process: at fixed
    // depth both colours' searches see the same positions, so the two games of every pair
    // have the same moves and opposite results.
    let engines = engines_file();
    let (games, summary) = play(&["pvs:depth=4", "ext:name=self,depth=4", "--engines", &engines, "-g", "4"]);
    assert_eq!(summary["games"], 4);
    assert_eq!(games.len(), 4);
    let by_number = |n: u64| games.iter().find(|g| g["game"] == n).unwrap();
    for pair in 0..2 {
        let (a, b) = (by_number(2 * pair + 1), by_number(2 * pair + 2));
        assert_eq!(a["opening"], b["opening"]);
        assert_eq!(moves_of(a), moves_of(b), "pair {pair}");
        assert!(moves_of(a).len() > 20);
        assert_eq!(a["black_margin"], b["black_margin"]);
        assert_eq!(a["ending"], "scored");
    }
    assert_eq!(games[0]["white"], "self");
}

#[test]
fn misbehaving_engines_lose_with_the_reason_and_the_match_goes_on() {
    let engines = engines_file();
    for (mode, ending, reason) in [
        ("crash", "forfeit", "crashed"),
        ("illegal", "forfeit", "illegal move a1"),
        ("pass", "forfeit", "passed with a legal move"),
        ("garbage", "forfeit", "unreadable answer '=== banana'"),
        ("hang", "time", "no answer within"),
        ("chatter", "time", "no answer within"),
    ] {
        let name = format!("ext:name=bad-{mode}");
        let (games, summary) = play(&["random", &name, "--engines", &engines, "-g", "4", "--tc", "0.3"]);
        assert_eq!(summary["games"], 4, "{mode}");
        assert_eq!(summary["wins"], 4, "{mode}: {games:?}");
        for g in &games {
            assert_eq!(g["ending"], ending, "{mode}: {g}");
            assert!(g["reason"].as_str().unwrap().contains(reason), "{mode}: {g}");
        }
    }
    // No engine process outlives the match (the hanging one sleeps 987 s as a single process).
    let ps = Command::new("ps").args(["-eo", "args"]).output().unwrap();
    let text = String::from_utf8_lossy(&ps.stdout);
    assert!(
        !text.lines().any(|l| l.trim() == "sleep 987"),
        "a hung engine was left running"
    );
}

#[test]
fn hang_without_clock_uses_the_hang_timeout() {
    let engines = engines_file();
    let (games, summary) = play(&[
        "random",
        "ext:name=bad-hang",
        "--engines",
        &engines,
        "-g",
        "2",
        "--hang-timeout",
        "0.2",
    ]);
    assert_eq!(summary["wins"], 2);
    assert!(
        games[0]["reason"]
            .as_str()
            .unwrap()
            .contains("no answer within 0.200 s"),
        "{}",
        games[0]
    );
}

#[test]
fn an_engine_that_never_answers_is_reported_with_the_hang_timeout() {
    // No pong: the wait before each game is the hang timeout, and the reason says so.
    let engines = engines_file();
    for clock in [&[][..], &["--tc", "5"][..]] {
        let args = [
            &[
                "random",
                "ext:name=bad-mute",
                "--engines",
                &engines,
                "-g",
                "2",
                "--hang-timeout",
                "1",
            ],
            clock,
        ];
        let (games, summary) = play(&args.concat());
        assert_eq!(summary["wins"], 2, "{clock:?}");
        for g in &games {
            assert_eq!(g["ending"], "forfeit", "{g}");
            assert!(
                g["reason"].as_str().unwrap().ends_with("no answer within 1.000 s"),
                "{g}"
            );
        }
    }
}

#[test]
fn output_that_is_not_text_is_reported_as_such() {
    let engines = engines_file();
    let (games, summary) = play(&["random", "ext:name=bad-binary", "--engines", &engines, "-g", "2"]);
    assert_eq!(summary["wins"], 2);
    for g in &games {
        assert_eq!(g["ending"], "forfeit", "{g}");
        let reason = g["reason"].as_str().unwrap();
        assert!(
            reason.ends_with("bad output from engine bad-binary: not text (not UTF-8: bytes ff fe)"),
            "{g}"
        );
    }
}

/// What an engine that records its input receives before its first move, in a match of
/// `random` against it with `spec` (its name `rec`) and the extra `args`.
fn received(tag: &str, spec: &str, args: &[&str]) -> Vec<String> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines/misbehave.sh");
    let log = tmp(&format!("received-{tag}.txt"));
    let _ = std::fs::remove_file(&log);
    let list = serde_json::json!([{"name": "rec", "command": "sh",
        "args": [script.to_str().unwrap(), "record", log.to_str().unwrap()]}]);
    let engines = tmp(&format!("engines-{tag}.json"));
    std::fs::write(&engines, list.to_string()).unwrap();
    play(
        &[
            &["random", spec, "--engines", engines.to_str().unwrap(), "-g", "2"],
            args,
        ]
        .concat(),
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<String> = text.lines().map(|l| l.trim().to_string()).collect();
    assert!(lines.iter().any(|l| l == "go"), "{tag}: {lines:?}");
    lines
}

/// An engine that asks for its moves one at a time (`"moves": "move"`, as the NBoard GUI
/// tells them) gets one `set game` a game, then a timed `move` line for every move, its own
/// included; `othello nboard` plays such games to their end under a clock.
#[test]
fn an_engine_told_its_moves_one_at_a_time_plays_whole_games() {
    let log = tmp("told-by-move.txt");
    let _ = std::fs::remove_file(&log);
    let command = format!("tee -a '{}' | '{BIN}' nboard --engine pvs", log.to_str().unwrap());
    let list = serde_json::json!([{"name": "bymove", "command": "sh", "args": ["-c", command], "moves": "move"}]);
    let engines = tmp("engines-bymove.json");
    std::fs::write(&engines, list.to_string()).unwrap();
    let (games, summary) = play(&[
        "pvs:depth=2",
        "ext:name=bymove,depth=2",
        "--engines",
        engines.to_str().unwrap(),
        "-g",
        "2",
        "--tc",
        "60",
    ]);
    assert_eq!(summary["games"], 2);
    for g in &games {
        assert_eq!(g["ending"], "scored", "{g}");
        assert!(moves_of(g).len() > 50, "{g}");
    }
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.iter().filter(|l| l.starts_with("set game ")).count(), 2, "{text}");
    let moves: Vec<&str> = lines.iter().copied().filter(|l| l.starts_with("move ")).collect();
    // Every move after each game's first `go` reaches the engine, with the time it took.
    assert!(moves.len() > 50, "{text}");
    assert!(moves.iter().all(|l| l.contains("//")), "{text}");
    // The first game: a `set game`, a `go`, then only moves and `go`s (and depths).
    let first_go = lines.iter().position(|l| *l == "go").unwrap();
    let second_game = lines.iter().rposition(|l| l.starts_with("set game ")).unwrap();
    assert!(
        lines[first_go..second_game]
            .iter()
            .all(|l| l.starts_with("move ") || *l == "go" || l.starts_with("ping ")),
        "{text}"
    );
}

#[test]
fn no_depth_and_no_clock_sends_no_depth() {
    let depths =
        |lines: Vec<String>| -> Vec<String> { lines.into_iter().filter(|l| l.starts_with("set depth")).collect() };
    // Neither: the engine keeps its own default limits (60 would make a full-width engine search
    // for hours).
    assert_eq!(depths(received("none", "ext:name=rec", &[])), Vec::<String>::new());
    // A clock decides, under a depth of 60; a spec's depth is sent as it is, with or without one.
    assert_eq!(
        depths(received("st", "ext:name=rec", &["--st", "0.5"]))[0],
        "set depth 60"
    );
    assert_eq!(
        depths(received("tc", "ext:name=rec", &["--tc", "5"]))[0],
        "set depth 60"
    );
    assert_eq!(depths(received("depth", "ext:name=rec,depth=7", &[]))[0], "set depth 7");
    assert_eq!(
        depths(received("both", "ext:name=rec,depth=7", &["--tc", "5"]))[0],
        "set depth 7"
    );
}

#[test]
fn clocks_with_increment_records_and_concurrency() {
    let ggf = tmp("clock.ggf");
    let jsonl = tmp("clock.jsonl");
    let _ = std::fs::remove_file(&ggf);
    let _ = std::fs::remove_file(&jsonl);
    let files = ["--ggf", ggf.to_str().unwrap(), "--jsonl", jsonl.to_str().unwrap()];
    let flags = "pvs mcts:playouts=100000 --tc 0.4+0.02 --margin 200 -g 4 --concurrency 2";
    let (games, summary) = play(&args(flags, &files));
    assert_eq!(summary["games"], 4);
    assert_eq!(summary["time_control"], "0.4+0.02");
    assert_eq!(summary["concurrency"], 2);
    let mut numbers: Vec<u64> = games.iter().map(|g| g["game"].as_u64().unwrap()).collect();
    numbers.sort();
    assert_eq!(numbers, vec![1, 2, 3, 4]);
    // Each side's moves fit its clock: replaying the clock (0.4 s, +0.02 s after each move the
    // side was asked for; the runner's forced passes cost nothing), no move took more than
    // the time left plus the 0.2 s margin, and what the games report is consistent with it.
    for g in &games {
        if g["ending"] != "scored" {
            continue;
        }
        let moves = moves_of(g);
        let times = array(g, "times", Value::as_f64);
        let mut left = [0.4f64, 0.4];
        for (i, (m, t)) in moves.iter().zip(&times).enumerate() {
            if m == "pass" {
                assert_eq!(*t, 0.0);
                continue;
            }
            let side = i % 2;
            assert!(
                *t <= left[side] + 0.2 + 1e-6,
                "move {i}: {t} s with {} s left",
                left[side]
            );
            left[side] = (left[side] - t).max(0.0) + 0.02;
        }
    }
    // The GGF file parses back to the same games as the JSON Lines file.
    let records: Vec<GgfGame> = std::fs::read_to_string(&ggf)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    let lines = read_json_lines(&jsonl);
    assert_eq!((records.len(), lines.len()), (4, 4));
    for (r, j) in records.iter().zip(&lines) {
        assert_eq!(r.time_control.as_deref(), Some("0.4/0.02/"));
        let opening = j["opening"].as_str().unwrap().len() / 2;
        let played: Vec<String> = r.moves[opening..].iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(played, moves_of(j));
        let times: Vec<f64> = r.moves[opening..].iter().map(|m| m.time.unwrap()).collect();
        assert_eq!(times, array(j, "times", Value::as_f64));
        assert_eq!(
            r.result.as_ref().unwrap().black_margin,
            j["black_margin"].as_f64().unwrap()
        );
        assert_eq!(r.black, j["black"].as_str().unwrap());
        if j["ending"] == "scored" {
            let p = r.final_position();
            assert!(p.is_game_over());
            assert_eq!(p.final_score_black() as f64, r.result.as_ref().unwrap().black_margin);
        }
        // The pvs moves carry its evaluation.
        let pvs_black = r.black == "pvs";
        let first = &r.moves[opening..]
            .iter()
            .find(|m| (m.color == othello_rules::Color::Black) == pvs_black && m.mv != Move::Pass);
        assert!(first.unwrap().eval.is_some());
    }
}

#[test]
fn a_fixed_move_time_is_used_and_not_exceeded() {
    // 50 ms a move: the runner tells the engine 45 ms (5 ms kept in hand), records it per move,
    // and the engine spends the whole of it while the game is not solved. The assertions on
    // wall time allow a loaded machine's scheduler: a move may not take longer than the time
    // plus the margin (else it would have lost on time), and the early moves (not solved
    // yet, where only the deadline stops the search) take at least half of it, which a
    // search that stopped at half its time and skipped iterations would not reach reliably.
    let (games, summary, _) = play_jsonl("st.jsonl", "pvs pvs:tt=16 --st 0.05 --margin 500 -g 2");
    assert_eq!(summary["games"], 2);
    assert_eq!(summary["time_control"], "st=0.05");
    for side in ["a_time_used", "b_time_used"] {
        let share = summary[side].as_f64().unwrap();
        assert!(share > 0.0 && share < 1.5, "{side} {share}");
    }
    for g in &games {
        assert_eq!(g["ending"], "scored", "{g}");
        let times = array(g, "times", Value::as_f64);
        let colors = array(g, "colors", Value::as_str);
        assert_eq!(colors.len(), times.len());
        for (i, (m, t)) in moves_of(g).iter().zip(&times).enumerate() {
            if m == "pass" {
                assert_eq!(*t, 0.0);
                continue;
            }
            assert_eq!(g["limits"][i].as_f64(), Some(0.045), "move {i}");
            assert!(*t <= 0.05 + 0.5, "move {i}: {t} s");
        }
        for color in ["black", "white"] {
            let early: Vec<f64> = times
                .iter()
                .zip(&colors)
                .filter(|(_, c)| **c == color)
                .map(|(t, _)| *t)
                .take(8)
                .collect();
            let mean = early.iter().sum::<f64>() / early.len() as f64;
            assert!(mean >= 0.025, "{color}: {early:?}");
        }
        let share = |k: &str| g[k].as_f64().unwrap();
        assert!(share("a_time_used") > 0.0 && share("b_time_used") > 0.0);
        // The searched moves (a choice and no exact result) carry the time: their share is
        // at least that of all moves, which include forced and solved ones.
        for side in ["a", "b"] {
            let searched = share(&format!("{side}_time_searched"));
            assert!(searched >= share(&format!("{side}_time_used")) - 1e-9, "{side}: {g}");
            // A fixed time has no clock to leave over.
            assert!(g[format!("{side}_time_left")].is_null() && g[format!("{side}_least_left")].is_null());
        }
    }
}

#[test]
fn a_short_clock_is_used_without_a_flag_and_reported() {
    // 2 s + 50 ms a move, the default engine on both sides, no margin: no move may take more
    // than the time left, and the clock is spent, not hoarded. One pair, both games at once:
    // the clocks bound the run at about 7 s of wall time. The move overhead is 300 ms, not the
    // default 100: the test suite runs this beside other tests on as few as two cores, where
    // a search process can be starved for longer than 100 ms (a flag seen once that way).
    let (games, summary, jsonl) = play_jsonl("tc.jsonl", "pvs pvs --tc 2+0.05 --overhead 300 -g 2 --concurrency 2");
    assert_eq!(
        (summary["games"].as_u64(), summary["flags"].as_u64()),
        (Some(2), Some(0)),
        "{summary}"
    );
    assert_eq!(summary["time_control"], "2+0.05");
    let written = read_json_lines(&jsonl);
    assert_eq!(written.len(), 2);
    for record in games.iter().chain(&written) {
        assert_eq!(record["ending"], "scored", "{record}");
    }
    for side in ["a", "b"] {
        let key = |k: &str| format!("{side}_{k}");
        for record in games.iter().chain(&written) {
            let used = record[key("time_used")].as_f64().unwrap();
            let left = record[key("time_left")].as_f64().unwrap();
            let least = record[key("least_left")].as_f64().unwrap();
            // Given 2 s plus 50 ms for each of its moves; more than a third of it used.
            assert!(used > 0.33 && used <= 1.0, "{side}: {used}");
            assert!(
                left > 0.0 && least > 0.0 && least <= left + 0.05,
                "{side}: {left} {least}"
            );
            // The searched-move share is for a fixed time per move only.
            assert!(record[key("time_searched")].is_null());
        }
        for k in ["time_used", "time_left", "least_left"] {
            assert!(summary[key(k)].as_f64().is_some_and(|v| v > 0.0), "{k}: {summary}");
        }
        assert!(summary[key("time_searched")].is_null(), "{summary}");
    }
}

/// Deterministic players from one opening replay the same two games (one per colour): the
/// summary counts the distinct games and says, in text, that the interval is then too narrow.
#[test]
fn repeated_games_are_counted_and_flagged() {
    let path = tmp("one-opening.txt");
    std::fs::write(&path, "f5d6c3\n").unwrap();
    let file = path.to_str().unwrap();
    let (games, summary) = play(&["pvs:depth=2", "pvs:depth=1", "--openings", file, "-g", "6"]);
    assert_eq!((games.len(), summary["distinct_games"].as_u64()), (6, Some(2)));
    // Two openings, one game each way: all distinct, and the text says nothing of repeats.
    std::fs::write(&path, "f5d6c3\nf5f6\n").unwrap();
    let (_, summary) = play(&["pvs:depth=2", "pvs:depth=1", "--openings", file, "-g", "4"]);
    assert_eq!(summary["distinct_games"], 4);
    let text = |g: &str| common::othello_ok(&["play", "pvs:depth=2", "pvs:depth=1", "--openings", file, "-g", g, "-q"]);
    assert!(!text("2").contains("distinct"));
    // Four games of one opening: two distinct, and the text says so.
    std::fs::write(&path, "f5d6c3\n").unwrap();
    assert!(
        text("4").contains("only 2 distinct (repeated games are not independent"),
        "{}",
        text("4")
    );
    // `stats --records` counts them from the records, in JSON and in text.
    let (_, _, jsonl) = play_jsonl(
        "repeats.jsonl",
        &format!("pvs:depth=2 pvs:depth=1 --openings {file} -g 6"),
    );
    let records = jsonl.to_str().unwrap();
    let (_, summary) = common::run_json(&["stats", "--records", records]);
    assert_eq!(
        (summary["games"].as_u64(), summary["distinct_games"].as_u64()),
        (Some(6), Some(2))
    );
    assert!(common::othello_ok(&["stats", "--records", records]).contains("only 2 distinct"));
}

#[test]
fn openings_files_of_each_kind_and_seeded_order() {
    let start = "---------------------------O*------*O---------------------------";
    let files = [
        ("moves.txt", "# comment\nf5d6c3\nf5f6\n".to_string(), ["f5d6c3", "f5f6"]),
        (
            "games.ggf",
            format!("(;GM[Othello]BO[8 {start} *]B[F5]W[D6]B[C3];)\n(;GM[Othello]BO[8 {start} *]B[F5]W[F6];)\n"),
            ["f5d6c3", "f5f6"],
        ),
        (
            "positions.obf",
            "---------------------------OX------XXX-------------------------- O;\n\
             ---------------------------OX------XXX-------------------------- O; again\n"
                .to_string(),
            [
                "---------------------------OX------XXX-------------------------- O",
                "---------------------------OX------XXX-------------------------- O",
            ],
        ),
    ];
    for (name, text, labels) in files {
        let path = tmp(name);
        std::fs::write(&path, text).unwrap();
        let (games, summary) = play(&["pvs:depth=1", "random", "--openings", path.to_str().unwrap(), "-g", "4"]);
        assert_eq!(summary["games"], 4);
        let got: Vec<&str> = games.iter().map(|g| g["opening"].as_str().unwrap()).collect();
        assert_eq!(got, vec![labels[0], labels[0], labels[1], labels[1]], "{name}");
    }
    // A seed shuffles the built-in set reproducibly.
    let order = |seed: &str| -> Vec<String> {
        let (games, _) = play(&["random", "random:seed=1", "--seed", seed, "-g", "8"]);
        games
            .iter()
            .map(|g| g["opening"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(order("5"), order("5"));
    assert_ne!(order("5"), order("6"));
}

#[test]
fn adjudication_keeps_the_perfect_play_result() {
    // At 14 empties the solver decides: an adjudicated game's margin is the exact score of its
    // last position, so it has few moves after the opening and ends "adjudicated".
    let (games, summary) = play(&["pvs:depth=2,eval=default", "random", "--adjudicate", "14", "-g", "2"]);
    assert_eq!(summary["games"], 2);
    for g in &games {
        assert_eq!(g["ending"], "adjudicated");
        assert_eq!(moves_of(g).len() + 4, 60 - 14);
    }
}

#[test]
fn summary_statistics_of_a_sweep() {
    // pvs at depth 3 beats the random player in every game: 3 pairs WW. The summary keeps the
    // old keys, reports no Elo (100%), LOS 1, and the SPRT's LLR for [0, 10] computed by hand in
    // stats.rs (0.085160: far from 2.944, so "continue").
    let (_, s) = play(&["pvs:depth=3", "random", "-g", "6", "--sprt", "0,10"]);
    for key in ["games", "wins", "draws", "losses", "score", "elo", "elo_error", "sprt"] {
        assert!(s.get(key).is_some(), "{key}");
    }
    assert_eq!(s["wins"], 6);
    assert_eq!(s["pentanomial"], serde_json::json!([0, 0, 0, 0, 3]));
    assert_eq!(s["elo"], Value::Null);
    assert_eq!(s["elo_error"], Value::Null);
    assert_eq!(s["los"], 1.0);
    assert_eq!(s["sprt"], "continue");
    assert!((s["llr"].as_f64().unwrap() - 0.085160).abs() < 1e-5, "{s}");
    assert!((s["llr_bounds"][1].as_f64().unwrap() - 2.944439).abs() < 1e-6);
    assert_eq!(s["sprt_model"], "logistic");
}

#[test]
fn bad_match_input() {
    for args in [
        vec!["random", "random", "--concurrency", "0"],
        vec!["random", "random", "--tc", "abc"],
        vec!["random", "random", "--st", "0"],
        vec!["random", "ext:name=x"],
        vec!["random", "random", "--engines", "/nonexistent/engines.json"],
        vec!["random", "random", "--openings", "/nonexistent/openings.txt"],
        vec!["random", "random", "--sprt", "0,10", "--sprt-model", "bayes"],
        vec!["random", "random", "--adjudicate", "65"],
    ] {
        let out = Command::new(BIN).arg("play").args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

/// `stats --mistakes` on a match's records: per side and per number of empties, and
/// consistent with `--exact-at` at the same count: for each game, A's result as played is its
/// exact result there plus the points B's moves lost minus those A's moves lost. Threads do
/// not change it; bad values are bad input.
#[test]
fn mistakes_account_for_the_games_from_the_exact_results() {
    let (_, _, jsonl) = play_jsonl("mistakes.jsonl", "pvs:depth=1 random --size 6 -g 12 --seed 3");
    let records = jsonl.to_str().unwrap();
    for empties in ["10", "6"] {
        let summary = |threads: &str| {
            let args = [
                "stats",
                "--records",
                records,
                "--mistakes",
                empties,
                "--exact-at",
                empties,
                "--threads",
                threads,
            ];
            common::run_json(&args).1
        };
        let (one, two) = (summary("1"), summary("2"));
        assert_eq!(one["mistakes"], two["mistakes"]);
        assert_eq!(one["exact_at"], two["exact_at"]);
        let m = &one["mistakes"];
        let e = &one["exact_at"];
        assert_eq!(m["games"], 12);
        assert_eq!(m["max_empties"].as_u64(), Some(empties.parse().unwrap()));
        let (a_lost, b_lost) = (
            m["a"]["points_lost"].as_f64().unwrap(),
            m["b"]["points_lost"].as_f64().unwrap(),
        );
        let played = e["played_score"].as_f64().unwrap();
        let exact = e["exact_score"].as_f64().unwrap();
        assert!((played - exact - (b_lost - a_lost) / 12.0).abs() < 1e-9, "{m} {e}");
        // The random player errs at these counts; the rows add up to the totals.
        assert!(m["b"]["mistakes"].as_u64().unwrap() > 0, "{m}");
        let rows = m["by_empties"].as_array().unwrap();
        for side in ["a", "b"] {
            for key in ["moves", "mistakes", "discs_lost"] {
                let sum: u64 = rows.iter().map(|r| r[side][key].as_u64().unwrap()).sum();
                assert_eq!(sum, m[side][key].as_u64().unwrap(), "{side} {key}");
            }
        }
        assert!(
            rows.iter()
                .all(|r| r["empties"].as_u64().unwrap() <= m["max_empties"].as_u64().unwrap())
        );
    }
    let text = common::othello_ok(&["stats", "--records", records, "--mistakes", "4"]);
    assert!(
        text.contains(
            "mistakes at 4 empties or fewer (exact solves), 12 games: A pvs:depth=1 on the left, B random on the right"
        ),
        "{text}"
    );
    assert!(text.lines().last().unwrap().trim_start().starts_with("total"), "{text}");
    for (bad, why) in [
        (vec!["--mistakes", "31"], "bad --mistakes 31"),
        (vec!["--mistakes", "x"], "--mistakes"),
        (vec!["--mistakes", "4", "--threads", "0"], "--threads"),
    ] {
        let out = common::othello(&[&["stats", "--records", records][..], &bad].concat());
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(why), "{bad:?}");
    }
    let out = common::othello(&["stats", "--penta", "1,2,3,4,5", "--mistakes", "4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--mistakes solves the games of --records"));
}

/// `stats --time-by-empties` on a match's records: each side's moves, time and depths per
/// band, tallied again here from the records' own arrays (passes left out); bad values and
/// `--penta` counts are bad input.
#[test]
fn time_by_empties_tallies_each_sides_moves() {
    let (games, _, jsonl) = play_jsonl("time-use.jsonl", "pvs:depth=2 random --size 6 -g 6 --seed 5");
    let records = jsonl.to_str().unwrap();
    for band in [1u64, 5, 61] {
        let (_, s) = common::run_json(&["stats", "--records", records, "--time-by-empties", &band.to_string()]);
        let t = &s["time_by_empties"];
        assert_eq!(t["band"], band);
        // moves, microseconds, depth sum per (side, band high end), from the records.
        let mut want = std::collections::BTreeMap::<(usize, u64), (u64, u64, u64)>::new();
        for g in &games {
            let a = g["a_color"].as_str().unwrap();
            // 6x6 openings: empties after the opening from the board size and its moves.
            let mut empties = 32 - g["opening"].as_str().unwrap().len() as u64 / 2;
            for (i, mv) in g["moves"].as_array().unwrap().iter().enumerate() {
                let pass = mv.as_str().unwrap().eq_ignore_ascii_case("pass")
                    || mv.as_str().unwrap().eq_ignore_ascii_case("pa");
                if !pass {
                    let side = usize::from(g["colors"][i].as_str().unwrap() != a);
                    let high = 60 - (60 - empties) / band * band;
                    let e = want.entry((side, high)).or_default();
                    e.0 += 1;
                    e.1 += (g["times"][i].as_f64().unwrap() * 1e6).round() as u64;
                    e.2 += g["depths"][i].as_u64().unwrap_or(0);
                    empties -= 1;
                }
            }
        }
        let rows = t["rows"].as_array().unwrap();
        let mut got = std::collections::BTreeMap::new();
        for r in rows {
            let high = r["empties_max"].as_u64().unwrap();
            assert_eq!(r["empties_min"].as_u64().unwrap(), high.saturating_sub(band - 1));
            for (side, key) in [(0, "a"), (1, "b")] {
                let c = &r[key];
                let moves = c["moves"].as_u64().unwrap();
                if moves > 0 {
                    let depth = c["mean_depth"]
                        .as_f64()
                        .map_or(0, |d| (d * moves as f64).round() as u64);
                    got.insert(
                        (side, high),
                        (moves, (c["seconds"].as_f64().unwrap() * 1e6).round() as u64, depth),
                    );
                }
            }
        }
        assert_eq!(got, want, "band {band}");
        let all_a: u64 = want.iter().filter(|(k, _)| k.0 == 0).map(|(_, v)| v.0).sum();
        assert_eq!(t["all"]["a"]["moves"].as_u64(), Some(all_a));
        // Rows come most empties first.
        let highs: Vec<u64> = rows.iter().map(|r| r["empties_max"].as_u64().unwrap()).collect();
        assert!(highs.windows(2).all(|w| w[0] > w[1]), "{highs:?}");
    }
    let text = common::othello_ok(&["stats", "--records", records, "--time-by-empties", "8"]);
    assert!(text.contains("time by empties (A = pvs:depth=2, B = random)"), "{text}");
    assert!(text.lines().last().unwrap().trim_start().starts_with("all |"), "{text}");
    for bad in ["0", "62", "x"] {
        let out = common::othello(&["stats", "--records", records, "--time-by-empties", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("--time-by-empties"),
            "{bad}"
        );
    }
    let out = common::othello(&["stats", "--penta", "1,2,3,4,5", "--time-by-empties", "8"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--time-by-empties reads the games of --records"));
    // Records without times: a short error naming the game.
    let bare = tmp("time-use-bare.jsonl");
    std::fs::write(
        &bare,
        "{\"game\":1,\"a_color\":\"black\",\"result\":\"win\",\"opening\":\"f5\",\"moves\":[\"f6\"]}\n",
    )
    .unwrap();
    let out = common::othello(&["stats", "--records", bare.to_str().unwrap(), "--time-by-empties", "8"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("game 1: no colors, times and depths"),
        "{out:?}"
    );
}

/// `stats --records R --against S`: two runs of the same openings compared pair by pair, the
/// figures equal to a direct computation from the records; runs of other openings, and
/// `--against` with `--penta`, exit 2.
#[test]
fn stats_against_compares_two_runs_pair_by_pair() {
    let (first, _, a) = play_jsonl("against-a.jsonl", "pvs:depth=2 pvs:depth=3 -g 12 --seed 5");
    let (second, _, b) = play_jsonl("against-b.jsonl", "pvs:depth=1 pvs:depth=3 -g 12 --seed 5");
    let points = |games: &[Value]| -> Vec<f64> {
        let mut by_pair = vec![0.0; 6];
        for g in games {
            let n = g["game"].as_u64().unwrap() as usize;
            let p = match g["result"].as_str().unwrap() {
                "win" => 1.0,
                "draw" => 0.5,
                _ => 0.0,
            };
            by_pair[(n - 1) / 2] += p / 2.0;
        }
        by_pair
    };
    let (pa, pb) = (points(&first), points(&second));
    let diffs: Vec<f64> = pa.iter().zip(&pb).map(|(x, y)| x - y).collect();
    // Deterministic players: the pairs' results differ from one another and between the runs,
    // so that a wrong pairing or a wrong difference shows.
    assert!(diffs.iter().filter(|&&d| d != 0.0).count() >= 2, "{diffs:?}");
    assert!(pa.iter().any(|&p| p != pa[0]), "{pa:?}");
    let mean = diffs.iter().sum::<f64>() / 6.0;
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / 5.0;
    fn args<'a>(records: &'a Path, against: &'a Path) -> [&'a str; 5] {
        let s = |p: &'a Path| p.to_str().unwrap();
        ["stats", "--records", s(records), "--against", s(against)]
    }
    let (_, summary) = common::run_json(&args(&a, &b));
    let v = &summary["against"];
    assert_eq!(
        (v["pairs"].as_u64(), v["unmatched_pairs"].as_u64()),
        (Some(6), Some(0)),
        "{v}"
    );
    let close = |key: &str, want: f64| {
        let got = v[key].as_f64().unwrap_or(f64::NAN);
        assert!((got - want).abs() < 1e-9, "{key}: {got} != {want}");
    };
    close("difference", mean);
    close("difference_error", 1.96 * (var / 6.0).sqrt());
    close("score", pa.iter().sum::<f64>() / 6.0);
    close("against_score", pb.iter().sum::<f64>() / 6.0);
    let text = common::othello_ok(&args(&a, &b));
    assert!(text.contains("\nagainst: 6 common game pairs, A's score"), "{text}");
    // A run that shares the first pair's opening and then differs (the records of the first
    // run with games 5 and 6, the third pair, given another opening) is refused, naming that
    // pair's games and openings.
    let other = "f5f6e6f4";
    let c = tmp("against-c.jsonl");
    let edited: String = std::fs::read_to_string(&a)
        .unwrap()
        .lines()
        .map(|line| {
            let mut g: Value = serde_json::from_str(line).unwrap();
            if g["game"] == 5 || g["game"] == 6 {
                assert_ne!(g["opening"], other);
                g["opening"] = other.into();
            }
            format!("{g}\n")
        })
        .collect();
    std::fs::write(&c, edited).unwrap();
    let out = common::othello(&args(&a, &c));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let original = first.iter().find(|g| g["game"] == 5).unwrap()["opening"]
        .as_str()
        .unwrap();
    let named = format!(
        "games 5 and 6 open with {original} in --records and {other} in --against: compare runs of the same openings"
    );
    assert!(err.contains(&named) && err.lines().count() == 1, "{err}");
    let out = common::othello(&["stats", "--penta", "1,2,3,4,5", "--against", a.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}
