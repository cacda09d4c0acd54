//! `othello nboard`: the NBoard engine protocol (version 2) on stdin/stdout.
//!
//! From the GUI: `nboard 2`, `set depth N`, `set game GGF`, `set contempt N`, `move F5[/eval/time]`,
//! `hint N`, `go`, `ping N`, `learn`, `quit`; other lines are ignored. To the GUI: `set myname`,
//! `status`, `nodestats`, `search`, `===`, `pong`, `learned`. Every line is flushed.
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
use othello_engine::{Limits, Player, Reply};
use othello_rules::{Color, Move, Position};
use othello_spec::{DEFAULT_DEPTH, Engine, Spec};
use std::io::{BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};

/// Options of `othello nboard`.
#[derive(clap::Args, Debug)]
pub struct NboardArgs {
    /// The engine spec (a search's depth is replaced by the GUI's `set depth`; its `time`, in
    /// milliseconds, is a fixed time per move that replaces the GUI's clock; its other limits
    /// stay as caps).
    #[arg(long, short, default_value = "pvs")]
    engine: String,
}

/// Parses a GGF game record (`(;GM[Othello]...BO[8 <board> *]B[F5]W[E6//1.2]...;)`) into the
/// position after its moves.
///
/// # Errors
/// A description of the first problem.
pub fn parse_ggf(text: &str) -> Result<Position, String> {
    let mut pos: Option<Position> = None;
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let key: String = rest[..open]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let close = rest[open..].find(']').ok_or("unclosed '[' in GGF")? + open;
        let value = &rest[open + 1..close];
        rest = &rest[close + 1..];
        match key.as_str() {
            "BO" => {
                let mut parts = value.split_whitespace();
                let _size = parts.next().ok_or("empty BO[]")?;
                let board = parts.next().ok_or("BO[] without a board")?;
                let side = match parts.next() {
                    Some("*") | Some("X") | Some("x") => "X",
                    Some("O") | Some("o") => "O",
                    other => return Err(format!("bad side to move {other:?} in BO[]")),
                };
                pos = Some(
                    format!("{board} {side}")
                        .parse::<Position>()
                        .map_err(|e| format!("BO[]: {e}"))?,
                );
            }
            "B" | "W" => {
                let p = pos.as_mut().ok_or("a move before the board BO[]")?;
                let color = if key == "B" { Color::Black } else { Color::White };
                let mv_text = value.split('/').next().unwrap_or("").trim();
                let mv: Move = mv_text.parse().map_err(|e| format!("move {mv_text}: {e}"))?;
                *p = play_for(p, color, mv)?;
            }
            _ => {}
        }
    }
    pos.ok_or_else(|| "GGF without a board BO[]".to_string())
}

/// Plays `mv` for `color`, inserting the forced pass of the other side when the record skips it.
fn play_for(pos: &Position, color: Color, mv: Move) -> Result<Position, String> {
    let mut p = *pos;
    if p.side_to_move() != color {
        if mv == Move::Pass {
            return Err(format!("{color} passes out of turn"));
        }
        if !p.must_pass() {
            return Err(format!("{color} moves out of turn"));
        }
        p = p.pass_unchecked();
    }
    p.play(mv).map_err(|e| e.to_string())
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
    /// Whether problems with the GUI's lines (a bad GGF record, an illegal move) are reported
    /// on stderr.
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
    pub move_time: Option<std::time::Duration>,
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
    /// The clock of the last `set game` (its `TI[]` and move times), if it had one.
    clock: Option<othello_engine::GameClock>,
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
            let reserve = crate::arena::clock::per_move_reserve(t, t);
            limits.time = Limits::move_time(t - reserve).time;
            return limits.with_stop(self.stop.clone());
        }
        if self.clock.is_some() && !self.config.own_limits {
            // The clock decides, under the `set depth` cap.
            limits.nodes = None;
            limits.time = None;
        }
        let limits = limits.with_stop(self.stop.clone());
        match self.clock {
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

    fn handle(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return };
        match cmd {
            "nboard" => self.say("set myname othello-toolkit"),
            "set" => match words.next() {
                Some("depth") => {
                    if let Some(d) = words.next().and_then(|d| d.parse::<u32>().ok()).filter(|&d| d >= 1) {
                        self.depth = d.min(self.config.max_depth).min(60);
                    }
                }
                Some("game") => {
                    let ggf = line.split_once("game").map(|(_, g)| g.trim()).unwrap_or("");
                    self.clock = ggf
                        .parse::<othello_rules::GgfGame>()
                        .ok()
                        .and_then(|g| crate::arena::clock::ggf_clock(&g));
                    match parse_ggf(ggf) {
                        Ok(p) => self.pos = p,
                        Err(e) => self.diagnose(&format!("bad game: {e}")),
                    }
                }
                _ => {}
            },
            "move" => {
                let text = words.next().unwrap_or("");
                let mv_text = text.split('/').next().unwrap_or("");
                match mv_text.parse::<Move>() {
                    Ok(mv) => {
                        let color = if mv == Move::Pass || !self.pos.must_pass() {
                            self.pos.side_to_move()
                        } else {
                            self.pos.side_to_move().opposite()
                        };
                        match play_for(&self.pos, color, mv) {
                            Ok(p) => self.pos = p,
                            Err(e) => self.diagnose(&format!("illegal move {text}: {e}")),
                        }
                    }
                    Err(e) => self.diagnose(&e.to_string()),
                }
            }
            "go" => {
                self.say("status thinking");
                let r = self.search(false);
                let secs = r.time.as_secs_f64();
                self.say(&format!("nodestats {} {secs:.3}", r.nodes));
                let eval = r.score.map_or(String::new(), |s| format!("{:.2}", discs(s)));
                self.say(&format!("=== {}/{eval}/{secs:.3}", nboard_move(r.best_move)));
                self.say("status");
            }
            "hint" => {
                let n: usize = words.next().and_then(|n| n.parse().ok()).unwrap_or(1).max(1);
                self.say("status thinking");
                let r = self.search(true);
                let depth = if r.exact {
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
                self.pings_done += 1;
                let n = words.next().unwrap_or("0").to_string();
                self.say(&format!("pong {n}"));
            }
            "learn" => self.say("learned"),
            "quit" => self.closed = true,
            _ => {}
        }
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
    let (tx, rx) = mpsc::channel::<String>();
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
                        if tx.send(line.to_string()).is_err() {
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
        clock: None,
        stop,
        end_of_input,
        pings_seen,
        pings_done: 0,
    };
    let mut ended = true;
    for line in rx.iter() {
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
    let (mut engine, config) = engine_from_spec(&args.engine)?;
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

    #[test]
    fn ggf_with_moves_and_passes() {
        let start = "---------------------------O*------*O---------------------------";
        let p = parse_ggf(&format!(
            "(;GM[Othello]PC[NBoard]TY[8]BO[8 {start} *]B[F5]W[F6//1.2]B[E6/0.5/1];)"
        ))
        .unwrap();
        let expect = othello_rules::text::play_sequence(&Position::start(), "f5f6e6").unwrap();
        assert_eq!(p, expect);
        assert!(parse_ggf("(;GM[Othello]B[F5];)").is_err());
        assert!(parse_ggf(&format!("(;BO[8 {start} *]B[A1];)")).is_err());
        // A trailing pass of the side that must pass.
        let pass = parse_ggf(&format!("(;BO[4 -O{} O]W[PA];)", "*".repeat(14))).unwrap();
        assert_eq!(pass.side_to_move(), Color::Black);
    }
}
