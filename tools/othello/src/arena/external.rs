//! External engines speaking the NBoard protocol, driven as a GUI drives them.
//!
//! The engines file is JSON, a list of engines as cutechess's `engines.json`:
//!
//! ```json
//! [{"name": "edax", "command": "./edax", "args": ["-q"], "workingDirectory": "/opt/edax",
//!   "protocol": 2, "restart": "off"}]
//! ```
//!
//! `protocol` is the version sent in `nboard N` (default 2; older engines accept only 1);
//! `restart` is `on` (a fresh process for every game) or `off` (default: one process kept
//! between games, restarted only after it misbehaves); `moves` is `set-game` (default) or
//! `move` (below). A spec `ext:name=edax[,depth=N]` picks
//! one; `depth` is sent as `set depth N`. Without it, a timed match (`--tc`, `--st`) sends
//! `set depth 60`, so the clock decides; a match with neither a depth nor a clock sends no
//! `set depth` at all, and the engine plays to its own default limits (a depth of 60 there
//! would let a full-width engine search for hours).
//!
//! For each move the runner sends `set game <GGF>` (the record so far, `TI[]` and the time of
//! every move, so the engine can read its clock), then `go`, and waits for
//! `=== MOVE[/eval[/time]]` or `=== MOVE [eval [time]]`; other lines (`status`, `nodestats`,
//! `search`, `set myname`) are read and ignored. With `"moves": "move"` it speaks as the NBoard
//! GUI does instead: a `set game` for a game's first move, then a `move F5/eval/time` line for
//! each move since the last `go`, the engine's own included. Each game starts with `ping N` /
//! `pong N`, awaited for the hang timeout. A process that exits, stays silent past its deadline, writes
//! output that is not text (UTF-8) or answers garbage fails the move; it is killed (also when
//! the runner drops it) and started again for the next game. An interrupt of the run (the flag
//! of [`ExternalPlayer::set_interrupt`]) ends every wait for the engine within
//! [`INTERRUPT_POLL`] and kills its process.

use super::player::Failure;
use crate::error::{CliResult, input};
use othello_engine::{Limits, Player, Reply};
use othello_rules::{GgfGame, GgfMove, Move, Position};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// One engine of the engines file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineDef {
    /// Its name in specs and records.
    pub name: String,
    /// The program.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Where it runs.
    pub dir: Option<String>,
    /// The NBoard protocol version to announce.
    pub protocol: u32,
    /// A fresh process for every game.
    pub restart_per_game: bool,
    /// Tell the moves after a game's first `set game` one at a time with `move F5/eval/time`
    /// (`"moves": "move"`), as the NBoard GUI does, instead of a whole record before every move
    /// (`"set-game"`, the default).
    pub moves_by_line: bool,
}

/// Reads an engines file.
///
/// # Errors
/// Bad input naming the file and the problem.
pub fn read_engines(path: &str) -> CliResult<Vec<EngineDef>> {
    let (_, text) = crate::input::read_source(path, "engines file")?;
    parse_engines(&text).map_err(|e| input(format!("engines file {path}: {e}")))
}

