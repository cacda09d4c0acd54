//! A bucket of [`WAYS`] slots and the replacement policy, shared by the locked and the local table.
//!
//! The slots are atomic words accessed with `Relaxed` loads and stores (plain `mov`s on x86):
//! the atomics allow shared mutation without `unsafe`, but nothing here makes a slot's three
//! words change together. That is the caller's job: [`crate::LocalTable`] has `&mut`-like
//! exclusive use (it is not `Sync`); [`crate::TranspositionTable`] writes a bucket only under its
//! stripe lock and discards a lock-free [`Bucket::probe`] whenever the stripe's version word
//! shows that a store overlapped it (a seqlock, see `table.rs`).

use crate::entry::{self, Bound, Entry};
use crate::sync::AtomicU64;
use othello_rules::Move;
use std::sync::atomic::Ordering::Relaxed;

/// Slots per bucket.
pub(crate) const WAYS: usize = 4;

/// One entry: key (`player`, `opponent`, and the board side in the data word) and packed data
/// word. Layout in [`crate::entry`].
#[derive(Default)]
#[repr(C)]
pub(crate) struct Slot {
    player: AtomicU64,
    opponent: AtomicU64,
    data: AtomicU64,
}

/// [`WAYS`] slots, aligned so that a bucket never straddles more than two cache lines.
#[derive(Default)]
#[repr(C, align(32))]
pub(crate) struct Bucket {
    slots: [Slot; WAYS],
}

#[cfg(not(loom))]
const _: () = assert!(size_of::<Slot>() == 24);
#[cfg(not(loom))]
const _: () = assert!(size_of::<Bucket>() == 96);

/// What a store did, for the statistics.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum StoreOutcome {
    /// The position was already there and was overwritten.
    Updated,
    /// An empty slot was filled.
    Filled,
    /// An entry of another position was evicted.
    Replaced,
}

impl Bucket {
    /// The entry of this position, if stored.
    #[inline]
    pub(crate) fn probe(&self, side: u8, player: u64, opponent: u64) -> Option<Entry> {
        for s in &self.slots {
            let data = s.data.load(Relaxed);
            if entry::is_occupied(data)
                && entry::side_of(data) == side
                && s.player.load(Relaxed) == player
                && s.opponent.load(Relaxed) == opponent
            {
                return entry::unpack(data);
            }
        }
        None
    }

    /// Stores an entry stamped with `generation`, choosing the slot by the replacement policy:
    /// the same position, else an empty slot, else the entry of an older generation, else the
    /// shallowest entry (lowest slot on ties). A store for a position already present keeps its
    /// old best move when `best_move` is `None`.
    #[inline]
    #[expect(clippy::too_many_arguments, reason = "mirrors the public store, plus the generation")]
    pub(crate) fn store(
        &self,
        side: u8,
        player: u64,
        opponent: u64,
        depth: u8,
        score: i16,
        bound: Bound,
        best_move: Option<Move>,
        generation: u8,
    ) -> StoreOutcome {
        let mut data = entry::pack(side, depth, score, bound, best_move, generation);
        let mut empty = None;
        // Victim rank: (entry of the current generation, depth); the lowest rank is evicted.
        let mut victim = 0;
        let mut victim_rank = (true, u8::MAX);
        let mut victim_found = false;
        for (i, s) in self.slots.iter().enumerate() {
            let old = s.data.load(Relaxed);
            if !entry::is_occupied(old) {
                empty.get_or_insert(i);
                continue;
            }
            if entry::side_of(old) == side && s.player.load(Relaxed) == player && s.opponent.load(Relaxed) == opponent {
                if best_move.is_none() && entry::has_move(old) {
                    data = entry::with_move_of(data, old);
                }
                s.data.store(data, Relaxed);
                return StoreOutcome::Updated;
            }
            let rank = (entry::generation_of(old) == generation, entry::depth_of(old));
            if !victim_found || rank < victim_rank {
                victim = i;
                victim_rank = rank;
                victim_found = true;
            }
        }
        let (i, outcome) = match empty {
            Some(i) => (i, StoreOutcome::Filled),
            None => (victim, StoreOutcome::Replaced),
        };
        let s = &self.slots[i];
        s.player.store(player, Relaxed);
        s.opponent.store(opponent, Relaxed);
        s.data.store(data, Relaxed);
        outcome
    }

