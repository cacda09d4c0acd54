//! End-to-end tests of a human player in `othello play` (`othello play human pvs:depth=1`),
//! driven through piped standard input: a scripted game recorded as any other, `undo`, `hint`,
//! refused lines, the end of the input, clocks, and the flags' bad input.
//!
//! The human's script is "every square a1..h8, in turn, many times over": each turn plays the
//! first legal square read, so the game is fixed by the engine's (deterministic) answers.

use othello_engine::{Limits, Player};
use othello_rules::{Color, Move, Position, Square};
use othello_spec::Engine;
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

mod common;
use common::othello_stdin;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-human-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Every square, a line each, `times` times over.
fn squares(times: usize) -> String {
    Square::all()
        .map(|sq| format!("{sq}\n"))
        .collect::<String>()
        .repeat(times)
}

/// `othello play ARGS --jsonl FILE` with `input`: the output and the records.
fn play(name: &str, args: &[&str], input: &str) -> (Output, Vec<Value>) {
    let jsonl = tmp(&format!("{name}.jsonl"));
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--jsonl", jsonl.to_str().unwrap()]);
    let out = othello_stdin(&all, input);
    let text = std::fs::read_to_string(&jsonl).unwrap_or_default();
    let records = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    (out, records)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The fields of a record that do not depend on timing: the moves, their colours, and each
/// move's evaluation, depth and nodes.
fn line(rec: &Value) -> Vec<Value> {
    ["moves", "colors", "evals", "depths", "nodes"]
        .iter()
        .map(|k| rec[k].clone())
        .collect()
}

fn moves(rec: &Value) -> Vec<Move> {
    rec["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().parse().unwrap())
        .collect()
}

/// The straight game: the human black, its script the squares in turn, against pvs:depth=1.
fn straight(name: &str) -> Value {
    let (out, recs) = play(&format!("{name}-straight"), &["human", "pvs:depth=1"], &squares(40));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(recs.len(), 1);
    recs[0].clone()
}

#[test]
fn a_scripted_game_against_pvs_is_recorded_with_the_engines_own_moves() {
    let ggf = tmp("game.ggf");
    let (out, recs) = play(
        "full",
        &["human", "pvs:depth=1", "--ggf", ggf.to_str().unwrap()],
        &squares(40),
    );
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert_eq!(recs.len(), 1, "one game by default");
    let rec = &recs[0];
    assert_eq!(
        (rec["black"].as_str(), rec["white"].as_str()),
        (Some("human"), Some("pvs:depth=1"))
    );
    assert_eq!(rec["a_color"], "black");
    assert_eq!(rec["opening"], "", "the standard start");
    assert_eq!(rec["ending"], "scored");
    // The moves are a whole legal game from the start, and the result is its score.
    let mut pos = Position::start();
    for mv in moves(rec) {
        pos = pos.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    assert!(pos.is_game_over());
    assert_eq!(rec["black_margin"].as_i64(), Some(pos.final_score_black() as i64));
    let expected = ["loss", "draw", "win"][(pos.final_score_black().signum() + 1) as usize];
    assert_eq!(rec["result"], expected);
    let verdict = ["you lose", "a draw", "you win"][(pos.final_score_black().signum() + 1) as usize];
    assert!(
        err.contains(&format!(
            "game over: black {}, white {}: {verdict}",
            pos.black().count(),
            pos.white().count()
        )),
        "{err}"
    );
    // The conversation: the greeting, the board after each move as `othello show` prints it
    // (the start's, then after d3), who played what.
    assert!(err.starts_with("You play black against pvs:depth=1."), "{err}");
    let d3 = Position::start().play("d3".parse().unwrap()).unwrap();
    for board in [Position::start(), d3] {
        let text = format!("{}", board.pretty());
        assert!(err.contains(text.trim_end()), "{text} in {err}");
    }
    assert!(err.contains("> black (you) plays d3\n"), "{err}");
    assert!(err.contains("\nwhite (pvs:depth=1) plays "), "{err}");
    // The engine plays as the library's engine does (moves, values, node counts): the seat
    // starts it afresh and asks it with the spec's limits.
    let mut engine: Engine = "pvs:depth=1".parse().unwrap();
    engine.new_game();
    engine.think(&Position::start(), &Limits::depth(1).with_nodes(1));
    engine.new_game();
    let mut pos = Position::start();
    let nodes = rec["nodes"].as_array().unwrap();
    let evals = rec["evals"].as_array().unwrap();
    let mut engine_moves = 0;
    for (k, mv) in moves(rec).into_iter().enumerate() {
        if pos.side_to_move() == Color::White && !pos.must_pass() {
            let reply = engine.think(&pos, &engine.limits());
            assert_eq!(reply.best_move, mv, "move {k}");
            assert_eq!(nodes[k].as_u64(), Some(reply.nodes), "move {k}");
            assert_eq!(evals[k].as_f64(), reply.score.map(|s| s as f64 / 100.0), "move {k}");
            engine_moves += 1;
        } else {
            assert!(nodes[k].is_null(), "the human's move {k} has no node count");
        }
        engine.observe(mv);
        pos = pos.play_unchecked(mv);
    }
    assert!(engine_moves > 20);
    // The GGF record holds the same game; the standard output the game line and the summary.
    let ggf_text = std::fs::read_to_string(&ggf).unwrap();
    let game: othello_rules::GgfGame = ggf_text.trim().parse().unwrap();
    assert_eq!(game.moves.iter().map(|m| m.mv).collect::<Vec<_>>(), moves(rec));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].starts_with("game    1 opening "), "{stdout}");
    assert!(lines[1].contains(" of 1 game, "), "{stdout}");
}

#[test]
fn hint_does_not_change_the_engines_replies() {
    let hinted: String = squares(40).lines().map(|l| format!("hint\n{l}\n")).collect();
    const NAME: &str = "hint";
    let (out, recs) = play(NAME, &["human", "pvs:depth=1", "--hint", "pvs:depth=3"], &hinted);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert_eq!(line(&recs[0]), line(&straight(NAME)));
    assert!(err.contains("discs at depth 3 (pvs:depth=3)"), "{err}");
}

#[test]
fn undo_then_another_move_records_the_line_finally_played() {
    // c4, taken back with the engine's reply; then the script plays d3 as the straight game.
    const NAME: &str = "undo";
    let (out, recs) = play(NAME, &["human", "pvs:depth=1"], &format!("c4\nundo\n{}", squares(40)));
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("taken back: c4 "), "{err}");
    let rec = &recs[0];
    assert_eq!(line(rec), line(&straight(NAME)));
    assert_eq!(moves(rec)[0], "d3".parse().unwrap());
}