/// Parses the JSON of an engines file.
///
/// # Errors
/// A description of the first problem.
pub fn parse_engines(text: &str) -> Result<Vec<EngineDef>, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("bad JSON: {e}"))?;
    let list = v.as_array().ok_or("expected a JSON list of engines")?;
    let mut out: Vec<EngineDef> = Vec::new();
    for (i, e) in list.iter().enumerate() {
        let obj = e.as_object().ok_or(format!("entry {} is not an object", i + 1))?;
        for key in obj.keys() {
            if ![
                "name",
                "command",
                "args",
                "workingDirectory",
                "protocol",
                "restart",
                "moves",
            ]
            .contains(&key.as_str())
            {
                return Err(format!("entry {}: unknown key '{key}'", i + 1));
            }
        }
        let string = |k: &str| obj.get(k).and_then(Value::as_str).map(str::to_string);
        let name = string("name")
            .filter(|n| !n.is_empty())
            .ok_or(format!("entry {}: no \"name\"", i + 1))?;
        let command = string("command")
            .filter(|c| !c.is_empty())
            .ok_or(format!("engine {name}: no \"command\""))?;
        let args = match obj.get("args") {
            None => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .map(|x| x.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or(format!("engine {name}: \"args\" must be a list of strings"))?,
            Some(_) => return Err(format!("engine {name}: \"args\" must be a list of strings")),
        };
        let protocol = match obj.get("protocol") {
            None => 2,
            Some(p) => p
                .as_u64()
                .filter(|p| (1..=2).contains(p))
                .ok_or(format!("engine {name}: \"protocol\" must be 1 or 2"))? as u32,
        };
        let restart_per_game = match string("restart").as_deref() {
            None | Some("off") => false,
            Some("on") => true,
            Some(other) => return Err(format!("engine {name}: \"restart\" must be on or off, not {other}")),
        };
        let moves_by_line = match string("moves").as_deref() {
            None | Some("set-game") => false,
            Some("move") => true,
            Some(other) => {
                return Err(format!(
                    "engine {name}: \"moves\" must be set-game or move, not {other}"
                ));
            }
        };
        if out.iter().any(|d| d.name == name) {
            return Err(format!("engine {name} is listed twice"));
        }
        out.push(EngineDef {
            name,
            command,
            args,
            dir: string("workingDirectory"),
            protocol,
            restart_per_game,
            moves_by_line,
        });
    }
    Ok(out)
}

/// How often a wait for an engine's line looks at the interrupt flag.
pub const INTERRUPT_POLL: Duration = Duration::from_millis(50);

/// The longest line read from an engine; a longer one is cut there (and then is garbage).
const MAX_LINE: u64 = 1 << 20;

/// A running engine process: killed and reaped when dropped.
struct Process {
    /// The engine's name, for messages.
    name: String,
    child: Child,
    stdin: ChildStdin,
    /// Its output's lines, or the bytes from the first one that is not UTF-8 (then nothing
    /// more).
    lines: Receiver<Result<String, Vec<u8>>>,
}

