//! `othello nboard`: the NBoard engine protocol (version 2) on stdin/stdout.
//!
//! From the GUI: `nboard 2`, `set depth N`, `set game GGF`, `set contempt N`, `move F5[/eval/time]`,
//! `hint N`, `go`, `ping N`, `learn`, `quit` (`set contempt` is accepted and not used; the
//! version may be 1 or 2). A bad or unknown command is reported in one line on stderr,
//! `nboard: COMMAND: what is wrong`, and otherwise ignored: the session keeps its settings
//! (a `ping` with a bad number is still answered). `set game` reads the position and the clock
//! from one [`GgfGame`] parse; a record it refuses is reported, and one whose `TI` it cannot
//! read is played without a clock. `move F5/eval/time` (how the NBoard GUI tells each later
//! move, the engine's own included) adds the move to that record, its time on its mover's
//! clock. The engine times its own answers (from reading `go` to sending `===`); where the GUI
//! charges more for one of them, the gap is added to the clock's per-move overhead
//! (`--move-overhead` plus the largest of the last [`GAPS_KEPT`] gaps; off with
//! `--fixed-overhead`). To the GUI: `set myname`, `status`, `nodestats`, `search`, `===`,
//! `pong`, `learned`. Every line is flushed.
//!
//! A reader thread reads the input as bytes (a line that is not UTF-8, such as a Latin-1 player
//! name in a GGF record, is decoded lossily and reading goes on) and forwards the lines in order.
//! A `ping` raises the stop flag at once, so a running search ends early and the `pong` follows
//! its answer; the end of the input raises it too, and the session ends once the lines already
//! read are answered. During `go` a `nodestats` line follows each completed iteration; during
//! `hint` a `search` line (the iteration's principal variation) and a `nodestats` line do.
//!
//! Any engine spec plays, through the `Player` layer: a search (its iterations stream as
//! above; `hint N` lists its N best root moves), MCTS or the random player (no iterations to
//! stream; `===` carries no evaluation and `hint` gives the chosen move with 0.00).

use crate::error::CliResult;
use crate::search_cmd::discs;
use othello_engine::{Limits, MOVE_OVERHEAD, Player, Reply};
use othello_rules::{GgfGame, Move, Position};
use othello_spec::{DEFAULT_DEPTH, Engine, Spec};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// Options of `othello nboard`.
#[derive(clap::Args, Debug)]
pub struct NboardArgs {
    /// The engine spec (a search's depth is replaced by the GUI's `set depth`; its `time`, in
    /// milliseconds, is a fixed time per move that replaces the GUI's clock; its other limits
    /// stay as caps).
    #[arg(long, short, default_value = "pvs")]
    engine: String,
    /// Milliseconds each move costs beyond the search (stopping it, the pipe to the GUI): the
    /// clock of `set game` keeps this much for every move the engine has left, and a fixed time
    /// per move at least this much (at most half of it). Raise it for a slow GUI or machine.
    #[arg(long, default_value_t = MOVE_OVERHEAD.as_millis() as u64,
          value_parser = clap::value_parser!(u64).range(0..=60_000))]
    move_overhead: u64,
    /// Keep `--move-overhead` as given. By default the largest gap, over the engine's last 8
    /// moves the GUI timed, between the time the GUI charged for a move and the engine's own
    /// time from reading `go` to sending `===` (what the pipe and the GUI cost) is added to it.
    #[arg(long)]
    fixed_overhead: bool,
}

fn nboard_move(mv: Move) -> String {
    match mv {
        Move::Pass => "PA".to_string(),
        Move::Place(sq) => sq.to_string().to_uppercase(),
    }
}

/// How a session runs: the starting depth and the cap on `set depth`.
#[derive(Clone, Copy, Debug)]
pub struct SessionConfig {
    /// The search depth until the GUI sends `set depth`.
    pub depth: u32,
    /// The deepest `set depth` accepted; larger values are capped to it (60 on the command
    /// line; a fuzz target caps it low so that no input searches for minutes).
    pub max_depth: u32,
    /// Whether problems with the GUI's lines (a bad or unknown command, a bad GGF record, an
    /// illegal move) are reported on stderr.
    pub diagnostics: bool,
    /// Whether the engine's spec set its own limits (`depth`, `nodes`, `time`, `playouts`):
    /// under a game clock they stay as caps; without them the clock replaces the default
    /// iteration count of MCTS (a search's depth is always the session's).
    pub own_limits: bool,
    /// Whether to read the input to its end before returning after `quit` or a closed output,
    /// so that the reader thread has finished (for finite inputs: tests, fuzzing). Off on the
    /// command line, where a GUI may keep its end of the pipe open after `quit`.
    pub drain_input: bool,
    /// A fixed time per move (the spec's `time`): each search stops at it less
    /// `arena::clock::per_move_reserve`, and the clock of `set game` is ignored. The NBoard
    /// protocol has no time per move of its own.
    pub move_time: Option<Duration>,
    /// What each move costs beyond the search (`--move-overhead`): the game clock's
    /// [`GameClock::overhead`](othello_engine::GameClock::overhead), and the least a fixed time
    /// per move keeps in hand (at most half of it). With `measure_overhead`, what the GUI is
    /// seen to charge is added to it.
    pub move_overhead: Duration,
    /// Whether what the GUI is seen to charge beyond the engine's own time (the largest gap over
    /// the engine's last [`GAPS_KEPT`] moves the GUI timed) is added to `move_overhead`.
    pub measure_overhead: bool,
}