#[test]
fn illegal_and_unreadable_moves_and_a_pass_with_a_move_are_refused_and_asked_again() {
    let script = format!("pass\nd4\nxyz\nundo\n\n{}", squares(40));
    const NAME: &str = "refused";
    let (out, recs) = play(NAME, &["human", "pvs:depth=1"], &script);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    for said in [
        "you have a move: pass only when you have none",
        "d4 is not legal here",
        "'xyz' is not a move",
        "nothing to take back",
    ] {
        assert!(err.contains(said), "{said} in {err}");
    }
    assert_eq!(line(&recs[0]), line(&straight(NAME)));
}

#[test]
fn the_end_of_the_input_or_quit_leaves_the_game_unrecorded_and_exits_0() {
    for (script, why) in [("d3\n", "end of input"), ("d3\nquit\n", "quit")] {
        let (out, recs) = play("eof", &["human", "pvs:depth=1"], script);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{err}");
        assert!(recs.is_empty(), "{recs:?}");
        assert!(
            err.contains(&format!("{why}: the game is left unfinished (not recorded)")),
            "{err}"
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(stdout.lines().count(), 1, "only the summary: {stdout}");
        assert!(stdout.contains(" of 0 games, "), "{stdout}");
    }
}

#[test]
fn the_human_plays_white_and_sees_both_clocks() {
    let (out, recs) = play(
        "white",
        &["pvs:depth=1", "human", "--color", "white", "--tc", "600", "--json"],
        &format!("undo\n{}", squares(40)),
    );
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let rec = &recs[0];
    assert_eq!(
        (rec["black"].as_str(), rec["white"].as_str()),
        (Some("pvs:depth=1"), Some("human"))
    );
    assert_eq!(rec["a_color"], "black", "A is the engine, black");
    assert_eq!(rec["colors"][0], "black");
    assert_eq!(rec["ending"], "scored");
    assert!(err.contains("white (you) to move ["), "{err}");
    // The engine's first move is not the human's to take back.
    assert!(err.contains("nothing to take back"), "{err}");
    // The verdict is the human's: white's.
    let verdict = match rec["result"].as_str() {
        Some("win") => "you lose",
        Some("loss") => "you win",
        _ => "a draw",
    };
    assert!(err.contains(&format!(": {verdict}\n")), "{verdict} in {err}");
    assert!(err.contains(", clock: you 10:00.0, pvs:depth=1 "), "{err}");
    // The standard output stays JSON Lines: the record and the summary.
    let stdout = String::from_utf8(out.stdout).unwrap();
    for l in stdout.lines() {
        serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("{l}: {e}"));
    }
}

