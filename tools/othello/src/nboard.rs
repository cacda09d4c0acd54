//! `othello nboard`: the NBoard engine protocol (version 2) on stdin/stdout.
//!
//! From the GUI: `nboard 2`, `set depth N`, `set game GGF`, `set contempt N`, `move F5[/eval/time]`,
//! `hint N`, `go`, `ping N`, `learn`; other lines are ignored. To the GUI: `set myname`,
//! `status`, `nodestats`, `search`, `===`, `pong`, `learned`. Every line is flushed.
//!
//! A reader thread forwards stdin lines in order; a `ping` also raises the stop flag at once so
//! a running search ends early (its answer still comes before the `pong`).

use crate::engine::{search_config, search_limits};
use crate::error::{CliResult, input};
use crate::evalspec::CliEval;
use crate::search_cmd::discs;
use crate::spec::Spec;
use othello_rules::{Color, Move, Position};
use othello_search::{Limits, Searcher};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};

/// Options of `othello nboard`.
#[derive(clap::Args, Debug)]
pub struct NboardArgs {
    /// The search engine spec (its depth is replaced by the GUI's `set depth`).
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

struct Session {
    searcher: Searcher<CliEval>,
    depth: u32,
    pos: Position,
    stop: Arc<AtomicBool>,
    pings_seen: Arc<AtomicU64>,
    pings_done: u64,
}

impl Session {
    fn say(&self, line: &str) {
        let mut out = std::io::stdout().lock();
        // A closed stdout ends the session at the next read; nothing to report here.
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    /// Limits for one search; the stop flag is already raised if a ping is queued.
    fn limits(&self) -> Limits {
        self.stop.store(false, Ordering::SeqCst);
        if self.pings_seen.load(Ordering::SeqCst) > self.pings_done {
            self.stop.store(true, Ordering::SeqCst);
        }
        Limits {
            depth: Some(self.depth),
            stop: Some(self.stop.clone()),
            ..Limits::default()
        }
    }

    fn handle(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return };
        match cmd {
            "nboard" => self.say("set myname othello-toolkit"),
            "set" => match words.next() {
                Some("depth") => {
                    if let Some(d) = words
                        .next()
                        .and_then(|d| d.parse::<u32>().ok())
                        .filter(|d| (1..=60).contains(d))
                    {
                        self.depth = d;
                    }
                }
                Some("game") => {
                    let ggf = line.split_once("game").map(|(_, g)| g.trim()).unwrap_or("");
                    match parse_ggf(ggf) {
                        Ok(p) => self.pos = p,
                        Err(e) => eprintln!("nboard: bad game: {e}"),
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
                            Err(e) => eprintln!("nboard: illegal move {text}: {e}"),
                        }
                    }
                    Err(e) => eprintln!("nboard: {e}"),
                }
            }
            "go" => {
                self.say("status thinking");
                self.searcher.config_mut().multi_pv = false;
                let limits = self.limits();
                let r = self.searcher.search(&self.pos, &limits, |_| {});
                let secs = r.time.as_secs_f64();
                self.say(&format!("nodestats {} {secs:.3}", r.nodes));
                self.say(&format!(
                    "=== {}/{:.2}/{secs:.3}",
                    nboard_move(r.best_move),
                    discs(r.score)
                ));
                self.say("status");
            }
            "hint" => {
                let n: usize = words.next().and_then(|n| n.parse().ok()).unwrap_or(1).max(1);
                self.say("status thinking");
                self.searcher.config_mut().multi_pv = true;
                let limits = self.limits();
                let r = self.searcher.search(&self.pos, &limits, |_| {});
                self.searcher.config_mut().multi_pv = false;
                let depth = if r.exact {
                    "100%".to_string()
                } else {
                    r.depth.to_string()
                };
                let moves = if r.root_moves.is_empty() {
                    vec![(r.best_move, r.score)]
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
                self.say(&format!("pong {}", words.next().unwrap_or("0")));
            }
            "learn" => self.say("learned"),
            _ => {}
        }
    }
}

/// Runs `othello nboard` until stdin closes.
pub fn run(args: &NboardArgs) -> CliResult {
    let mut spec: Spec = args.engine.parse()?;
    if !matches!(spec.name.as_str(), "pvs" | "alphabeta" | "ab" | "negamax" | "minimax") {
        return Err(input(format!(
            "nboard needs a search engine (pvs, alphabeta, negamax, minimax), not '{}'",
            spec.name
        )));
    }
    let algorithm = match spec.name.as_str() {
        "alphabeta" | "ab" => othello_search::Algorithm::AlphaBeta,
        "negamax" => othello_search::Algorithm::Negamax,
        "minimax" => othello_search::Algorithm::Minimax,
        _ => othello_search::Algorithm::Pvs,
    };
    let limits = search_limits(&mut spec)?;
    let (config, eval) = search_config(&mut spec, algorithm)?;
    spec.finish(crate::engine::SEARCH_KEYS)?;
    let stop = Arc::new(AtomicBool::new(false));
    let pings_seen = Arc::new(AtomicU64::new(0));
    let (tx, rx) = mpsc::channel::<String>();
    {
        let (stop, pings_seen) = (stop.clone(), pings_seen.clone());
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if line.trim_start().starts_with("ping") {
                    pings_seen.fetch_add(1, Ordering::SeqCst);
                    stop.store(true, Ordering::SeqCst);
                }
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
    }
    let mut session = Session {
        searcher: Searcher::new(eval, config),
        depth: limits.depth.unwrap_or(crate::engine::DEFAULT_DEPTH),
        pos: Position::start(),
        stop,
        pings_seen,
        pings_done: 0,
    };
    for line in rx {
        session.handle(line.trim());
    }
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