/// How many of the engine's own moves are remembered until the GUI reports their time.
const OWN_MOVES_KEPT: usize = 16;
/// How many of the latest gaps between the GUI's time for one of the engine's moves and the
/// engine's own time for it set the measured overhead (their largest).
pub const GAPS_KEPT: usize = 8;

/// One of the engine's answers to `go`, kept until the GUI reports the move with its time.
#[derive(Clone, Copy, Debug)]
struct OwnMove {
    /// The position the engine moved in.
    pos: Position,
    mv: Move,
    /// From reading `go` to sending `===`.
    took: Duration,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            depth: DEFAULT_DEPTH,
            own_limits: false,
            max_depth: 60,
            diagnostics: true,
            drain_input: false,
            move_time: None,
            move_overhead: MOVE_OVERHEAD,
            measure_overhead: true,
        }
    }
}

struct Session<W: Write> {
    engine: Engine,
    /// The spec's limits; the session's depth replaces their depth.
    base: Limits,
    config: SessionConfig,
    depth: u32,
    pos: Position,
    out: W,
    /// Set when the output is closed: the session ends.
    closed: bool,
    /// The game as the GUI has told it: the last `set game` record and the `move`s since, with
    /// their times (its clocks are `TI[]` less those times).
    record: GgfGame,
    /// When the line being handled was read.
    received: Instant,
    /// The engine's latest answers to `go`, until the GUI reports them ([`OWN_MOVES_KEPT`]).
    own_moves: VecDeque<OwnMove>,
    /// The latest gaps between the GUI's time for the engine's move and its own ([`GAPS_KEPT`]).
    gaps: VecDeque<Duration>,
    stop: Arc<AtomicBool>,
    end_of_input: Arc<AtomicBool>,
    pings_seen: Arc<AtomicU64>,
    pings_done: u64,
}

/// Writes one line and flushes it; a failure marks the output closed.
fn send(out: &mut impl Write, closed: &mut bool, line: &str) {
    if *closed {
        return;
    }
    if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
        *closed = true;
    }
}

/// A principal variation as NBoard writes it: `F5D6C3`, a pass as `PA`.
fn nboard_pv(pv: &[Move]) -> String {
    pv.iter().map(|&m| nboard_move(m)).collect()
}

impl<W: Write> Session<W> {
    fn say(&mut self, line: &str) {
        send(&mut self.out, &mut self.closed, line);
    }

    fn diagnose(&self, message: &str) {
        if self.config.diagnostics {
            eprintln!("nboard: {message}");
        }
    }

    /// What each move costs beyond the search: `--move-overhead` (the engine's own cost past
    /// its time: stopping the search, answering) plus, unless fixed, the largest of the latest
    /// gaps the GUI's times showed (the pipe's and the GUI's cost, which the engine's own
    /// timing does not see).
    fn overhead(&self) -> Duration {
        let measured = if self.config.measure_overhead {
            self.gaps.iter().copied().max().unwrap_or_default()
        } else {
            Duration::ZERO
        };
        self.config.move_overhead.saturating_add(measured)
    }

    /// The clock of the side to move, from the GUI's record; `None` without a readable `TI`.
    fn clock(&self) -> Option<othello_engine::GameClock> {
        let clock = crate::arena::clock::ggf_clock(&self.record).ok().flatten()?;
        Some(clock.with_overhead(self.overhead()))
    }

