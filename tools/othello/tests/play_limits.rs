//! End-to-end tests of the limits of `othello play`: the memory check over every game slot,
//! and interrupts (SIGTERM, SIGINT) that stop a run with its records and summary intact and
//! its external engines ended.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::BIN;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-play-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `MemAvailable` of /proc/meminfo in MiB (`None` off Linux).
fn available_mib() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<usize>().ok()? / 1024)
}

#[test]
fn tables_that_fit_once_but_not_over_every_slot_are_refused_before_a_game() {
    let Some(avail) = available_mib() else {
        eprintln!("no /proc/meminfo: skipped");
        return;
    };
    // One table fits; the four of the two slots' searchers (search and endgame tables) do not.
    let tt = avail / 3;
    let spec = format!("pvs:depth=1,tt={tt}");
    let start = Instant::now();
    let out = Command::new(BIN)
        .args(["play", &spec, "random", "--games", "4", "--concurrency", "2", "-q"])
        .output()
        .unwrap();
    let elapsed = start.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        out.stdout.is_empty(),
        "no game is played: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "error: bad --concurrency 2: the engines need 2 x 2 x {tt} MiB (A's tables)"
        )),
        "{stderr}"
    );
    let total: usize = stderr
        .split(" = ")
        .nth(1)
        .and_then(|t| t.split(" MiB").next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no total in {stderr}"));
    assert!(total >= 4 * tt, "{stderr}");
    assert!(stderr.contains("more than the memory available ("), "{stderr}");
    // Nothing was allocated or touched: the refusal takes no longer than starting the program.
    assert!(elapsed < Duration::from_secs(20), "took {elapsed:?}");
    // With fewer pairs than --concurrency, only the slots the pairs fill count.
    let out = Command::new(BIN)
        .args(["play", &spec, "random", "--games", "4", "--concurrency", "8", "-q"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "error: bad --concurrency 8: the engines need 2 x 2 x {tt} MiB (A's tables)"
        )),
        "{stderr}"
    );
    // The same table in one slot with no endgame table fits and plays (a small one, to keep
    // the machine's memory free).
    let out = Command::new(BIN)
        .args([
            "play",
            "pvs:depth=1,tt=1,endgame=0",
            "random",
            "--games",
            "2",
            "--concurrency",
            "2",
            "-q",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Waits at most `limit` for the child to exit; past it, kills it (so a failed test leaves no
/// process behind) and returns `None`.
fn wait_for(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

fn send(signal: &str, child: &Child) {
    let ok = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{signal} failed");
}

/// Waits until `path` holds at least `lines` complete lines.
fn wait_for_lines(path: &PathBuf, lines: usize, child: &mut Child) {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if text.matches('\n').count() >= lines {
            return;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("othello play ended ({status}) before {lines} games");
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no {lines} games in 60 s");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Starts `othello play ARGS` with its standard output and error in files named after `name`
/// (not pipes, which fill up while the test waits).
fn spawn_play(name: &str, args: &[&str]) -> Child {
    let file = |ext: &str| std::fs::File::create(tmp(&format!("{name}.{ext}"))).unwrap();
    Command::new(BIN)
        .arg("play")
        .args(args)
        .stdout(Stdio::from(file("stdout")))
        .stderr(Stdio::from(file("stderr")))
        .spawn()
        .unwrap()
}

/// Starts `othello play random SPEC --engines FILE --jsonl NAME.jsonl -q FLAGS` as the run
/// `name` (for `output`), FILE listing `engine` alone (an engines-file entry); the child and
/// the JSON Lines path. None without /proc (the interrupt tests read the process tree there).
fn spawn_external(name: &str, spec: &str, engine: Value, flags: &str) -> Option<(Child, PathBuf)> {
    if !std::path::Path::new("/proc/self/stat").exists() {
        eprintln!("no /proc: skipped");
        return None;
    }
    let engines = tmp(&format!("{name}-engines.json"));
    std::fs::write(&engines, serde_json::json!([engine]).to_string()).unwrap();
    let jsonl = tmp(&format!("{name}.jsonl"));
    let files = [engines.to_str().unwrap(), "--jsonl", jsonl.to_str().unwrap(), "-q"];
    let args: Vec<&str> = ["random", spec, "--engines"]
        .into_iter()
        .chain(files)
        .chain(flags.split_whitespace())
        .collect();
    Some((spawn_play(name, &args), jsonl))
}

/// The standard output and error of the ended run `name`.
fn output(name: &str) -> (String, String) {
    let read = |ext: &str| std::fs::read_to_string(tmp(&format!("{name}.{ext}"))).unwrap();
    (read("stdout"), read("stderr"))
}

/// Every line of a JSON Lines file parsed (so each is complete JSON).
fn records(path: &PathBuf) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(
        text.ends_with('\n'),
        "the last record is cut: {:?}",
        text.lines().last()
    );
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad record {l}: {e}")))
        .collect()
}

#[test]
fn sigterm_stops_the_run_with_its_records_and_summary() {
    let jsonl = tmp("term.jsonl");
    let ggf = tmp("term.ggf");
    let (j, g) = (jsonl.to_str().unwrap(), ggf.to_str().unwrap());
    let mut child = spawn_play(
        "term",
        &[
            "random",
            "random",
            "--games",
            "2000",
            "--jsonl",
            j,
            "--ggf",
            g,
            "--concurrency",
            "1",
            "-q",
        ],
    );
    wait_for_lines(&jsonl, 5, &mut child);
    send("TERM", &child);
    let status = wait_for(&mut child, Duration::from_secs(10)).expect("still running 10 s after SIGTERM");
    assert_eq!(status.code(), Some(143));
    let (stdout, stderr) = output("term");
    let recs = records(&jsonl);
    assert!(recs.len() >= 5 && recs.len() < 2000, "{} games", recs.len());
    // Every game played is in both files, and none twice.
    let ggf_text = std::fs::read_to_string(&ggf).unwrap();
    assert!(ggf_text.ends_with('\n'));
    assert_eq!(ggf_text.lines().count(), recs.len());
    let mut numbers: Vec<u64> = recs.iter().map(|r| r["game"].as_u64().unwrap()).collect();
    numbers.sort_unstable();
    numbers.dedup();
    assert_eq!(numbers.len(), recs.len());
    // One line per game, then the summary with the count of the records.
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), recs.len() + 1, "{stderr}");
    let summary = lines.last().unwrap();
    let games = format!(" of {} games, ", recs.len());
    assert!(
        summary.starts_with("A vs B: +") && summary.contains(&games),
        "{summary}"
    );
    assert!(summary.ends_with(", interrupted by SIGTERM"), "{summary}");
}

#[test]
fn sigint_stops_the_run_with_a_json_summary() {
    let jsonl = tmp("int.jsonl");
    let j = jsonl.to_str().unwrap();
    let mut child = spawn_play(
        "int",
        &["random", "random", "--games", "2000", "--jsonl", j, "--json", "-q"],
    );
    wait_for_lines(&jsonl, 3, &mut child);
    send("INT", &child);
    let status = wait_for(&mut child, Duration::from_secs(10)).expect("still running 10 s after SIGINT");
    assert_eq!(status.code(), Some(130));
    let (stdout, _) = output("int");
    let recs = records(&jsonl);
    let summary: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["games"].as_u64(), Some(recs.len() as u64));
    assert_eq!(summary["interrupted"], "SIGINT");
    let counted = ["wins", "draws", "losses"].map(|k| summary[k].as_u64().unwrap());
    assert_eq!(counted.iter().sum::<u64>(), recs.len() as u64);
}

#[test]
fn an_interrupt_stops_an_in_process_search_under_way() {
    // A search to depth 40 from the start does not end by itself in the test's time.
    let jsonl = tmp("deep.jsonl");
    let j = jsonl.to_str().unwrap();
    let mut child = spawn_play(
        "deep",
        &["pvs:depth=40,tt=4", "random", "--games", "2", "--jsonl", j, "-q"],
    );
    std::thread::sleep(Duration::from_millis(1500));
    assert!(child.try_wait().unwrap().is_none(), "the deep search ended by itself");
    send("TERM", &child);
    let status = wait_for(&mut child, Duration::from_secs(10)).expect("still running 10 s after SIGTERM");
    assert_eq!(status.code(), Some(143));
    let (stdout, _) = output("deep");
    // The game under way is abandoned, not counted.
    assert!(std::fs::read_to_string(&jsonl).unwrap_or_default().is_empty());
    assert!(stdout.trim_end().ends_with("interrupted by SIGTERM"), "{stdout}");
    assert!(stdout.contains(" of 0 games, "), "{stdout}");
}

/// The processes whose parent is `pid` (from /proc; empty where it cannot be read).
fn children_of(pid: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            // `pid (comm) state ppid ...`; the command name may hold spaces and parentheses.
            std::fs::read_to_string(format!("/proc/{p}/stat"))
                .ok()
                .is_some_and(|s| {
                    s.rsplit_once(')')
                        .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                        == Some(pid)
                })
        })
        .collect()
}

