//! The slow, obvious references: plain minimax (absolute scores) and plain negamax.
//!
//! The public functions ([`minimax`], [`negamax`], [`minimax_with`], [`negamax_with`],
//! [`negamax_root`]) work on [`Position`] with its checked API and allocate freely: they are
//! test oracles, written to be read. They follow the crate's conventions exactly:
//!
//! - a finished game scores its final disc difference x100 (empties to the winner);
//! - a side without a move passes, and the pass uses no depth;
//! - at depth 0 a position that is not over is a horizon leaf: the clamped evaluation
//!   ([`crate::score::leaf_value`]), or quiescence ([`Horizon::Quiescence`], see
//!   [`crate::quiescence`]).
//!
//! The [`Algorithm::Minimax`](crate::Algorithm::Minimax) and
//! [`Algorithm::Negamax`](crate::Algorithm::Negamax) searches of the
//! [`Searcher`](crate::Searcher) are the same recursions on raw bitboards, with node counting, limits and a
//! PV (the `impl Worker` block below); the tests check them against these functions.

use crate::quiescence::QUIESCENCE_PLIES;
use crate::score::{DISC, final_value, leaf_value};
use crate::worker::Worker;
use othello_eval::Evaluator;
use othello_rules::{Color, Move, Position, movegen};
use othello_table::Table;

/// What a reference does at the horizon (depth 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Horizon {
    /// The evaluation.
    #[default]
    Static,
    /// Quiescence over corner moves (the search's `quiescence: true`).
    Quiescence,
}

/// Plain minimax to `depth` discs with the evaluation at the horizon: black maximises, white
/// minimises, and the value is black minus white in centi-discs.
pub fn minimax<E: Evaluator>(pos: &Position, depth: u32, eval: &E) -> i32 {
    minimax_with(pos, depth, eval, Horizon::Static)
}

/// Plain negamax to `depth` discs: the value for the side to move, in centi-discs.
pub fn negamax<E: Evaluator>(pos: &Position, depth: u32, eval: &E) -> i32 {
    negamax_with(pos, depth, eval, Horizon::Static)
}

/// [`minimax`] with a choice of horizon.
pub fn minimax_with<E: Evaluator>(pos: &Position, depth: u32, eval: &E, horizon: Horizon) -> i32 {
    if pos.is_game_over() {
        return pos.final_score_black() * DISC;
    }
    if depth == 0 {
        return match horizon {
            Horizon::Static => leaf_value(eval, pos) * pos.side_to_move().sign(),
            Horizon::Quiescence => quiescence_absolute(pos, eval, QUIESCENCE_PLIES),
        };
    }
    if pos.must_pass() {
        return minimax_with(
            &pos.play(Move::Pass).expect("a forced pass is legal"),
            depth,
            eval,
            horizon,
        );
    }
    let values = pos
        .moves()
        .into_iter()
        .map(|m| minimax_with(&pos.play(m).expect("a listed move is legal"), depth - 1, eval, horizon));
    match pos.side_to_move() {
        Color::Black => values.max(),
        Color::White => values.min(),
    }
    .expect("a position that is not over and need not pass has a move")
}

/// Quiescence in absolute form: black takes the larger of standing pat and its corner moves,
/// white the smaller.
fn quiescence_absolute<E: Evaluator>(pos: &Position, eval: &E, plies: u32) -> i32 {
    if pos.is_game_over() {
        return pos.final_score_black() * DISC;
    }
    let stand = leaf_value(eval, pos) * pos.side_to_move().sign();
    if plies == 0 {
        return stand;
    }
    let corners = pos.legal_moves() & pos.size().corners();
    let children = corners
        .into_iter()
        .map(|sq| quiescence_absolute(&pos.play(Move::Place(sq)).expect("legal"), eval, plies - 1));
    match pos.side_to_move() {
        Color::Black => children.fold(stand, i32::max),
        Color::White => children.fold(stand, i32::min),
    }
}

/// [`negamax`] with a choice of horizon.
pub fn negamax_with<E: Evaluator>(pos: &Position, depth: u32, eval: &E, horizon: Horizon) -> i32 {
    if pos.is_game_over() {
        return final_value(pos);
    }
    if depth == 0 {
        return match horizon {
            Horizon::Static => leaf_value(eval, pos),
            Horizon::Quiescence => quiescence_negamax(pos, eval, QUIESCENCE_PLIES),
        };
    }
    if pos.must_pass() {
        return -negamax_with(
            &pos.play(Move::Pass).expect("a forced pass is legal"),
            depth,
            eval,
            horizon,
        );
    }
    pos.moves()
        .into_iter()
        .map(|m| -negamax_with(&pos.play(m).expect("a listed move is legal"), depth - 1, eval, horizon))
        .max()
        .expect("a position that is not over and need not pass has a move")
}