    /// Notes the GUI's time for a move played in `before`: if it is one of the engine's own
    /// answers, the gap between that time and the engine's own is kept.
    fn reported(&mut self, before: &Position, m: &othello_rules::GgfMove) {
        let Some(time) = m.time.filter(|t| *t >= 0.0) else {
            return;
        };
        // The position the mover saw (a record may leave out the other side's forced pass).
        let Some(before) = m.mover_position(before) else {
            return;
        };
        let Some(i) = self.own_moves.iter().position(|o| o.pos == before && o.mv == m.mv) else {
            return;
        };
        let own = self.own_moves.remove(i).expect("found above");
        let charged = Duration::try_from_secs_f64(time).unwrap_or(Duration::MAX);
        let was = self.overhead();
        if self.gaps.len() == GAPS_KEPT {
            self.gaps.pop_front();
        }
        self.gaps.push_back(charged.saturating_sub(own.took));
        let after = self.overhead();
        if after > was {
            self.diagnose(&format!(
                "the GUI charged {:.1} ms for {} that took {:.1} ms here: {:.1} ms kept for each move left",
                charged.as_secs_f64() * 1e3,
                nboard_move(m.mv),
                own.took.as_secs_f64() * 1e3,
                after.as_secs_f64() * 1e3
            ));
        }
    }

    /// Limits for one search. The stop flag is lowered, then raised again if a ping is queued
    /// or the input has ended (in this order, so a flag raised meanwhile by the reader is kept).
    fn limits(&self) -> Limits {
        self.stop.store(false, Ordering::SeqCst);
        if self.pings_seen.load(Ordering::SeqCst) > self.pings_done || self.end_of_input.load(Ordering::SeqCst) {
            self.stop.store(true, Ordering::SeqCst);
        }
        let mut limits = self.base.clone();
        limits.depth = Some(self.depth);
        if let Some(t) = self.config.move_time {
            // A fixed time per move, whatever the GUI's clock says.
            let reserve = crate::arena::clock::per_move_reserve(t, t, self.overhead());
            limits.time = Limits::move_time(t - reserve).time;
            return limits.with_stop(self.stop.clone());
        }
        let clock = self.clock();
        if clock.is_some() && !self.config.own_limits {
            // The clock decides, under the `set depth` cap.
            limits.nodes = None;
            limits.time = None;
        }
        let limits = limits.with_stop(self.stop.clone());
        match clock {
            Some(clock) => limits.with_clock(clock),
            None => limits,
        }
    }

    /// Thinks about the current position, streaming a line per completed iteration
    /// (`nodestats`; with `hint`, a `search` line before it). A closed output stops the search.
    fn search(&mut self, hint: bool) -> Reply {
        self.engine.set_multi_pv(hint);
        let limits = self.limits();
        let Session {
            engine,
            out,
            closed,
            pos,
            stop,
            ..
        } = self;
        let r = engine.think_with(pos, &limits, &mut |it| {
            if hint {
                let depth = if it.exact {
                    "100%".to_string()
                } else {
                    it.depth.to_string()
                };
                let line = format!("search {} {:.2} 0 {depth}", nboard_pv(&it.pv), discs(it.score));
                send(out, closed, &line);
            }
            let line = format!("nodestats {} {:.3}", it.nodes, it.time.as_secs_f64());
            send(out, closed, &line);
            if *closed {
                stop.store(true, Ordering::SeqCst);
            }
        });
        self.engine.set_multi_pv(false);
        r
    }

    /// Reports a bad or unknown command on stderr (when diagnostics are on): the command as
    /// received, then what is wrong. The command is otherwise ignored.
    fn refuse(&self, line: &str, why: &str) {
        self.diagnose(&format!("{line}: {why}"));
    }