    /// Empties every slot.
    pub(crate) fn clear(&self) {
        for s in &self.slots {
            s.player.store(0, Relaxed);
            s.opponent.store(0, Relaxed);
            s.data.store(entry::EMPTY, Relaxed);
        }
    }
}

/// Number of buckets for a table of `mib` MiB: the largest power of two that fits, at least 1.
pub(crate) fn bucket_count(mib: usize) -> usize {
    let bytes = mib.saturating_mul(1 << 20);
    let n = (bytes / size_of::<Bucket>()).max(1);
    1 << n.ilog2()
}

/// The bucket vector, all slots empty.
pub(crate) fn allocate(buckets: usize) -> Box<[Bucket]> {
    (0..buckets).map(|_| Bucket::default()).collect()
}

/// The hash that picks a bucket (and through it the stripe) of a side-relative position.
#[inline]
pub(crate) fn hash(player: u64, opponent: u64) -> u64 {
    othello_rules::hash::hash_pair(player, opponent)
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    fn mv(s: &str) -> Option<Move> {
        Some(s.parse().unwrap())
    }

    #[test]
    fn bucket_counts_are_powers_of_two_within_the_size() {
        assert_eq!(bucket_count(0), 1);
        for mib in [1, 2, 3, 5, 16, 100] {
            let n = bucket_count(mib);
            assert!(n.is_power_of_two());
            assert!(n * size_of::<Bucket>() <= mib << 20);
            assert!(2 * n * size_of::<Bucket>() > mib << 20);
        }
    }

    #[test]
    fn fills_empty_slots_then_evicts_old_generation_then_shallowest() {
        let b = Bucket::default();
        // Four entries of generation 0, depths 5, 2, 7, 2.
        for (k, d) in [(1, 5), (2, 2), (3, 7), (4, 2)] {
            assert_eq!(b.store(8, k, 0, d, 0, Bound::Exact, None, 0), StoreOutcome::Filled);
        }
        // Same generation: the shallowest (first of the two depth-2 entries) goes.
        assert_eq!(b.store(8, 5, 0, 9, 0, Bound::Exact, None, 0), StoreOutcome::Replaced);
        assert!(b.probe(8, 2, 0).is_none());
        assert!(b.probe(8, 4, 0).is_some());
        // A new generation: old entries go first, the shallowest old one (key 4) before deeper ones.
        assert_eq!(b.store(8, 6, 0, 1, 0, Bound::Exact, None, 1), StoreOutcome::Replaced);
        assert!(b.probe(8, 4, 0).is_none());
        assert_eq!(b.store(8, 7, 0, 1, 0, Bound::Exact, None, 1), StoreOutcome::Replaced);
        assert!(
            b.probe(8, 1, 0).is_none(),
            "depth 5 of gen 0 goes before depth 1 of gen 1"
        );
        assert!(b.probe(8, 6, 0).is_some());
        for k in [3, 5, 6, 7] {
            assert!(b.probe(8, k, 0).is_some());
        }
    }

    #[test]
    fn same_position_is_overwritten_and_keeps_its_move() {
        let b = Bucket::default();
        b.store(8, 1, 2, 10, 50, Bound::Lower, mv("d3"), 0);
        assert_eq!(b.store(8, 1, 2, 3, -4, Bound::Upper, None, 1), StoreOutcome::Updated);
        let e = b.probe(8, 1, 2).unwrap();
        assert_eq!(
            e,
            Entry {
                depth: 3,
                score: -4,
                bound: Bound::Upper,
                best_move: mv("d3"),
                generation: 1
            }
        );
        b.store(8, 1, 2, 4, 6, Bound::Exact, mv("pass"), 1);
        assert_eq!(b.probe(8, 1, 2).unwrap().best_move, Some(Move::Pass));
        // The swapped position (other side to move) is another key.
        assert!(b.probe(8, 2, 1).is_none());
        // The same bitboards on another board size are another key too.
        assert!(b.probe(6, 1, 2).is_none());
        assert_eq!(b.store(6, 1, 2, 1, 1, Bound::Exact, None, 1), StoreOutcome::Filled);
        assert_eq!(
            (b.probe(6, 1, 2).unwrap().score, b.probe(8, 1, 2).unwrap().score),
            (1, 6)
        );
        b.clear();
        assert!(b.probe(8, 1, 2).is_none());
    }
}