impl Process {
    fn start(def: &EngineDef) -> Result<Process, Failure> {
        let mut cmd = Command::new(&def.command);
        cmd.args(&def.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &def.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| Failure::Crashed(format!("cannot start {}: {e}", def.command)))?;
        let stdin = child.stdin.take().ok_or(Failure::Crashed("no stdin".into()))?;
        let stdout = child.stdout.take().ok_or(Failure::Crashed("no stdout".into()))?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                while buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                    buf.pop();
                }
                let line = String::from_utf8(std::mem::take(&mut buf)).map_err(|e| {
                    let at = e.utf8_error().valid_up_to();
                    e.into_bytes()[at..].iter().take(8).copied().collect()
                });
                let text = line.is_ok();
                if tx.send(line).is_err() || !text {
                    break;
                }
            }
        });
        Ok(Process {
            name: def.name.clone(),
            child,
            stdin,
            lines,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| Failure::Crashed(format!("cannot write to the engine: {e}")))
    }

    /// The next line, waiting at most until `deadline`, or until `stop` is raised (looked at
    /// every [`INTERRUPT_POLL`]).
    fn read(&mut self, deadline: Instant, waited: Duration, stop: Option<&AtomicBool>) -> Result<String, Failure> {
        let received = loop {
            if stop.is_some_and(|s| s.load(Ordering::SeqCst)) {
                return Err(Failure::Interrupted);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let slice = if stop.is_some() { left.min(INTERRUPT_POLL) } else { left };
            match self.lines.recv_timeout(slice) {
                Err(RecvTimeoutError::Timeout) if slice < left => continue,
                other => break other,
            }
        };
        match received {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(start)) => Err(Failure::NotText {
                engine: self.name.clone(),
                start,
            }),
            Err(RecvTimeoutError::Timeout) => Err(Failure::Hung(waited)),
            Err(RecvTimeoutError::Disconnected) => {
                let status = self
                    .child
                    .try_wait()
                    .ok()
                    .flatten()
                    .map_or("closed its output".to_string(), |s| format!("exited ({s})"));
                Err(Failure::Crashed(status))
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Parses the answer of `===`: `MOVE[/eval[/time]]` or `MOVE [eval [time]]`.
pub fn parse_answer(rest: &str) -> Option<(Move, Option<f64>)> {
    let rest = rest.trim();
    let mut parts: Vec<&str> = if rest.contains('/') {
        rest.split('/').collect()
    } else {
        rest.split_whitespace().collect()
    };
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    let mv: Move = parts.remove(0).trim().parse().ok()?;
    let eval = match parts.first().map(|s| s.trim()) {
        None | Some("") => None,
        Some(e) => Some(e.parse::<f64>().ok().filter(|x| x.is_finite())?),
    };
    if let Some(t) = parts.get(1).map(|s| s.trim())
        && !t.is_empty()
    {
        t.parse::<f64>().ok().filter(|x| x.is_finite())?;
    }
    Some((mv, eval))
}

/// An NBoard engine in its own process, as an `othello_engine::Player`.
///
/// [`Player::think`] always returns a legal move, as the trait asks: when the engine fails
/// (see [`Failure`]) it returns the first legal move instead, keeps the failure for
/// [`ExternalPlayer::take_failure`] and kills the process; the next game starts a new one.
pub struct ExternalPlayer {
    def: EngineDef,
    depth: Option<u32>,
    margin: Duration,
    hang_timeout: Duration,
    process: Option<Process>,
    pings: u64,
    sent_depth: Option<u32>,
    root: Position,
    history: Vec<(Move, Option<Duration>)>,
    time_control: Option<String>,
    /// The game as the process was last told it (a `set game` and the `move`s after it), for
    /// [`EngineDef::moves_by_line`]; `None` for a new process or game.
    told: Option<GgfGame>,
    failure: Option<Failure>,
    /// Raised on an interrupt of the run: every wait for the engine ends.
    interrupt: Option<Arc<AtomicBool>>,
}

impl ExternalPlayer {
    /// Starts the engine. `depth` is sent with `set depth` unless the limits of a move carry
    /// one; without either, a timed move sends `set depth 60` (the clock decides) and an
    /// untimed one no `set depth` (the engine's own default limits). `margin` is the runner's
    /// flag margin and `hang_timeout` the wait for a move without a clock and for a `pong`.
    ///
    /// # Errors
    /// The process could not be started.
    pub fn new(
        def: EngineDef,
        depth: Option<u32>,
        margin: Duration,
        hang_timeout: Duration,
    ) -> CliResult<ExternalPlayer> {
        let mut p = ExternalPlayer {
            def,
            depth,
            margin,
            hang_timeout,
            process: None,
            pings: 0,
            sent_depth: None,
            root: Position::start(),
            history: Vec::new(),
            time_control: None,
            told: None,
            failure: None,
            interrupt: None,
        };
        p.start().map_err(|e| input(format!("engine {}: {e}", p.def.name)))?;
        Ok(p)
    }

    /// Ends every wait for the engine (a move, a `pong`) once `flag` is raised: the wait
    /// fails with [`Failure::Interrupted`] and the process is killed.
    pub fn set_interrupt(&mut self, flag: Arc<AtomicBool>) {
        self.interrupt = Some(flag);
    }

    fn interrupted(&self) -> bool {
        self.interrupt.as_ref().is_some_and(|f| f.load(Ordering::SeqCst))
    }

    fn start(&mut self) -> Result<(), Failure> {
        self.process = None;
        self.sent_depth = None;
        self.told = None;
        let mut proc = Process::start(&self.def)?;
        proc.send(&format!("nboard {}", self.def.protocol))?;
        self.process = Some(proc);
        Ok(())
    }

    fn proc(&mut self) -> Result<&mut Process, Failure> {
        if self.process.is_none() {
            self.start()?;
        }
        self.process.as_mut().ok_or(Failure::Crashed("not running".into()))
    }

    /// Starts a game from `root` after the opening `moves` (sent in the GGF of every move),
    /// timed by `time_control` (the GGF `TI` text): a fresh process if the engine restarts per
    /// game, then `ping`/`pong`.
    ///
    /// # Errors
    /// The engine does not answer the ping within the hang timeout, or exits, or writes
    /// output that is not text.
    pub fn start_game(&mut self, root: Position, moves: &[Move], time_control: Option<&str>) -> Result<(), Failure> {
        self.root = root;
        self.history = moves.iter().map(|&m| (m, None)).collect();
        self.time_control = time_control.map(str::to_string);
        self.told = None;
        self.failure = None;
        if self.interrupted() {
            return Err(Failure::Interrupted);
        }
        if self.def.restart_per_game {
            self.start()?;
        }
        self.pings += 1;
        let n = self.pings;
        let wait = self.hang_timeout;
        let stop = self.interrupt.clone();
        let proc = self.proc()?;
        proc.send(&format!("ping {n}"))?;
        let deadline = Instant::now() + wait;
        loop {
            let line = match proc.read(deadline, wait, stop.as_deref()) {
                Ok(line) => line,
                Err(f) => {
                    if f == Failure::Interrupted {
                        self.process = None;
                    }
                    return Err(f);
                }
            };
            if line.trim() == format!("pong {n}") {
                return Ok(());
            }
        }
    }

    /// Records a move of the game with the time it took (shown to the engine in the GGF).
    pub fn observe_timed(&mut self, mv: Move, time: Option<Duration>) {
        self.history.push((mv, time));
    }

    /// The failure of the last [`Player::think`], if it failed.
    pub fn take_failure(&mut self) -> Option<Failure> {
        self.failure.take()
    }

    /// Kills the process and starts a new one (after a failure).
    pub fn restart(&mut self) {
        if self.start().is_err() {
            // Tried again at the next game, which it then loses if it still cannot start.
            self.process = None;
        }
    }

    /// The GGF for `set game`: the game from its root when the history leads to `pos`, with
    /// the clock (`TI`) and move times when the game is timed; else `pos` alone.
    fn game_record(&self, pos: &Position, limits: &Limits) -> GgfGame {
        let mut replay = Some(self.root);
        for &(mv, _) in &self.history {
            replay = replay.and_then(|p| p.play(mv).ok());
        }
        let follows = replay == Some(*pos);
        let timed_history = follows && limits.clock.is_some() && self.time_control.is_some();
        let mut g = GgfGame::new(if follows { self.root } else { *pos }, "black", "white");
        if follows {
            let mut p = self.root;
            for &(mv, t) in &self.history {
                g.moves.push(GgfMove {
                    color: p.side_to_move(),
                    mv,
                    eval: None,
                    time: if timed_history {
                        t.map(|d| d.as_secs_f64())
                    } else {
                        None
                    },
                });
                p = p.play_unchecked(mv);
            }
        }
        g.time_control = if timed_history {
            self.time_control.clone()
        } else if let Some(c) = limits.clock {
            Some(format!("{}/{}/", c.remaining.as_secs_f64(), c.increment.as_secs_f64()))
        } else {
            limits.time.map(|t| format!("{}", t.hard.as_secs_f64()))
        };
        g
    }

    /// How long to wait for the answer: the clock's time plus the margin and 50 ms, or the
    /// hang timeout without a clock.
    fn deadline(&self, limits: &Limits) -> Duration {
        let grace = self.margin + Duration::from_millis(50);
        match (limits.clock, limits.time) {
            (Some(c), _) => c.remaining + grace,
            (None, Some(t)) => t.hard + grace,
            (None, None) => self.hang_timeout,
        }
    }

    /// The depth for `set depth`: the move's, else the spec's, else 60 under a clock (so the
    /// clock decides), else none (the engine keeps its own default limits).
    fn depth_to_send(&self, move_depth: Option<u32>, timed: bool) -> Option<u32> {
        move_depth
            .or(self.depth)
            .or(timed.then_some(60))
            .map(|d| d.clamp(1, 60))
    }

    /// What tells the process the game `record`: `set game` with the whole record, or, for an
    /// engine told its moves one at a time, a `move` line for each move since the record it
    /// was last told, when this one continues it (the same start and `TI`).
    fn game_lines(&self, record: &GgfGame) -> Vec<String> {
        match &self.told {
            Some(told)
                if self.def.moves_by_line
                    && told.start == record.start
                    && told.time_control == record.time_control
                    && record.moves.starts_with(&told.moves) =>
            {
                record.moves[told.moves.len()..]
                    .iter()
                    .map(|m| format!("move {m}"))
                    .collect()
            }
            _ => vec![format!("set game {record}")],
        }
    }

    fn ask(&mut self, pos: &Position, limits: &Limits) -> Result<Reply, Failure> {
        let record = self.game_record(pos, limits);
        let timed = limits.clock.is_some() || limits.time.is_some();
        let depth = self.depth_to_send(limits.depth, timed);
        let wait = self.deadline(limits);
        let start = Instant::now();
        if self.interrupted() {
            return Err(Failure::Interrupted);
        }
        // Started first, as a new process forgets the depth and the game told the old one.
        self.proc()?;
        let game_lines = self.game_lines(&record);
        let send_depth = depth.filter(|&d| self.sent_depth != Some(d));
        if send_depth.is_some() {
            self.sent_depth = send_depth;
        }
        let stop = self.interrupt.clone();
        let proc = self.proc()?;
        if let Some(d) = send_depth {
            proc.send(&format!("set depth {d}"))?;
        }
        for line in &game_lines {
            proc.send(line)?;
        }
        self.told = Some(record);
        let proc = self.proc()?;
        proc.send("go")?;
        let until = start + wait;
        loop {
            let line = proc.read(until, wait, stop.as_deref())?;
            let t = line.trim();
            if let Some(rest) = t.strip_prefix("===") {
                let (mv, eval) = parse_answer(rest).ok_or_else(|| Failure::Garbage(t.to_string()))?;
                if !pos.is_legal(mv) {
                    return Err(if mv == Move::Pass {
                        Failure::PassWithMove
                    } else {
                        Failure::Illegal(mv)
                    });
                }
                let mut reply = Reply::new(mv).with_time(start.elapsed());
                if let Some(e) = eval {
                    reply = reply.with_score((e * 100.0).round() as i32, false);
                }
                return Ok(reply);
            }
        }
    }
}

impl Player for ExternalPlayer {
    fn name(&self) -> String {
        self.def.name.clone()
    }

    fn new_game(&mut self) {
        if let Err(f) = self.start_game(Position::start(), &[], None) {
            self.failure = Some(f);
        }
    }

    fn think(&mut self, pos: &Position, limits: &Limits) -> Reply {
        match self.ask(pos, limits) {
            Ok(r) => r,
            Err(f) => {
                self.failure = Some(f);
                self.process = None;
                Reply::new(pos.moves().first().copied().unwrap_or(Move::Pass))
            }
        }
    }

    fn observe(&mut self, mv: Move) {
        self.observe_timed(mv, None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_in_both_forms() {
        let f5: Move = "f5".parse().unwrap();
        assert_eq!(parse_answer(" F5/1.5/0.2"), Some((f5, Some(1.5))));
        assert_eq!(parse_answer(" F5 1.5 0.2"), Some((f5, Some(1.5))));
        assert_eq!(parse_answer(" f5"), Some((f5, None)));
        assert_eq!(parse_answer(" F5//0.2"), Some((f5, None)));
        assert_eq!(parse_answer(" PA"), Some((Move::Pass, None)));
        for bad in ["", " Z9", " F5/x", " F5 1 2 3", " F5 1.0 y", "hello"] {
            assert_eq!(parse_answer(bad), None, "{bad}");
        }
    }

    fn sh(script: &str) -> EngineDef {
        EngineDef {
            name: "fake".into(),
            command: "sh".into(),
            args: vec!["-c".into(), script.into()],
            dir: None,
            protocol: 2,
            restart_per_game: false,
            moves_by_line: false,
        }
    }

    #[test]
    fn moves_go_one_at_a_time_to_an_engine_that_asks_for_it() {
        let mut p =
            ExternalPlayer::new(sh("exec cat >/dev/null"), None, Duration::ZERO, Duration::from_secs(1)).unwrap();
        let record = |text: &str| -> GgfGame {
            format!(
                "(;GM[Othello]PB[black]PW[white]RE[?]TI[1:00]TY[8]BO[8 {} *]{text};)",
                &Position::start().board_string()
            )
            .parse()
            .unwrap()
        };
        let first = record("B[F5//1]");
        let later = record("B[F5//1]W[D6/-1/2.5]B[C3//0]");
        // A whole record before every move by default.
        p.told = Some(first.clone());
        assert_eq!(p.game_lines(&later), [format!("set game {later}")]);
        // One at a time: nothing told yet, then the moves since.
        p.def.moves_by_line = true;
        p.told = None;
        assert_eq!(p.game_lines(&first), [format!("set game {first}")]);
        p.told = Some(first.clone());
        assert_eq!(p.game_lines(&later), ["move D6/-1/2.5", "move C3//0"]);
        assert_eq!(p.game_lines(&first), Vec::<String>::new());
        // Not a continuation: another start, another time control, other moves.
        let mut other = later.clone();
        other.time_control = Some("2:00".into());
        assert_eq!(p.game_lines(&other), [format!("set game {other}")]);
        let other = record("B[D3//1]W[C5//1]");
        assert_eq!(p.game_lines(&other), [format!("set game {other}")]);
        let mut other = later.clone();
        other.start = other.final_position();
        other.moves.clear();
        assert_eq!(p.game_lines(&other), [format!("set game {other}")]);
        p.told = Some(later.clone());
        assert_eq!(p.game_lines(&first), [format!("set game {first}")]);
        // A new game or process forgets what was told.
        assert!(p.start_game(Position::start(), &[], None).is_err(), "a silent engine");
        assert_eq!(p.told, None);
        p.told = Some(later);
        p.restart();
        assert_eq!(p.told, None);
    }

    #[test]
    fn output_that_is_not_text_is_bad_output() {
        let mut p = Process::start(&sh("printf 'ok\\r\\nab\\377\\376cd\\nF5\\n'; exec sleep 30")).unwrap();
        let wait = Duration::from_secs(5);
        let deadline = Instant::now() + wait;
        assert_eq!(p.read(deadline, wait, None), Ok("ok".to_string()));
        assert_eq!(
            p.read(deadline, wait, None),
            Err(Failure::NotText {
                engine: "fake".into(),
                start: vec![0xff, 0xfe, b'c', b'd'],
            })
        );
        // Nothing is read after it, and a closed output is told apart from an exit.
        let wait = Duration::from_millis(100);
        assert_eq!(
            p.read(Instant::now() + wait, wait, None),
            Err(Failure::Crashed("closed its output".into()))
        );
    }

    #[test]
    fn an_interrupt_ends_the_wait_for_a_move_and_the_engine() {
        // An engine that answers the ping, then sleeps on `go` (one process: exec).
        let script = "while read -r cmd arg; do case $cmd in ping) echo \"pong $arg\";; go) exec sleep 60;; esac; done";
        let mut p = ExternalPlayer::new(sh(script), Some(1), Duration::ZERO, Duration::from_secs(60)).unwrap();
        let flag = Arc::new(AtomicBool::new(false));
        p.set_interrupt(Arc::clone(&flag));
        assert_eq!(p.start_game(Position::start(), &[], None), Ok(()));
        let raise = {
            let flag = Arc::clone(&flag);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(200));
                flag.store(true, Ordering::SeqCst);
            })
        };
        let start = Instant::now();
        let reply = p.think(&Position::start(), &Limits::none());
        let waited = start.elapsed();
        raise.join().unwrap();
        assert!(Position::start().is_legal(reply.best_move));
        assert_eq!(p.take_failure(), Some(Failure::Interrupted));
        assert!(p.process.is_none(), "the process is ended");
        // Well under the engine's 60 s and the hang timeout's: the wait ends at the flag.
        assert!(waited < Duration::from_secs(5), "waited {waited:?}");
        // A raised flag also ends the wait for a pong at once.
        let start = Instant::now();
        assert_eq!(p.start_game(Position::start(), &[], None), Err(Failure::Interrupted));
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn depth_sent_only_with_a_depth_or_a_clock() {
        let player = |depth| {
            ExternalPlayer::new(sh("exec cat >/dev/null"), depth, Duration::ZERO, Duration::from_secs(1)).unwrap()
        };
        let (none, seven) = (player(None), player(Some(7)));
        assert_eq!(none.depth_to_send(None, false), None);
        assert_eq!(none.depth_to_send(None, true), Some(60));
        assert_eq!(none.depth_to_send(Some(3), false), Some(3));
        assert_eq!(none.depth_to_send(Some(99), true), Some(60));
        assert_eq!(seven.depth_to_send(None, false), Some(7));
        assert_eq!(seven.depth_to_send(None, true), Some(7));
        assert_eq!(seven.depth_to_send(Some(0), true), Some(1));
    }

    #[test]
    fn engines_file() {
        let text = r#"[{"name": "a", "command": "x", "args": ["1", "2"], "protocol": 1, "restart": "on"},
                      {"name": "b", "command": "y", "workingDirectory": "/tmp"}]"#;
        let e = parse_engines(text).unwrap();
        assert_eq!(e[0].args, vec!["1", "2"]);
        assert_eq!((e[0].protocol, e[0].restart_per_game), (1, true));
        assert_eq!(
            (e[1].protocol, e[1].restart_per_game, e[1].dir.as_deref()),
            (2, false, Some("/tmp"))
        );
        assert!(!e[0].moves_by_line && !e[1].moves_by_line);
        let by = |moves: &str| {
            parse_engines(&format!(r#"[{{"name": "a", "command": "x", "moves": "{moves}"}}]"#))
                .map(|e| e[0].moves_by_line)
        };
        assert_eq!(by("move"), Ok(true));
        assert_eq!(by("set-game"), Ok(false));
        assert_eq!(
            by("line"),
            Err("engine a: \"moves\" must be set-game or move, not line".to_string())
        );
        for bad in [
            "{}",
            "[1]",
            r#"[{"command": "x"}]"#,
            r#"[{"name": "a"}]"#,
            r#"[{"name": "a", "command": "x", "protocol": 3}]"#,
            r#"[{"name": "a", "command": "x", "args": "y"}]"#,
            r#"[{"name": "a", "command": "x", "colour": "y"}]"#,
            r#"[{"name": "a", "command": "x"}, {"name": "a", "command": "y"}]"#,
        ] {
            assert!(parse_engines(bad).is_err(), "{bad}");
        }
    }
}
