//! The root of one iteration: which move is best, with what value and PV.
//!
//! **Tie rule.** Among root moves of equal value the lowest square index wins (a pass is
//! alone). The pruning searches enforce it whatever the move order: a move with a lower index
//! than the current best is searched against `best - 1`, so that an equal value is seen as an
//! improvement, a move with a higher index against `best`. So every algorithm, with or without
//! table, ordering or threads, picks the same move at the same depth.
//!
//! **Windows.** [`Worker::root_window`] searches in a window `(alpha, beta)` (the aspiration
//! window, or the full one): the first move with the whole window, the next ones with a null
//! window under PVS (re-searched on a fail high) or with `(lower, beta)` under plain alpha-beta.
//! A value at or below `alpha` or at or above `beta` is only a bound, and the caller widens the
//! window and searches again. [`Worker::root_all`] gives every move its exact value (multi-PV,
//! and the reference algorithms).
//!
//! **Partial iterations.** When a limit aborts an iteration, its result is dropped, except one
//! case: the first move searched was the previous iteration's best move, its search completed,
//! and a later move then completed a search (its null-window test and its re-search) with a
//! value inside the window that beats it. That move is proven better at the new depth and is
//! returned as [`RootOutcome::proven`].

use crate::score::INFINITY;
use crate::worker::Worker;
use crate::{Algorithm, Move, Position};
use othello_eval::Evaluator;
use othello_table::Table;

/// What one root search found.
pub(crate) struct RootOutcome {
    /// Whether the search completed (no limit hit).
    pub(crate) completed: bool,
    /// The best value (a bound when outside the window).
    pub(crate) score: i32,
    /// The best move.
    pub(crate) best: Move,
    /// The principal variation, from `best`.
    pub(crate) pv: Vec<Move>,
    /// Every move's exact value (multi-PV and the references), best first, ties by index.
    pub(crate) values: Vec<(Move, i32)>,
    /// On an aborted search: a move proven better than the previous best (see the module docs).
    pub(crate) proven: Option<(Move, i32, Vec<Move>)>,
}

/// The side-relative child of a root move and the depth left: a pass uses no depth.
fn child(pos: &Position, mv: Move, depth: u32) -> (u64, u64, u32) {
    let c = pos.play_unchecked(mv);
    let d = if mv == Move::Pass { depth } else { depth - 1 };
    (c.player().0, c.opponent().0, d)
}

fn with_head(mv: Move, tail: Vec<Move>) -> Vec<Move> {
    let mut pv = Vec::with_capacity(tail.len() + 1);
    pv.push(mv);
    pv.extend(tail);
    pv
}

impl<E: Evaluator, T: Table> Worker<'_, E, T> {
    /// Searches the root moves in `order` in the window `(alpha, beta)` (see the module docs).
    /// `previous` is the previous iteration's best move, for the partial-iteration rule.
    pub(crate) fn root_window(
        &mut self,
        pos: &Position,
        depth: u32,
        alpha: i32,
        beta: i32,
        order: &[Move],
        previous: Option<Move>,
    ) -> RootOutcome {
        let mut best_score = -INFINITY;
        let mut best = order[0];
        let mut pv = vec![best];
        let mut completed = true;
        for (i, &mv) in order.iter().enumerate() {
            let (np, no, d) = child(pos, mv, depth);
            let (s, improved) = if i == 0 {
                (-self.search(np, no, d, -beta, -alpha, 1), true)
            } else {
                // A lower index wins a tie, so it must only reach `best_score`; a higher index
                // must exceed it.
                let need = if mv.to_u8() < best.to_u8() {
                    best_score
                } else {
                    best_score + 1
                };
                let lower = alpha.max(need - 1);
                let s = if self.pvs {
                    let s = -self.search(np, no, d, -lower - 1, -lower, 1);
                    if s > lower && s < beta && !self.aborted {
                        -self.search(np, no, d, -beta, -lower, 1)
                    } else {
                        s
                    }
                } else {
                    -self.search(np, no, d, -beta, -lower, 1)
                };
                (s, s > lower)
            };
            if self.aborted {
                completed = false;
                break;
            }
            if improved {
                best_score = s;
                best = mv;
                pv = with_head(mv, self.pv.line(1));
                if s >= beta {
                    break;
                }
            }
        }
        let proven =
            (!completed && previous == Some(order[0]) && best != order[0] && best_score > alpha && best_score < beta)
                .then(|| (best, best_score, pv.clone()));
        RootOutcome {
            completed,
            score: best_score,
            best,
            pv,
            values: Vec::new(),
            proven,
        }
    }

    /// Gives every root move its exact value at `depth`: the full-window search for the pruning
    /// algorithms, the plain recursions for the references.
    pub(crate) fn root_all(&mut self, pos: &Position, depth: u32, order: &[Move], algorithm: Algorithm) -> RootOutcome {
        let mut scored: Vec<(Move, i32, Vec<Move>)> = Vec::with_capacity(order.len());
        let sign = pos.side_to_move().sign();
        for &mv in order {
            let (np, no, d) = child(pos, mv, depth);
            let s = match algorithm {
                Algorithm::Minimax => self.minimax_plain(np, no, d, 1) * sign,
                Algorithm::Negamax => -self.negamax_plain(np, no, d, 1),
                Algorithm::AlphaBeta | Algorithm::Pvs => -self.search(np, no, d, -INFINITY, INFINITY, 1),
            };
            if self.aborted {
                return RootOutcome {
                    completed: false,
                    score: 0,
                    best: order[0],
                    pv: vec![order[0]],
                    values: Vec::new(),
                    proven: None,
                };
            }
            scored.push((mv, s, with_head(mv, self.pv.line(1))));
        }
        scored.sort_by_key(|&(m, s, _)| (-s, m.to_u8()));
        let (best, score, pv) = scored[0].clone();
        RootOutcome {
            completed: true,
            score,
            best,
            pv,
            values: scored.into_iter().map(|(m, s, _)| (m, s)).collect(),
            proven: None,
        }
    }
}