fn quiescence_negamax<E: Evaluator>(pos: &Position, eval: &E, plies: u32) -> i32 {
    if pos.is_game_over() {
        return final_value(pos);
    }
    let stand = leaf_value(eval, pos);
    if plies == 0 {
        return stand;
    }
    (pos.legal_moves() & pos.size().corners())
        .into_iter()
        .map(|sq| -quiescence_negamax(&pos.play(Move::Place(sq)).expect("legal"), eval, plies - 1))
        .fold(stand, i32::max)
}

/// The negamax value of every root move at `depth` (a pass uses no depth; other moves leave
/// `depth - 1`), in the order of [`Position::moves`]. Empty when the game is over.
///
/// # Panics
/// When `depth` is 0 and the side to move has a square to play.
pub fn negamax_root<E: Evaluator>(pos: &Position, depth: u32, eval: &E, horizon: Horizon) -> Vec<(Move, i32)> {
    pos.moves()
        .into_iter()
        .map(|m| {
            let child = pos.play(m).expect("a listed move is legal");
            let d = if m == Move::Pass {
                depth
            } else {
                depth.checked_sub(1).expect("depth >= 1")
            };
            (m, -negamax_with(&child, d, eval, horizon))
        })
        .collect()
}

impl<E: Evaluator, T: Table> Worker<'_, E, T> {
    /// The horizon value without pruning.
    fn plain_horizon(&mut self, p: u64, o: u64, moves: u64, ply: usize) -> i32 {
        if self.quiescence {
            self.quiesce_plain(p, o, moves, QUIESCENCE_PLIES, ply)
        } else {
            self.evaluate(p, o, ply)
        }
    }

    /// Plain negamax on raw bitboards (the [`Algorithm::Negamax`](crate::Algorithm) search).
    pub(crate) fn negamax_plain(&mut self, p: u64, o: u64, depth: u32, ply: usize) -> i32 {
        self.pv.clear(ply);
        if self.enter() {
            return 0;
        }
        let moves = movegen::legal_moves(p, o) & self.mask;
        if moves == 0 {
            if movegen::legal_moves(o, p) & self.mask == 0 {
                return self.final_value(p, o);
            }
            if depth == 0 {
                return self.plain_horizon(p, o, 0, ply);
            }
            let s = -self.negamax_plain(o, p, depth, ply + 1);
            self.pv.update_pass(ply);
            return s;
        }
        if depth == 0 {
            return self.plain_horizon(p, o, moves, ply);
        }
        let mut best = i32::MIN;
        let mut rest = moves;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let f = movegen::flips(p, o, sq);
            let s = -self.negamax_plain(o ^ f, p ^ f ^ (1u64 << sq), depth - 1, ply + 1);
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                self.pv.update(ply, sq as u8);
            }
        }
        best
    }

    /// Plain minimax on raw bitboards, absolute (black minus white) scores.
    pub(crate) fn minimax_plain(&mut self, p: u64, o: u64, depth: u32, ply: usize) -> i32 {
        self.pv.clear(ply);
        if self.enter() {
            return 0;
        }
        let sign = self.color_at(ply).sign();
        let moves = movegen::legal_moves(p, o) & self.mask;
        if moves == 0 {
            if movegen::legal_moves(o, p) & self.mask == 0 {
                return self.final_value(p, o) * sign;
            }
            if depth == 0 {
                return self.plain_horizon(p, o, 0, ply) * sign;
            }
            let s = self.minimax_plain(o, p, depth, ply + 1);
            self.pv.update_pass(ply);
            return s;
        }
        if depth == 0 {
            return self.plain_horizon(p, o, moves, ply) * sign;
        }
        let mut best: Option<i32> = None;
        let mut rest = moves;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let f = movegen::flips(p, o, sq);
            let s = self.minimax_plain(o ^ f, p ^ f ^ (1u64 << sq), depth - 1, ply + 1);
            if self.aborted {
                return 0;
            }
            // Black keeps the larger value, white the smaller; the first of equals stays.
            if best.is_none_or(|b| s * sign > b * sign) {
                best = Some(s);
                self.pv.update(ply, sq as u8);
            }
        }
        best.expect("moves is not empty")
    }
}
