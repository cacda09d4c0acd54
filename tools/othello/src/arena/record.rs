//! A finished game: its moves with times and scores, the result and why, as a GGF record and as
//! a JSON object (one line of the JSON Lines output).

use super::clock::TimeUse;
use super::openings::Opening;
use othello_rules::ggf::{GgfEnding, GgfResult};
use othello_rules::{Color, GgfGame, GgfMove, Move, Position};
use serde_json::{Value, json};
use std::time::Duration;

/// One move played in the game (not the opening's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Played {
    /// Who played it.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// Wall-clock time the mover took (zero for a forced pass the runner played).
    pub time: Duration,
    /// The mover's evaluation in discs.
    pub eval: Option<f64>,
    /// Search depth.
    pub depth: Option<u32>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// The hard time limit an in-process player was given from the clock (the overshoot is
    /// `time - limit`).
    pub limit: Option<Duration>,
    /// Whether the move came from the mover's opening book.
    pub book: bool,
}

/// Seconds rounded to the microsecond, for records.
pub fn micros(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e6
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Played out.
    Scored,
    /// Decided by the exact solver at this many empty squares.
    Adjudicated(u32),
    /// The loser ran out of time (or hung).
    Time(Color, String),
    /// The loser misbehaved (crash, illegal move, garbage).
    Forfeit(Color, String),
    /// Left unfinished (a human player quit, or its input ended): the runner does not report
    /// it, so no record holds it.
    Abandoned(String),
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game number from 1 (pair `p` holds games `2p + 1` and `2p + 2`).
    pub number: u64,
    /// The opening.
    pub opening: Opening,
    /// Player A's colour.
    pub a_color: Color,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The moves after the opening.
    pub moves: Vec<Played>,
    /// Black's final disc difference (empties to the winner; the whole board on a forfeit).
    pub black_margin: i32,
    /// Why it ended.
    pub ending: Ending,
    /// The time control (GGF `TI`).
    pub time_control: Option<String>,
    /// How each side used its time, black then white (see [`TimeUse`]); `None` without a
    /// clock.
    pub time_use: [Option<TimeUse>; 2],
    /// Player A's time per move when it had its own (`othello play --follow`), else `None`.
    pub a_move_time: Option<Duration>,
    /// Player A's base time when it had its own clock (`othello play --tc ... --follow`), else
    /// `None`.
    pub a_base_time: Option<Duration>,
}

impl GameRecord {
    /// How player A (`a == true`) or B used its time.
    pub fn time_use(&self, a: bool) -> Option<TimeUse> {
        let black = (self.a_color == Color::Black) == a;
        self.time_use[usize::from(!black)]
    }

    /// The share of its time player A (`a == true`) or B used.
    pub fn share_used(&self, a: bool) -> Option<f64> {
        self.time_use(a).map(|u| u.share)
    }

    /// Moves player A (`a == true`) or B played from its opening book.
    pub fn book_moves(&self, a: bool) -> usize {
        let color = if a { self.a_color } else { self.a_color.opposite() };
        self.moves.iter().filter(|m| m.book && m.color == color).count()
    }

    /// A's result in half points: 2 win, 1 draw, 0 loss.
    pub fn a_half_points(&self) -> u8 {
        let a = if self.a_color == Color::Black {
            self.black_margin
        } else {
            -self.black_margin
        };
        match a.signum() {
            1 => 2,
            0 => 1,
            _ => 0,
        }
    }

