//! Scripted NBoard sessions against the real binary: bytes that are not UTF-8, the end of the
//! input during a search, `ping` during a search, and lines streamed per iteration.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Generous bound for "does not hang": far above any answer these sessions need.
const HANG: Duration = Duration::from_secs(60);

const START_BOARD: &str = "---------------------------O*------*O---------------------------";

fn spawn() -> Child {
    spawn_with(&[])
}

/// `othello nboard` with more arguments.
fn spawn_with(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_othello"))
        .arg("nboard")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run othello nboard")
}

/// Feeds `script` then closes stdin; returns stdout once the process exits (panics if it does
/// not exit within [`HANG`]).
fn session(script: &[u8]) -> String {
    let mut child = spawn();
    child.stdin.take().unwrap().write_all(script).unwrap();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        for line in BufReader::new(stdout).lines() {
            text += &line.unwrap();
            text.push('\n');
        }
        text
    });
    let t = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "exit status {status}");
            break;
        }
        if t.elapsed() > HANG {
            child.kill().unwrap();
            panic!("nboard did not exit after the end of its input");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    reader.join().unwrap()
}

#[test]
fn latin1_player_name_does_not_stop_reading() {
    // A 4x4 game where white must pass; black's only move is then a1. The player name is
    // "Jérôme" in Latin-1: bytes that are not UTF-8.
    let mut script = b"nboard 2\nset depth 3\nset game (;GM[Othello]PB[J".to_vec();
    script.extend_from_slice(&[0xe9, b'r', 0xf4]);
    script.extend_from_slice(format!("me]PW[b]BO[4 -O{} O];)\nmove PA\ngo\nping 1\n", "*".repeat(14)).as_bytes());
    let out = session(&script);
    assert!(out.lines().any(|l| l.starts_with("=== A1")), "{out}");
    assert!(out.lines().any(|l| l == "pong 1"), "{out}");
}

#[test]
fn a_bad_byte_in_an_unknown_line_is_skipped() {
    let out = session(b"nboard 2\n\xff\xfe garbage \x80\nping 3\n");
    assert!(out.lines().any(|l| l == "pong 3"), "{out}");
}