/// Whether process `pid` is running (neither gone nor a zombie).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .map(|(_, rest)| rest.trim_start().starts_with(|c| c != 'Z'))
        })
        .unwrap_or(false)
}

#[test]
fn an_interrupt_ends_the_external_engines() {
    let engine = serde_json::json!({"name": "self", "command": BIN, "args": ["nboard", "--engine", "pvs"]});
    let flags = "--games 2000 --concurrency 2";
    let Some((mut child, jsonl)) = spawn_external("ext", "ext:name=self,depth=1", engine, flags) else {
        return;
    };
    wait_for_lines(&jsonl, 3, &mut child);
    let engines_running: Vec<u32> = children_of(child.id())
        .into_iter()
        .filter(|&p| {
            std::fs::read(format!("/proc/{p}/cmdline")).is_ok_and(|c| c.split(|&b| b == 0).any(|w| w == b"nboard"))
        })
        .collect();
    assert_eq!(engines_running.len(), 2, "one engine per slot");
    assert!(engines_running.iter().all(|&p| alive(p)));
    send("TERM", &child);
    let status = wait_for(&mut child, Duration::from_secs(20)).expect("still running 20 s after SIGTERM");
    assert_eq!(status.code(), Some(143));
    let (stdout, _) = output("ext");
    for p in engines_running {
        assert!(!alive(p), "engine process {p} still runs after the interrupt");
    }
    let recs = records(&jsonl);
    assert!(
        stdout
            .lines()
            .last()
            .unwrap()
            .contains(&format!(" of {} games, ", recs.len())),
        "{stdout}"
    );
}