    fn handle(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return };
        match cmd {
            "nboard" => match words.next() {
                // Version 1 differs from 2 only in lines this engine does not send.
                Some("1" | "2") => self.say("set myname othello-toolkit"),
                Some(v) => self.refuse(line, &format!("unsupported protocol version {v} (expected 2)")),
                None => self.refuse(line, "missing protocol version (expected 2)"),
            },
            "set" => match words.next() {
                Some("depth") => match parse_count(words.next()) {
                    Ok(d) => self.depth = d.min(self.config.max_depth).min(60),
                    Err(why) => self.refuse(line, &format!("bad depth: {why}")),
                },
                Some("game") => {
                    let ggf = line.split_once("game").map(|(_, g)| g.trim()).unwrap_or("");
                    match ggf.parse::<GgfGame>() {
                        Ok(game) => {
                            if let Err(e) = game.time_limits() {
                                self.diagnose(&format!("set game: {e}; playing without a clock"));
                            }
                            for (before, m) in game.positions().iter().zip(&game.moves) {
                                self.reported(before, m);
                            }
                            self.pos = game.final_position();
                            self.record = game;
                        }
                        Err(e) => self.diagnose(&format!("set game: {e}")),
                    }
                }
                // Accepted and not used: no engine here plays for a draw differently.
                Some("contempt") => {
                    if let Err(why) = words
                        .next()
                        .ok_or("missing")
                        .and_then(|c| c.parse::<i64>().map(drop).map_err(|_| "expected a whole number"))
                    {
                        self.refuse(line, &format!("bad contempt: {why}"));
                    }
                }
                Some(other) => self.refuse(line, &format!("unknown option {other}")),
                None => self.refuse(line, "missing option"),
            },
            "move" => {
                let Some(text) = words.next() else {
                    return self.refuse(line, "missing move");
                };
                // The mover: the side to move, or the other side when this one must pass and
                // the GUI left the pass out.
                let mv_text = text.split('/').next().unwrap_or("");
                let color = match mv_text.parse::<Move>() {
                    Ok(mv) if mv != Move::Pass && self.pos.must_pass() => self.pos.side_to_move().opposite(),
                    Ok(_) => self.pos.side_to_move(),
                    Err(e) => return self.refuse(line, &e.to_string()),
                };
                // `F5[/eval[/time]]`, as in a record: the time goes on the mover's clock.
                let m = match othello_rules::GgfMove::parse(text, color) {
                    Ok(m) => m,
                    Err(e) => return self.refuse(line, &e.to_string()),
                };
                let played = m
                    .mover_position(&self.pos)
                    .ok_or_else(|| format!("{color} moves out of turn"))
                    .and_then(|p| p.play(m.mv).map_err(|e| e.to_string()));
                match played {
                    Ok(p) => {
                        let before = self.pos;
                        self.reported(&before, &m);
                        self.record.moves.push(m);
                        self.pos = p;
                    }
                    Err(e) => self.refuse(line, &format!("illegal move: {e}")),
                }
            }
            "go" => {
                self.say("status thinking");
                let r = self.search(false);
                let secs = r.time.as_secs_f64();
                self.say(&format!("nodestats {} {secs:.3}", r.nodes));
                let eval = r.score.map_or(String::new(), |s| format!("{:.2}", discs(s)));
                self.say(&format!("=== {}/{eval}/{secs:.3}", nboard_move(r.best_move)));
                if self.own_moves.len() == OWN_MOVES_KEPT {
                    self.own_moves.pop_front();
                }
                self.own_moves.push_back(OwnMove {
                    pos: self.pos,
                    mv: r.best_move,
                    took: self.received.elapsed(),
                });
                self.say("status");
            }
            "hint" => {
                let n = match words.next() {
                    None => 1,
                    Some(n) => match parse_count(Some(n)) {
                        Ok(n) => n as usize,
                        Err(why) => return self.refuse(line, &format!("bad count: {why}")),
                    },
                };
                self.say("status thinking");
                let r = self.search(true);
                let depth = if r.book {
                    "book".to_string()
                } else if r.exact {
                    "100%".to_string()
                } else {
                    r.depth.to_string()
                };
                let moves = if r.root_moves.is_empty() {
                    vec![(r.best_move, r.score.unwrap_or(0))]
                } else {
                    r.root_moves.clone()
                };
                for (mv, score) in moves.into_iter().take(n) {
                    self.say(&format!("search {} {:.2} 0 {depth}", nboard_move(mv), discs(score)));
                }
                self.say(&format!("nodestats {} {:.3}", r.nodes, r.time.as_secs_f64()));
                self.say("status");
            }
            "ping" => {
                // Always answered (the GUI waits for it, and the reader counted it), even when
                // its number is malformed.
                self.pings_done += 1;
                let n = words.next().unwrap_or("0").to_string();
                if n.parse::<u64>().is_err() {
                    self.refuse(line, "expected a number at least 0");
                }
                self.say(&format!("pong {n}"));
            }
            "learn" => self.say("learned"),
            "quit" => self.closed = true,
            _ => self.refuse(line, "unknown command"),
        }
    }
}

/// A count of at least 1 (`set depth N`, `hint N`), or what is wrong with it.
fn parse_count(word: Option<&str>) -> Result<u32, &'static str> {
    const WHY: &str = "expected a whole number at least 1";
    match word.ok_or("missing")?.parse::<u32>() {
        Ok(0) => Err(WHY),
        Ok(n) => Ok(n),
        // Larger than any depth or move count: capped by the caller.
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Ok(u32::MAX),
        Err(_) => Err(WHY),
    }
}

/// The player an engine spec describes, for NBoard, with the session settings of its spec:
/// the starting depth (the spec's `depth`, else [`DEFAULT_DEPTH`]) and whether it set its own
/// limits; the other settings are the defaults.
///
/// # Errors
/// Bad input naming the problem with the spec.
pub fn engine_from_spec(text: &str) -> CliResult<(Engine, SessionConfig)> {
    let spec: Spec = text.parse()?;
    let own_limits = spec.sets_limits();
    let spec_time = spec.contains("time");
    let engine = Engine::from_spec(spec)?;
    let move_time = spec_time.then(|| engine.limits().time.map(|t| t.hard)).flatten();
    let config = SessionConfig {
        depth: engine.limits().depth.unwrap_or(DEFAULT_DEPTH),
        own_limits,
        move_time,
        ..SessionConfig::default()
    };
    Ok((engine, config))
}