#[test]
fn end_of_input_during_a_deep_search_stops_it_and_exits() {
    // Depth 40 from the start would take hours; the end of the input must stop it.
    let out =
        session(format!("nboard 2\nset depth 40\nset game (;GM[Othello]BO[8 {START_BOARD} *];)\ngo\n").as_bytes());
    // The answer computed before the stop is still given, and it is a legal first move.
    let answer = out
        .lines()
        .find(|l| l.starts_with("=== "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(["D3", "C4", "F5", "E6"].contains(&&answer[4..6]), "{answer}");
}

/// A session kept open: lines are sent one batch at a time and the replies read as they come.
struct Interactive {
    child: Child,
    stdin: Option<std::process::ChildStdin>,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Interactive {
    fn new() -> Interactive {
        Interactive::with_args(&[])
    }

    fn with_args(args: &[&str]) -> Interactive {
        let mut child = spawn_with(args);
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        Interactive {
            child,
            stdin: Some(stdin),
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Reads replies until one satisfies `done`; returns the replies read by this call.
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + HANG;
        let from = self.seen.len();
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(wait)
                .unwrap_or_else(|_| panic!("no expected reply; got {:?}", &self.seen[from..]));
            let stop = done(&line);
            self.seen.push(line);
            if stop {
                return self.seen[from..].to_vec();
            }
        }
    }

    fn close(mut self) {
        drop(self.stdin.take());
        let t = Instant::now();
        while self.child.try_wait().unwrap().is_none() {
            assert!(t.elapsed() < HANG, "nboard did not exit after the end of its input");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// [`Interactive::close`], then what the engine wrote on stderr.
    fn close_with_stderr(mut self) -> String {
        let mut stderr = self.child.stderr.take().unwrap();
        self.close();
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut text).unwrap();
        text
    }
}

/// A failed test must not leave a deep search running.
impl Drop for Interactive {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn ping_during_a_search_is_answered() {
    let mut s = Interactive::new();
    s.send("nboard 2\nset depth 40\ngo\n");
    // The search has started once it reports an iteration; then ping, stdin still open.
    s.until(|l| l.starts_with("nodestats"));
    s.send("ping 7\n");
    let replies = s.until(|l| l == "pong 7");
    let answer = replies
        .iter()
        .position(|l| l.starts_with("=== "))
        .expect("the search answers");
    assert_eq!(answer, replies.len() - 3, "answer, status, then pong: {replies:?}");
    s.close();
}

#[test]
fn lines_stream_per_completed_iteration() {
    let mut s = Interactive::new();
    s.send("nboard 2\nset depth 5\ngo\n");
    let go = s.until(|l| l.starts_with("=== "));
    // One `nodestats` per iteration (depths 1 to 5), then one with the answer.
    let nodestats = go.iter().filter(|l| l.starts_with("nodestats")).count();
    assert_eq!(nodestats, 6, "{go:?}");
    s.until(|l| l == "status");
    // `hint`: a `search` line per iteration with its depth, then the two best moves.
    s.send("hint 2\n");
    let hint = s.until(|l| l == "status");
    let depths: Vec<&str> = hint
        .iter()
        .filter(|l| l.starts_with("search"))
        .map(|l| l.split_whitespace().nth(4).unwrap())
        .collect();
    assert_eq!(depths, ["1", "2", "3", "4", "5", "5", "5"], "{hint:?}");
    // Streamed PVs are whole lines: the depth-5 line holds five moves.
    let pv5 = hint
        .iter()
        .find(|l| l.starts_with("search") && l.ends_with(" 5"))
        .unwrap();
    assert_eq!(pv5.split_whitespace().nth(1).unwrap().len(), 10, "{pv5}");
    s.close();
}

/// Any engine plays NBoard through the `Player` layer: MCTS answers `go` with a legal move,
/// its iterations as nodes and no evaluation, and `hint` with its move; a bad spec exits 2
/// before the session.
#[test]
fn mcts_plays_nboard_and_a_bad_spec_is_refused() {
    let mut s = Interactive::with_args(&["--engine", "mcts:playouts=300,seed=1"]);
    s.send(&format!(
        "nboard 2\nset game (;GM[Othello]BO[8 {START_BOARD} *];)\ngo\n"
    ));
    let go = s.until(|l| l.starts_with("=== "));
    let answer = go.last().unwrap();
    let (mv, rest) = answer[4..].split_once('/').expect("MOVE/EVAL/TIME");
    assert!(["D3", "C4", "F5", "E6"].contains(&mv), "{go:?}");
    assert!(rest.starts_with('/'), "no evaluation from MCTS: {answer}");
    assert_eq!(
        go.iter().filter(|l| l.starts_with("nodestats 300 ")).count(),
        1,
        "{go:?}"
    );
    s.until(|l| l == "status");
    s.send("hint 3\n");
    let hint = s.until(|l| l == "status");
    let searches: Vec<&String> = hint.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(searches.len(), 1, "{hint:?}");
    let hinted = searches[0].split_whitespace().nth(1).unwrap();
    assert!(["D3", "C4", "F5", "E6"].contains(&hinted), "{hint:?}");
    s.close();

    let o = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["nboard", "--engine", "mcts:depth=3"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown key 'depth' for engine 'mcts'"));
}

#[test]
fn a_bad_move_overhead_is_refused() {
    for bad in ["-1", "abc", "60001", "1.5", ""] {
        let o = Command::new(env!("CARGO_BIN_EXE_othello"))
            .args(["nboard", "--move-overhead", bad])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("--move-overhead"), "{bad}");
    }
    // A good value plays.
    let mut s = Interactive::with_args(&["--move-overhead", "60000"]);
    s.send(&format!(
        "nboard 2\nset depth 1\nset game (;GM[Othello]TI[1:00]BO[8 {START_BOARD} *];)\ngo\n"
    ));
    let go = s.until(|l| l.starts_with("=== "));
    assert!(go.last().unwrap().starts_with("=== "), "{go:?}");
    s.close();
}

/// The GUI's time for the engine's own move raises the overhead: charged 500 s of a 10-minute
/// clock for a first move that took it milliseconds, the engine keeps 500 s for each move it
/// has left, more than the 100 s it has, and answers after its first iteration; with
/// `--fixed-overhead` it keeps 5 ms a move and searches to the `set depth` (6 iterations,
/// about a millisecond, with more than a second to spend).
#[test]
fn the_gui_s_time_for_the_engine_s_move_raises_its_overhead() {
    for (args, fixed) in [(&[][..], false), (&["--fixed-overhead"][..], true)] {
        let mut s = Interactive::with_args(args);
        s.send(&format!(
            "nboard 2\nset depth 6\nset game (;GM[Othello]TI[10:00]BO[8 {START_BOARD} *];)\ngo\n"
        ));
        let first = s.until(|l| l.starts_with("=== "));
        let mv = first.last().unwrap()[4..6].to_string();
        let reply = match mv.as_str() {
            "F5" => "D6",
            "D3" => "C5",
            "C4" => "E3",
            "E6" => "F4",
            other => panic!("first move {other}"),
        };
        s.send(&format!("move {mv}//500\nmove {reply}\ngo\n"));
        let second = s.until(|l| l.starts_with("=== "));
        // A `nodestats` line per iteration, then one with the totals.
        let iterations = second.iter().filter(|l| l.starts_with("nodestats")).count() - 1;
        let stderr = s.close_with_stderr();
        if fixed {
            assert_eq!(iterations, 6, "{second:?}");
            assert_eq!(stderr, "");
        } else {
            assert!(iterations < 6, "{second:?}");
            // Said once, on stderr.
            assert!(
                stderr.starts_with("nboard: the GUI charged 500000.0 ms for "),
                "{stderr}"
            );
            assert!(stderr.trim_end().ends_with("ms kept for each move left"), "{stderr}");
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
        }
    }
}

/// Runs `script` (stdin then closed) and returns stdout and stderr (panics if the process
/// does not exit within [`HANG`] or exits with a failure).
fn session_with_stderr(script: &str) -> (String, String) {
    let mut child = spawn();
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    let o = rx.recv_timeout(HANG).expect("nboard exits").unwrap();
    assert!(o.status.success(), "exit status {}", o.status);
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Every bad or unknown command gets one line on stderr naming the command and what is wrong;
/// the session goes on (a later `hint` searches and a later `ping` is answered). That the
/// previous settings stay is checked by the unit tests (here the queued `ping` stops the search
/// early, so its depth says nothing).
#[test]
fn every_bad_command_is_reported_and_the_session_goes_on() {
    let cases = [
        ("set depth -5", "set depth -5: bad depth"),
        ("set depth abc", "set depth abc: bad depth"),
        ("set depth 0", "set depth 0: bad depth"),
        ("set depth", "set depth: bad depth: missing"),
        ("nboard 9", "nboard 9: unsupported protocol version 9"),
        ("set contempt abc", "set contempt abc: bad contempt"),
        ("set colour black", "set colour black: unknown option colour"),
        ("hint abc", "hint abc: bad count"),
        ("hint 0", "hint 0: bad count"),
        ("move Z9", "move Z9:"),
        ("move A1", "move A1: illegal move"),
        ("move", "move: missing move"),
        ("frobnicate 3", "frobnicate 3: unknown command"),
        ("ping x", "ping x: expected a number"),
        ("set game (;GM[Othello]B[F5];)", "set game: GGF record without a board"),
        ("set game (;GM[Othello]TI[soon]BO[8 x];)", "set game: bad GGF BO"),
    ];
    for (bad, expect) in cases {
        let (out, err) = session_with_stderr(&format!("nboard 2\nset depth 2\n{bad}\nhint 1\nping 1\n"));
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 1, "{bad}: {err}");
        assert!(
            lines[0].starts_with("nboard: ") && lines[0].contains(expect),
            "{bad}: {err}"
        );
        assert!(out.lines().any(|l| l == "pong 1"), "{bad}: {out}");
        assert!(out.lines().any(|l| l.starts_with("search ")), "{bad}: {out}");
        if bad.starts_with("nboard") {
            assert_eq!(
                out.matches("set myname").count(),
                1,
                "only `nboard 2` is answered: {out}"
            );
        }
    }
    // Good commands say nothing on stderr; a bad TI plays the record's position without a clock.
    let (out, err) = session_with_stderr(&format!(
        "nboard 2\nset depth 2\nset contempt 0\nlearn\nset game (;GM[Othello]TI[5:00]BO[8 {START_BOARD} *]B[F5//1];)\n\
         move D6\nhint 1\nping 1\nset game (;GM[Othello]TI[soon]BO[8 {START_BOARD} *];)\nping 2\n"
    ));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("set game: bad GGF TI[soon]") && err.contains("without a clock"),
        "{err}"
    );
    assert!(
        out.contains("set myname") && out.contains("learned") && out.contains("pong 2"),
        "{out}"
    );
}