#[test]
fn bad_uses_of_a_human_exit_2_with_one_line() {
    for (args, message) in [
        (
            vec!["play", "human", "pvs", "--colour", "red"],
            "error: bad --colour 'red': expected black or white",
        ),
        (
            vec!["play", "pvs", "random", "--colour", "white"],
            "error: --colour needs a human side",
        ),
        (
            vec!["play", "pvs", "random", "--hint", "pvs"],
            "error: --hint needs a human side",
        ),
        (vec!["play", "human", "human"], "error: two human sides"),
        (
            vec!["play", "human", "pvs", "--concurrency", "2"],
            "error: bad --concurrency 2 with a human side",
        ),
        (
            vec!["play", "human", "pvs", "--games", "0"],
            "error: bad --games 0: expected at least 1",
        ),
        (
            vec!["play", "human", "pvs", "--hint", "human"],
            "error: bad --hint 'human'",
        ),
        (
            vec!["play", "human:x=1", "pvs"],
            "error: unknown key 'x' for engine 'human'",
        ),
        (
            vec!["search", "--engine", "human"],
            "error: engine 'human' plays only in `othello play`",
        ),
        (
            vec!["nboard", "--engine", "human"],
            "error: engine 'human' plays only in `othello play`",
        ),
    ] {
        let out = Command::new(common::BIN)
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with(message), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn an_interrupt_ends_the_wait_for_the_humans_line() {
    use std::time::{Duration, Instant};
    let err_path = tmp("interrupt.stderr");
    let mut child = Command::new(common::BIN)
        .args(["play", "human", "pvs:depth=1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(std::fs::File::create(&err_path).unwrap()))
        .spawn()
        .unwrap();
    // The input stays open and empty: the runner waits at the prompt.
    let _input = child.stdin.take();
    let start = Instant::now();
    while !std::fs::read_to_string(&err_path).unwrap().contains("\n> ") {
        assert!(start.elapsed() < Duration::from_secs(30), "no prompt");
        std::thread::sleep(Duration::from_millis(20));
    }
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
    let asked = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if asked.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still waiting for the human 5 s after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    // The game under way is abandoned: the summary counts none.
    assert!(stdout.contains(" of 0 games, "), "{stdout}");
    assert!(stdout.trim_end().ends_with(", interrupted by SIGINT"), "{stdout}");
}

#[test]
fn several_games_keep_the_humans_colour_and_follow_the_openings() {
    let openings = tmp("openings.txt");
    std::fs::write(&openings, "f5d6\nf5f6\n").unwrap();
    let (out, recs) = play(
        "games",
        &[
            "pvs:depth=1",
            "human",
            "--games",
            "2",
            "--openings",
            openings.to_str().unwrap(),
        ],
        &squares(80),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let got: Vec<(u64, &str, &str, &str)> = recs
        .iter()
        .map(|r| {
            (
                r["game"].as_u64().unwrap(),
                r["opening"].as_str().unwrap(),
                r["black"].as_str().unwrap(),
                r["a_color"].as_str().unwrap(),
            )
        })
        .collect();
    // The human (B) is black, the default, in both games: A is white.
    assert_eq!(got, [(1, "f5d6", "human", "white"), (2, "f5f6", "human", "white")]);
}
