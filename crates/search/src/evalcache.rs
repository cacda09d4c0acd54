//! A cache of horizon evaluations, one per search thread.
//!
//! About half of a deep search's time goes to evaluating the positions at its horizon
//! (docs/search.md, "Evaluation cache"), and a third of those positions were evaluated before:
//! transpositions, PVS re-searches, multi-ProbCut's shallow searches and the next iteration
//! reach the same positions again. The cache keeps the last value computed in each of its
//! slots, keyed by the whole position (both bitboards and the colour to move), so a hit
//! returns exactly what the evaluation would: values, moves and node counts are the same with
//! or without it (an [`othello_eval::Evaluator`] is a function of the position). A slot holds
//! one position; a new one replaces it.

use othello_rules::Color;

/// One slot: a position and its clamped evaluation.
#[derive(Clone, Copy)]
struct Entry {
    player: u64,
    opponent: u64,
    value: i32,
    color: Color,
}

/// A slot that matches no position: no square is both sides'.
const EMPTY: Entry = Entry {
    player: u64::MAX,
    opponent: u64::MAX,
    value: 0,
    color: Color::Black,
};

/// The number of slots of the search's cache, as a power of two: 2^14 slots of 24 bytes
/// (384 KiB a thread). Measured against 2^15 to 2^17 and a two-way cache (docs/search.md,
/// "Evaluation cache"): the larger caches hit more often and miss more expensively.
pub(crate) const EVAL_CACHE_BITS: u32 = 14;

/// A direct-mapped cache of `2^bits` evaluations.
#[derive(Clone)]
pub(crate) struct EvalCache {
    entries: Box<[Entry]>,
    shift: u32,
}

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache::with_bits(EVAL_CACHE_BITS)
    }
}

impl EvalCache {
    /// An empty cache of `2^bits` slots (`bits` from 1 to 24).
    pub(crate) fn with_bits(bits: u32) -> EvalCache {
        assert!((1..=24).contains(&bits), "cache bits out of range: {bits}");
        EvalCache {
            entries: vec![EMPTY; 1 << bits].into_boxed_slice(),
            shift: 64 - bits,
        }
    }

    /// The slot of a position: the top bits of a multiplicative hash of both bitboards.
    #[inline(always)]
    fn slot(&self, player: u64, opponent: u64) -> usize {
        let h = player.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ opponent.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        (h >> self.shift) as usize
    }

    /// The cached value of the position `(player, opponent)` with `color` to move, if its slot
    /// holds it.
    #[inline(always)]
    pub(crate) fn get(&self, player: u64, opponent: u64, color: Color) -> Option<i32> {
        let e = &self.entries[self.slot(player, opponent)];
        (e.player == player && e.opponent == opponent && e.color == color).then_some(e.value)
    }

    /// Stores `value` for the position, replacing its slot's previous position.
    #[inline(always)]
    pub(crate) fn put(&mut self, player: u64, opponent: u64, color: Color, value: i32) {
        let i = self.slot(player, opponent);
        self.entries[i] = Entry {
            player,
            opponent,
            value,
            color,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// A tiny cache against a map of every position stored: a hit is always the value last
    /// stored for that very position (bitboards and colour), a position whose slot another one
    /// took since is a miss, and the last position stored in each slot is a hit.
    #[test]
    fn a_hit_is_the_value_stored_for_that_position() {
        let mut rng = SmallRng::seed_from_u64(7);
        let mut cache = EvalCache::with_bits(3);
        let mut last_in_slot: std::collections::HashMap<usize, (u64, u64, Color, i32)> = Default::default();
        let (mut hits, mut misses) = (0, 0);
        // Few distinct bitboards, so that positions share a player or an opponent board, and
        // both colours of the same boards occur.
        let boards: Vec<u64> = (0..6).map(|_| rng.random::<u64>()).collect();
        for n in 0..20_000 {
            let p = boards[rng.random_range(0..boards.len())];
            let o = boards[rng.random_range(0..boards.len())] & !p;
            let color = if rng.random_bool(0.5) {
                Color::Black
            } else {
                Color::White
            };
            let slot = cache.slot(p, o);
            let want = last_in_slot
                .get(&slot)
                .filter(|&&(lp, lo, lc, _)| (lp, lo, lc) == (p, o, color))
                .map(|&(.., v)| v);
            assert_eq!(cache.get(p, o, color), want, "query {n}");
            match want {
                Some(_) => hits += 1,
                None => misses += 1,
            }
            let v = rng.random_range(-6400..=6400);
            cache.put(p, o, color, v);
            last_in_slot.insert(slot, (p, o, color, v));
            assert_eq!(cache.get(p, o, color), Some(v));
            assert_eq!(cache.get(p, o, color.opposite()), None);
        }
        assert!(hits > 1000 && misses > 1000, "{hits} hits, {misses} misses");
    }

    /// The slots spread: 4096 random positions fill most of 1024 slots, each slot is in range.
    #[test]
    fn slots_cover_the_cache() {
        let mut rng = SmallRng::seed_from_u64(8);
        let cache = EvalCache::with_bits(10);
        let mut used = vec![false; 1024];
        for _ in 0..4096 {
            let p = rng.random::<u64>();
            let o = rng.random::<u64>() & !p;
            used[cache.slot(p, o)] = true;
        }
        assert!(used.iter().filter(|&&u| u).count() > 950);
        // An empty cache answers nothing, not even a position of empty boards.
        let fresh = EvalCache::with_bits(4);
        assert_eq!(fresh.get(0, 0, Color::Black), None);
        assert_eq!(fresh.get(0, 0, Color::White), None);
    }
}