#[test]
fn an_interrupt_ends_the_wait_for_a_slow_external_engines_move() {
    // The engine answers its ping, then on `go` becomes `sleep 987` (exec: one process), far
    // beyond the default --hang-timeout of 60 s.
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines/misbehave.sh");
    let engine = serde_json::json!({"name": "slow", "command": "sh", "args": [script, "hang"]});
    let Some((mut child, jsonl)) = spawn_external("slow", "ext:name=slow", engine, "--games 2") else {
        return;
    };
    // Wait until the engine's move is under way: its process is the sleep.
    let start = Instant::now();
    let sleeper = loop {
        let sleeping = children_of(child.id())
            .into_iter()
            .find(|&p| std::fs::read(format!("/proc/{p}/cmdline")).is_ok_and(|c| c.starts_with(b"sleep\0987")));
        if let Some(p) = sleeping {
            break p;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "othello play ended before the engine's move"
        );
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the engine never started its move"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    send("TERM", &child);
    let asked = Instant::now();
    // A hang check, not a timing figure: well under the engine's sleep and the hang timeout.
    let status = wait_for(&mut child, Duration::from_secs(5)).expect("still waiting for the engine 5 s after SIGTERM");
    assert!(asked.elapsed() < Duration::from_secs(5));
    assert_eq!(status.code(), Some(143));
    assert!(!alive(sleeper), "the engine's process {sleeper} still runs");
    let (stdout, _) = output("slow");
    assert!(
        std::fs::read_to_string(&jsonl).unwrap_or_default().is_empty(),
        "the game under way is not recorded"
    );
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(summary.contains(" of 0 games, "), "{stdout}");
    assert!(summary.ends_with(", interrupted by SIGTERM"), "{stdout}");
}

/// Four games of `pvs` against `random` under `time` with `--follow`: the records (kept in
/// the temporary file `name`) and the JSON summary.
fn follow_match(time: &[&str], name: &str) -> (Vec<Value>, Value) {
    let path = tmp(name);
    let _ = std::fs::remove_file(&path);
    let out = Command::new(BIN)
        .args(["play", "pvs", "random", "--follow", "--margin", "5000", "--games", "4"])
        .args(time)
        .args(["--json", "-q", "--jsonl", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    (records(&path), summary)
}

/// A's times over the four games of [`follow_match`] start at `first` and fall by whole steps
/// of 1.25. Each game reads A's time when it starts; a game may start before the last game's
/// step is stored (the first game's, in practice), so a step may show a game late and two the
/// game after: each time is the one before it over 1, 1.25 or 1.25^2.
fn falls_by_whole_steps(times: &[f64], first: f64) {
    assert_eq!(times.len(), 4);
    assert!((times[0] - first).abs() < 1e-9, "{times:?}");
    for w in times.windows(2) {
        let r = w[0] / w[1];
        assert!([1.0, 1.25, 1.5625].iter().any(|q| (r - q).abs() < 1e-6), "{times:?}");
    }
}

#[test]
fn follow_needs_a_move_time_and_moves_a_s_time_toward_b_s() {
    let out = Command::new(BIN)
        .args(["play", "pvs:depth=1", "random", "--follow", "--games", "2", "-q"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--st"), "{stderr}");
    // B (random) answers at once and A takes much of its 20 ms, so A's time falls by the
    // largest step, 1.25, after each game (a stall of B under load would need to take a
    // fair share of A's time to change that).
    let (recs, summary) = follow_match(&["--st", "0.02"], "follow.jsonl");
    let times: Vec<f64> = recs.iter().map(|r| r["a_move_time"].as_f64().unwrap()).collect();
    falls_by_whole_steps(&times, 0.02);
    assert!(times[3] < 0.0129, "{times:?}");
    assert_eq!(summary["a_last_move_time"].as_f64(), Some(0.008192), "{summary}");
    assert!(summary["a_ms_per_move"].as_f64().unwrap() > summary["b_ms_per_move"].as_f64().unwrap());
    // Without --follow the records say null.
    let out = Command::new(BIN)
        .args([
            "play",
            "pvs:depth=1",
            "random",
            "--st",
            "0.01",
            "--games",
            "2",
            "--json",
            "-q",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let game: Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert!(game["a_move_time"].is_null(), "{game}");
    let summary: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert!(summary["a_last_move_time"].is_null(), "{summary}");
}

#[test]
fn follow_under_a_clock_moves_a_s_base_time_toward_b_s_game_time() {
    // B (random) answers at once and A spends much of its 0.5 s clock, so A's base time falls
    // by the largest step, 1.25, after each game (the increment's share is the unit tests').
    let (recs, summary) = follow_match(&["--tc", "0.5"], "follow-clock.jsonl");
    let bases: Vec<f64> = recs.iter().map(|r| r["a_base_time"].as_f64().unwrap()).collect();
    falls_by_whole_steps(&bases, 0.5);
    assert!(bases[3] < 0.33, "{bases:?}");
    assert!(recs.iter().all(|r| r["a_move_time"].is_null()));
    let last = summary["a_last_base_time"].as_f64().unwrap();
    assert!((last - 0.5 / 1.25f64.powi(4)).abs() < 1e-5, "{summary}");
    assert!(summary["a_last_move_time"].is_null(), "{summary}");
    assert!(summary["a_s_per_game"].as_f64().unwrap() > summary["b_s_per_game"].as_f64().unwrap());
    assert!(summary["a_ms_per_move"].as_f64().unwrap() > summary["b_ms_per_move"].as_f64().unwrap());
    // The text summary names it.
    let out = Command::new(BIN)
        .args(["play", "pvs:depth=1", "random", "--tc", "1", "--follow", "--games", "2"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("A's clock followed B's time: "), "{stdout}");
}