    /// `"win"`, `"draw"` or `"loss"` from A's side.
    pub fn a_result(&self) -> &'static str {
        ["loss", "draw", "win"][self.a_half_points() as usize]
    }

    /// The final position of the moves played.
    pub fn final_position(&self) -> Position {
        self.moves
            .iter()
            .fold(self.opening.position(), |p, m| p.play_unchecked(m.mv))
    }

    /// Discs of each colour at the end (as played; a forfeit leaves the board as it was).
    pub fn discs(&self) -> (u32, u32) {
        let p = self.final_position();
        (p.black().count(), p.white().count())
    }

    /// `scored`, `adjudicated`, `time`, `forfeit` or `abandoned`, and the reason.
    pub fn ending_text(&self) -> (&'static str, Option<String>) {
        match &self.ending {
            Ending::Scored => ("scored", None),
            Ending::Adjudicated(n) => ("adjudicated", Some(format!("solved exactly at {n} empties"))),
            Ending::Time(c, why) => ("time", Some(format!("{c} lost on time: {why}"))),
            Ending::Forfeit(c, why) => ("forfeit", Some(format!("{c} forfeits: {why}"))),
            Ending::Abandoned(why) => ("abandoned", Some(why.clone())),
        }
    }

    /// The GGF record: the opening moves, then each move with its evaluation and time.
    pub fn ggf(&self) -> GgfGame {
        let mut g = GgfGame::new(self.opening.root, self.black.clone(), self.white.clone());
        g.place = Some("othello play".to_string());
        g.time_control = self.time_control.clone();
        let mut pos = self.opening.root;
        for &mv in &self.opening.moves {
            g.moves.push(GgfMove {
                color: pos.side_to_move(),
                mv,
                eval: None,
                time: None,
            });
            pos = pos.play_unchecked(mv);
        }
        for m in &self.moves {
            g.moves.push(GgfMove {
                color: m.color,
                mv: m.mv,
                eval: m.eval,
                time: Some(micros(m.time)),
            });
        }
        let ending = match &self.ending {
            Ending::Scored | Ending::Adjudicated(_) => GgfEnding::Scored,
            Ending::Time(..) => GgfEnding::Timeout,
            Ending::Forfeit(..) | Ending::Abandoned(_) => GgfEnding::Resigned,
        };
        g.result = Some(GgfResult {
            black_margin: self.black_margin as f64,
            ending,
        });
        g
    }

    /// The JSON object of the game.
    pub fn json(&self) -> Value {
        let (black, white) = self.discs();
        let (a_discs, b_discs) = if self.a_color == Color::Black {
            (black, white)
        } else {
            (white, black)
        };
        let (ending, reason) = self.ending_text();
        json!({
            "game": self.number,
            "opening": self.opening.label(),
            "a_color": self.a_color.to_string(),
            "black": self.black,
            "white": self.white,
            "result": self.a_result(),
            "a_discs": a_discs,
            "b_discs": b_discs,
            "black_margin": self.black_margin,
            "ending": ending,
            "reason": reason,
            "moves": self.moves.iter().map(|m| m.mv.to_string()).collect::<Vec<_>>(),
            "times": self.moves.iter().map(|m| micros(m.time)).collect::<Vec<_>>(),
            "evals": self.moves.iter().map(|m| m.eval).collect::<Vec<_>>(),
            "depths": self.moves.iter().map(|m| m.depth).collect::<Vec<_>>(),
            "nodes": self.moves.iter().map(|m| m.nodes).collect::<Vec<_>>(),
            "limits": self.moves.iter().map(|m| m.limit.map(micros)).collect::<Vec<_>>(),
            "book": self.moves.iter().map(|m| m.book).collect::<Vec<_>>(),
            "colors": self.moves.iter().map(|m| m.color.to_string()).collect::<Vec<_>>(),
            "a_time_used": self.share_used(true),
            "b_time_used": self.share_used(false),
            "a_time_searched": self.time_use(true).and_then(|u| u.searched),
            "b_time_searched": self.time_use(false).and_then(|u| u.searched),
            "a_time_left": self.time_use(true).and_then(|u| u.left).map(micros),
            "b_time_left": self.time_use(false).and_then(|u| u.left).map(micros),
            "a_least_left": self.time_use(true).and_then(|u| u.least_left).map(micros),
            "b_least_left": self.time_use(false).and_then(|u| u.least_left).map(micros),
            "a_move_time": self.a_move_time.map(micros),
            "a_base_time": self.a_base_time.map(micros),
        })
    }
}