/// Speaks NBoard on `input` and `output` until the input ends (or `quit`, or the output
/// closes), then returns once every line read before the end has been answered. A running
/// search is stopped at the end of the input.
pub fn serve<R, W>(engine: Engine, config: SessionConfig, input: R, output: W)
where
    R: Read + Send + 'static,
    W: Write,
{
    let stop = Arc::new(AtomicBool::new(false));
    let end_of_input = Arc::new(AtomicBool::new(false));
    let pings_seen = Arc::new(AtomicU64::new(0));
    let (tx, rx) = mpsc::channel::<(Instant, String)>();
    let reader = {
        let (stop, end_of_input, pings_seen) = (stop.clone(), end_of_input.clone(), pings_seen.clone());
        std::thread::spawn(move || {
            let mut reader = BufReader::new(input);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim();
                        if line.split_whitespace().next() == Some("ping") {
                            pings_seen.fetch_add(1, Ordering::SeqCst);
                            stop.store(true, Ordering::SeqCst);
                        }
                        if tx.send((Instant::now(), line.to_string())).is_err() {
                            break;
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    // A read error ends the input like an end of file.
                    Err(_) => break,
                }
            }
            // Raised in this order; see `Session::limits`.
            end_of_input.store(true, Ordering::SeqCst);
            stop.store(true, Ordering::SeqCst);
        })
    };
    let base = engine.limits();
    let mut session = Session {
        engine,
        base,
        config,
        depth: config.depth.clamp(1, config.max_depth.max(1)),
        pos: Position::start(),
        out: output,
        closed: false,
        record: GgfGame::new(Position::start(), "", ""),
        received: Instant::now(),
        own_moves: VecDeque::new(),
        gaps: VecDeque::new(),
        stop,
        end_of_input,
        pings_seen,
        pings_done: 0,
    };
    let mut ended = true;
    for (received, line) in rx.iter() {
        session.received = received;
        session.handle(&line);
        if session.closed {
            ended = false;
            break;
        }
    }
    if !ended && config.drain_input {
        rx.iter().for_each(drop);
        ended = true;
    }
    if ended {
        // The channel is closed: the reader thread has finished or is finishing.
        let _ = reader.join();
    }
}

