//! Killer moves and the history heuristic: what the search learns about good moves as it goes.
//!
//! Killers are the last two moves that caused a beta cutoff at each ply (quiet refutations tend
//! to refute the siblings too). History counts, per colour and square, the cutoffs a square
//! caused, weighted by `depth^2` so deep cutoffs dominate; when a counter grows past
//! [`HISTORY_MAX`] every counter is halved, which keeps the numbers bounded and lets recent
//! experience outweigh old.
//!
//! The thread's cache of horizon evaluations ([`EvalCache`]) travels with them: it is kept
//! between searches too, and stays valid as long as the searcher's evaluation (for its life).

use crate::evalcache::EvalCache;
use crate::pv::MAX_PLY;

/// History counters are halved when one passes this value.
pub const HISTORY_MAX: u32 = 1 << 20;

/// Marks an empty killer slot.
pub(crate) const NO_SQUARE: u8 = 255;

/// Killers, history and evaluation cache of one search thread.
#[derive(Clone)]
pub(crate) struct Heuristics {
    killers: Box<[[u8; 2]; MAX_PLY]>,
    history: Box<[[u32; 64]; 2]>,
    /// Horizon evaluations already made ([`crate::worker::Worker::evaluate_moves`]).
    pub(crate) evals: EvalCache,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: Box::new([[NO_SQUARE; 2]; MAX_PLY]),
            history: Box::new([[0; 64]; 2]),
            evals: EvalCache::default(),
        }
    }
}

impl Heuristics {
    /// The two killers of `ply` (`NO_SQUARE` when empty).
    #[inline]
    pub(crate) fn killers(&self, ply: usize) -> [u8; 2] {
        self.killers[ply]
    }

    /// The history counters of one colour (0 = black, 1 = white).
    #[inline]
    pub(crate) fn history(&self, color: usize) -> &[u32; 64] {
        &self.history[color]
    }

    #[inline]
    pub(crate) fn add_killer(&mut self, ply: usize, sq: u8) {
        let k = &mut self.killers[ply];
        if k[0] != sq {
            k[1] = k[0];
            k[0] = sq;
        }
    }

    #[inline]
    pub(crate) fn add_history(&mut self, color: usize, sq: u8, depth: u32) {
        let h = &mut self.history[color][sq as usize];
        *h += depth * depth;
        if *h > HISTORY_MAX {
            self.age();
        }
    }

    /// Halves every history counter (also done between searches).
    pub(crate) fn age(&mut self) {
        for h in self.history.iter_mut().flatten() {
            *h /= 2;
        }
    }

    /// Forgets the killers (their plies refer to the previous root).
    pub(crate) fn clear_killers(&mut self) {
        *self.killers = [[NO_SQUARE; 2]; MAX_PLY];
    }

    /// Forgets the killers and the history. The evaluation cache stays: its values are the
    /// evaluation's own, whatever the game.
    pub(crate) fn clear(&mut self) {
        self.clear_killers();
        *self.history = [[0; 64]; 2];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn killers_keep_the_two_latest_distinct_moves() {
        let mut h = Heuristics::default();
        assert_eq!(h.killers(4), [NO_SQUARE; 2]);
        h.add_killer(4, 9);
        h.add_killer(4, 9);
        assert_eq!(h.killers(4), [9, NO_SQUARE]);
        h.add_killer(4, 20);
        h.add_killer(4, 30);
        assert_eq!(h.killers(4), [30, 20]);
        h.clear_killers();
        assert_eq!(h.killers(4), [NO_SQUARE; 2]);
    }

    #[test]
    fn history_is_bounded_by_aging() {
        let mut h = Heuristics::default();
        for _ in 0..100_000 {
            h.add_history(1, 18, 30);
        }
        assert!(h.history(1)[18] <= HISTORY_MAX);
        assert!(h.history(1)[18] > HISTORY_MAX / 4);
        assert_eq!(h.history(0)[18], 0);
    }
}
