//! The same table for one thread, without locks: the baseline the lock cost is measured against.

use crate::bucket::{self, Bucket, StoreOutcome};
use crate::{Bound, Entry, TableStats};
use othello_rules::{BoardSize, Move};
use std::cell::Cell;
use std::fmt;

/// A single-threaded transposition table: the same buckets, slot layout, hashing and
/// replacement policy as [`crate::TranspositionTable`], without locks (it is `Send` but not
/// `Sync`). Use it when one thread owns the table; it also serves as the baseline in the
/// benchmarks that measure what the locks cost.
///
/// ```
/// use othello_table::{Bound, LocalTable};
///
/// let tt = LocalTable::new(1);
/// let size = othello_rules::BoardSize::Eight;
/// tt.store(size, 0b11, 0b100, 4, -20, Bound::Upper, None);
/// assert_eq!(tt.probe(size, 0b11, 0b100).unwrap().bound, Bound::Upper);
/// ```
pub struct LocalTable {
    buckets: Box<[Bucket]>,
    mask: usize,
    generation: Cell<u8>,
    stats: Cell<TableStats>,
    mib: usize,
}

impl LocalTable {
    /// A table of at most `mib` MiB, as [`crate::TranspositionTable::new`].
    ///
    /// # Panics
    ///
    /// Panics (or aborts) if the memory cannot be allocated.
    pub fn new(mib: usize) -> Self {
        let n = bucket::bucket_count(mib);
        LocalTable {
            buckets: bucket::allocate(n),
            mask: n - 1,
            generation: Cell::new(0),
            stats: Cell::new(TableStats::default()),
            mib,
        }
    }

    #[inline]
    fn bucket(&self, player: u64, opponent: u64) -> &Bucket {
        &self.buckets[bucket::hash(player, opponent) as usize & self.mask]
    }

    #[inline]
    fn count(&self, f: impl FnOnce(&mut TableStats)) {
        let mut s = self.stats.get();
        f(&mut s);
        self.stats.set(s);
    }

    /// Asks the CPU to start loading the bucket of this position, as
    /// [`crate::TranspositionTable::prefetch`].
    #[inline]
    pub fn prefetch(&self, player: u64, opponent: u64) {
        othello_rules::hash::prefetch(self.bucket(player, opponent));
    }

    /// A copy of the entry of this position (board size and bitboards), if stored.
    #[inline]
    pub fn probe(&self, size: BoardSize, player: u64, opponent: u64) -> Option<Entry> {
        let found = self.bucket(player, opponent).probe(size.side(), player, opponent);
        self.count(|s| {
            s.probes += 1;
            s.hits += found.is_some() as u64;
        });
        found
    }

    /// Stores a result for this position, as [`crate::TranspositionTable::store`].
    #[inline]
    #[expect(
        clippy::too_many_arguments,
        reason = "the key (size, player, opponent) and the entry's fields"
    )]
    pub fn store(
        &self,
        size: BoardSize,
        player: u64,
        opponent: u64,
        depth: u8,
        score: i16,
        bound: Bound,
        best_move: Option<Move>,
    ) {
        let generation = self.generation.get();
        let outcome = self.bucket(player, opponent).store(
            size.side(),
            player,
            opponent,
            depth,
            score,
            bound,
            best_move,
            generation,
        );
        self.count(|s| {
            s.stores += 1;
            s.replacements += (outcome == StoreOutcome::Replaced) as u64;
        });
    }

    /// Bumps the generation (wrapping after 255).
    pub fn new_search(&self) {
        self.generation.set(self.generation.get().wrapping_add(1));
    }

    /// The current generation.
    pub fn generation(&self) -> u8 {
        self.generation.get()
    }

    /// Empties every entry; statistics and the generation are kept.
    pub fn clear(&self) {
        self.buckets.iter().for_each(Bucket::clear);
    }

    /// Replaces the table by an empty one of `mib` MiB (statistics and generation reset).
    ///
    /// # Panics
    ///
    /// Panics (or aborts) if the memory cannot be allocated.
    pub fn resize(&mut self, mib: usize) {
        self.buckets = Box::new([]);
        *self = LocalTable::new(mib);
    }

    /// The counters.
    pub fn stats(&self) -> TableStats {
        self.stats.get()
    }

    /// Sets all counters to zero.
    pub fn reset_stats(&self) {
        self.stats.set(TableStats::default());
    }

    /// Number of entries (slots) the table holds.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * bucket::WAYS
    }

    /// The size asked for, in MiB.
    pub fn mib(&self) -> usize {
        self.mib
    }
}

impl fmt::Debug for LocalTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalTable")
            .field("mib", &self.mib)
            .field("capacity", &self.capacity())
            .field("generation", &self.generation())
            .finish_non_exhaustive()
    }
}