/// Runs `othello nboard` until stdin closes.
pub fn run(args: &NboardArgs) -> CliResult {
    let (mut engine, mut config) = engine_from_spec(&args.engine)?;
    config.move_overhead = Duration::from_millis(args.move_overhead);
    config.measure_overhead = !args.fixed_overhead;
    // A first search before the GUI's first `go`, so that no timed move pays for allocating
    // the table, then a clean start.
    engine.think(&Position::start(), &Limits::depth(1).with_nodes(1));
    engine.new_game();
    serve(engine, config, std::io::stdin(), std::io::stdout());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_rules::Color;

    const START: &str = "---------------------------O*------*O---------------------------";

    fn session() -> Session<Vec<u8>> {
        let (engine, _) = engine_from_spec("pvs:tt=1").unwrap();
        let config = SessionConfig {
            depth: 2,
            max_depth: 7,
            diagnostics: false,
            ..SessionConfig::default()
        };
        Session {
            base: engine.limits(),
            engine,
            config,
            depth: 2,
            pos: Position::start(),
            out: Vec::new(),
            closed: false,
            record: GgfGame::new(Position::start(), "", ""),
            received: Instant::now(),
            own_moves: VecDeque::new(),
            gaps: VecDeque::new(),
            stop: Arc::default(),
            end_of_input: Arc::default(),
            pings_seen: Arc::default(),
            pings_done: 0,
        }
    }

    fn output(s: &mut Session<Vec<u8>>) -> String {
        String::from_utf8(std::mem::take(&mut s.out)).unwrap()
    }

    #[test]
    fn set_game_takes_position_and_clock_from_one_record() {
        let mut s = session();
        s.handle(&format!(
            "set game (;GM[Othello]PC[NBoard]TI[1:00/1]TY[8]BO[8 {START} *]B[F5]W[F6//1.5]B[E6/0.5/1];)"
        ));
        let expect = othello_rules::text::play_sequence(&Position::start(), "f5f6e6").unwrap();
        assert_eq!(s.pos, expect);
        // White to move: 60 s + 1 s increment - 1.5 s.
        let clock = s.clock().unwrap();
        assert_eq!(clock.remaining, Duration::from_millis(59_500));
        assert_eq!(clock.increment, Duration::from_secs(1));
        // A refused record keeps the previous position and clock.
        for bad in [
            "(;GM[Othello]B[F5];)".to_string(),
            format!("(;BO[8 {START} *]B[A1];)"),
            format!("BO[8 {START} *]"),
            format!("(;BO[8 {START} *]B[F5/x];)"),
        ] {
            s.handle(&format!("set game {bad}"));
            assert_eq!(s.pos, expect, "{bad}");
            assert_eq!(s.clock(), Some(clock), "{bad}");
        }
        // A trailing pass of the side that must pass; no TI: no clock.
        s.handle(&format!("set game (;BO[4 -O{} O]W[PA];)", "*".repeat(14)));
        assert_eq!(s.pos.side_to_move(), Color::Black);
        let before = othello_rules::text::parse_board(&format!("-O{}", "*".repeat(14)), Color::White).unwrap();
        assert_eq!(s.pos, before.pass_unchecked());
        assert_eq!(s.clock(), None);
        // A record with a bad TI: the position is taken, without a clock.
        s.handle(&format!("set game (;TI[soon]BO[8 {START} *]B[F5];)"));
        assert_eq!(
            s.pos,
            othello_rules::text::play_sequence(&Position::start(), "f5").unwrap()
        );
        assert_eq!(s.clock(), None);
        assert_eq!(output(&mut s), "");
    }

    #[test]
    fn move_lines_keep_both_sides_clocks() {
        let secs = |s: &Session<Vec<u8>>| s.clock().unwrap().remaining.as_secs_f64();
        let mut s = session();
        // Black to move, 10 s of its minute used.
        s.handle(&format!(
            "set game (;GM[Othello]TI[1:00/0.5]BO[8 {START} *]B[F5//10]W[D6//1];)"
        ));
        assert_eq!(secs(&s), 50.5);
        // As the NBoard GUI sends later moves: each time goes on its mover's clock.
        s.handle("move C3/1.5/5");
        assert_eq!(s.pos.side_to_move(), Color::White);
        assert_eq!(secs(&s), 59.5);
        s.handle("move D3//2");
        assert_eq!(secs(&s), 46.0);
        // No time: the clock is not charged (nor given an increment), as in a record.
        s.handle("move C4");
        assert_eq!(secs(&s), 58.0);
        // The same as one record of the five moves.
        let moves = s.record.moves.clone();
        s.handle(&format!(
            "set game (;GM[Othello]TI[1:00/0.5]BO[8 {START} *]B[F5//10]W[D6//1]B[C3/1.5/5]W[D3//2]B[C4];)"
        ));
        assert_eq!(s.record.moves, moves);
        assert_eq!(secs(&s), 58.0);
        // A bad evaluation or time refuses the move.
        let pos = s.pos;
        for bad in ["move E3//abc", "move E3/x/1", "move E3//inf"] {
            s.handle(bad);
            assert_eq!((s.pos, secs(&s)), (pos, 58.0), "{bad}");
        }
        assert_eq!(s.record.moves.len(), 5);
        assert_eq!(output(&mut s), "");
    }

    #[test]
    fn the_overhead_follows_the_gui_s_times_for_the_engine_s_moves() {
        let ms = Duration::from_millis;
        let mut s = session();
        let start = Position::start();
        let f5: Move = "f5".parse().unwrap();
        let own = |pos: Position, mv: Move, took: u64| OwnMove {
            pos,
            mv,
            took: ms(took),
        };
        s.handle(&format!("set game (;GM[Othello]TI[1:00]BO[8 {START} *];)"));
        assert_eq!(s.overhead(), MOVE_OVERHEAD);
        // The engine took 20 ms for f5; the GUI charged 50 ms: 30 ms more per move.
        s.own_moves.push_back(own(start, f5, 20));
        s.handle("move F5//0.05");
        assert_eq!(s.gaps, [ms(30)]);
        assert!(s.own_moves.is_empty());
        assert_eq!(s.clock().unwrap().overhead, ms(35));
        assert_eq!(s.limits().clock.unwrap().overhead, ms(35));
        // The opponent's times are not the engine's overhead, nor another move than the
        // engine's in its position (the GUI played something else).
        s.handle("move D6//0.5");
        assert_eq!(s.gaps.len(), 1);
        s.own_moves.push_back(own(s.pos, "c5".parse().unwrap(), 1));
        // A GUI that charges less than the engine measured: a gap of 0.
        let after = s.pos;
        let c3: Move = "c3".parse().unwrap();
        s.own_moves.push_back(own(after, c3, 40));
        s.handle("move C3//0.01");
        assert_eq!(s.gaps, [ms(30), ms(0)]);
        assert_eq!(s.own_moves.len(), 1, "c5 was not played");
        s.own_moves.clear();
        // A fixed time per move keeps the measured overhead too: 160 ms less 35.
        s.config.move_time = Some(ms(160));
        assert_eq!(s.limits().time.unwrap().hard, ms(125));
        s.config.move_time = None;
        // Off: the configured overhead alone.
        s.config.measure_overhead = false;
        assert_eq!(s.overhead(), MOVE_OVERHEAD);
        s.config.measure_overhead = true;
        // The configured overhead is the engine's own cost: the GUI's comes on top.
        s.config.move_overhead = ms(45);
        assert_eq!(s.overhead(), ms(75));
        s.config.move_overhead = MOVE_OVERHEAD;
        // Only the latest GAPS_KEPT gaps count: the 30 ms one ages out.
        for i in 0..GAPS_KEPT - 2 {
            s.gaps.push_back(ms(i as u64));
        }
        assert_eq!(s.overhead(), ms(35));
        let d3: Move = "d3".parse().unwrap();
        s.own_moves.push_back(own(s.pos, d3, 10));
        s.handle("move D3//0.016");
        assert_eq!(s.gaps.len(), GAPS_KEPT);
        assert_eq!(s.overhead(), ms(11));
        // A time beyond any clock: the engine answers at once, without overflowing.
        s.own_moves.push_back(own(s.pos, "c4".parse().unwrap(), 1));
        s.handle("move C4//1e300");
        assert_eq!(s.overhead(), Duration::MAX);
        let clock = s.limits().clock.unwrap();
        assert_eq!(
            othello_engine::allocate(&clock, s.pos.empty_count()).hard,
            Duration::ZERO
        );
        // A record reports each of the engine's moves once, however often it is sent.
        let mut s = session();
        s.own_moves.push_back(own(start, f5, 10));
        let game = format!("set game (;GM[Othello]TI[1:00]BO[8 {START} *]B[F5//0.1]W[D6//1];)");
        s.handle(&game);
        s.handle(&game);
        assert_eq!(s.gaps, [ms(90)]);
        // A record that leaves out a forced pass: the engine moved after it.
        let board = format!("-O{}", "*".repeat(14));
        let white = othello_rules::text::parse_board(&board, Color::White).unwrap();
        assert!(white.must_pass());
        let a1: Move = "a1".parse().unwrap();
        s.own_moves.push_back(own(white.pass_unchecked(), a1, 5));
        s.handle(&format!("set game (;TI[1:00]BO[4 {board} O]B[A1//0.025];)"));
        assert_eq!(s.gaps, [ms(90), ms(20)]);
        // A move of the other side when this one must pass and the GUI left the pass out.
        s.handle(&format!("set game (;TI[1:00]BO[4 {board} O];)"));
        s.handle("move A1//0.01");
        assert_eq!(s.pos, white.pass_unchecked().play(a1).unwrap());
        assert_eq!(s.record.moves.len(), 1);
        // The engine's own pass is one of its moves too.
        s.handle(&format!("set game (;TI[1:00]BO[4 {board} O];)"));
        s.own_moves.push_back(own(white, Move::Pass, 5));
        s.handle("move PA//0.015");
        assert_eq!(s.gaps, [ms(90), ms(20), ms(10)]);
        assert_eq!(s.pos, white.pass_unchecked());
        assert_eq!(output(&mut s), "");
    }

    #[test]
    fn go_times_the_engine_s_answer_from_the_line_s_arrival() {
        let mut s = session();
        s.handle(&format!("set game (;GM[Othello]TI[1:00]BO[8 {START} *];)"));
        s.received = Instant::now() - Duration::from_millis(40);
        s.handle("go");
        let own = *s.own_moves.back().unwrap();
        assert_eq!(own.pos, Position::start());
        // Each answer is kept until reported, the latest OWN_MOVES_KEPT of them.
        s.handle("go");
        assert_eq!(s.own_moves.len(), 2);
        while s.own_moves.len() < OWN_MOVES_KEPT {
            s.own_moves.push_back(own);
        }
        s.own_moves[1].took = Duration::from_secs(7);
        s.handle("go");
        assert_eq!(s.own_moves.len(), OWN_MOVES_KEPT);
        assert_eq!(s.own_moves[0].took, Duration::from_secs(7));
        s.own_moves.clear();
        s.own_moves.push_back(own);
        assert!(own.took >= Duration::from_millis(40), "{:?}", own.took);
        let answer = output(&mut s);
        assert!(answer.contains(&format!("=== {}/", nboard_move(own.mv))), "{answer}");
        // The GUI charged a second more than that.
        let charged = own.took.as_secs_f64() + 1.0;
        s.handle(&format!("move {}//{charged:.6}", nboard_move(own.mv)));
        let gap = s.gaps[0];
        assert!(
            gap > Duration::from_millis(999) && gap < Duration::from_millis(1001),
            "{gap:?}"
        );
    }

    #[test]
    fn the_spec_sets_the_starting_depth_its_own_limits_and_a_fixed_move_time() {
        let config = |text: &str| engine_from_spec(text).unwrap().1;
        let c = config("pvs");
        assert_eq!((c.depth, c.own_limits, c.move_time), (DEFAULT_DEPTH, false, None));
        let c = config("pvs:depth=7");
        assert_eq!((c.depth, c.own_limits, c.move_time), (7, true, None));
        let c = config("pvs:time=75");
        assert_eq!((c.own_limits, c.move_time), (true, Some(Duration::from_millis(75))));
        assert!(config("pvs:nodes=1000").own_limits);
        assert!(config("mcts:playouts=10").own_limits);
        assert!(!config("mcts").own_limits);
        assert_eq!(config("pvs").move_overhead, MOVE_OVERHEAD);
        assert!(engine_from_spec("pvs:depth=x").is_err());
    }

    #[test]
    fn the_move_overhead_reaches_the_clock_and_the_fixed_move_time() {
        let ms = Duration::from_millis;
        let mut s = session();
        let game = format!("set game (;GM[Othello]TI[1:00]BO[8 {START} *]B[F5//1];)");
        s.handle(&game);
        assert_eq!(s.clock().unwrap().overhead, MOVE_OVERHEAD);
        s.config.move_overhead = ms(20);
        s.handle(&game);
        let clock = s.clock().unwrap();
        assert_eq!((clock.remaining, clock.overhead), (ms(60_000), ms(20)));
        assert_eq!(s.limits().clock, Some(clock));
        // A fixed time per move keeps the larger of the overhead and t / 16, at most t / 2
        // (`arena::clock::per_move_reserve` with the overhead as its floor).
        s.config.move_time = Some(ms(160));
        let hard = |s: &Session<Vec<u8>>| s.limits().time.unwrap().hard;
        assert_eq!(hard(&s), ms(140));
        s.config.move_overhead = ms(0);
        assert_eq!(hard(&s), ms(150));
        s.config.move_overhead = ms(500);
        assert_eq!(hard(&s), ms(80));
        assert_eq!(s.limits().clock, None);
    }

    #[test]
    fn bad_commands_change_nothing_and_answer_nothing() {
        let mut s = session();
        s.handle("set depth 5");
        assert_eq!(s.depth, 5);
        for bad in [
            "set depth -5",
            "set depth abc",
            "set depth 0",
            "set depth",
            "set depth 2.5",
            "nboard 9",
            "nboard",
            "set contempt x",
            "set contempt",
            "set colour black",
            "set",
            "hint 0",
            "hint abc",
            "move",
            "move Z9",
            "move A1",
            "frobnicate",
        ] {
            s.handle(bad);
            assert_eq!(s.depth, 5, "{bad}");
            assert_eq!(s.pos, Position::start(), "{bad}");
            assert!(!s.closed, "{bad}");
            assert_eq!(output(&mut s), "", "{bad}");
        }
        // Deeper than the cap: capped; a number too large for any type: capped too.
        s.handle("set depth 9");
        assert_eq!(s.depth, 7);
        s.handle("set depth 3");
        s.handle("set depth 99999999999999999999");
        assert_eq!(s.depth, 7);
        s.handle("set contempt -3");
        s.handle("nboard 2");
        s.handle("nboard 1");
        assert_eq!(
            output(&mut s),
            "set myname othello-toolkit\nset myname othello-toolkit\n"
        );
        // A ping is always answered, and counted.
        s.handle("ping x");
        s.handle("ping");
        s.handle("ping 4");
        assert_eq!(output(&mut s), "pong x\npong 0\npong 4\n");
        assert_eq!(s.pings_done, 3);
        s.handle("move F5");
        assert_eq!(
            s.pos,
            othello_rules::text::play_sequence(&Position::start(), "f5").unwrap()
        );
        s.handle("quit");
        assert!(s.closed);
    }

    #[test]
    fn counts() {
        assert_eq!(parse_count(Some("1")), Ok(1));
        assert_eq!(parse_count(Some("60")), Ok(60));
        assert_eq!(parse_count(Some("4294967296")), Ok(u32::MAX));
        for bad in [None, Some("0"), Some("-1"), Some("x"), Some(""), Some("1.0")] {
            assert!(parse_count(bad).is_err(), "{bad:?}");
        }
    }
}
