//! The shared table: buckets guarded by a stripe of `parking_lot` mutexes.

use crate::bucket::{self, Bucket, StoreOutcome};
use crate::{Bound, Entry, TableStats};
use othello_rules::Move;
use parking_lot::Mutex;
use std::fmt;
use std::sync::atomic::AtomicU8;
use std::sync::atomic::Ordering::Relaxed;

/// Most stripes a table has (fewer when it has fewer buckets). 1024 stripes make two threads
/// meet on the same lock about once in a thousand accesses, for 64 KiB of locks.
const MAX_STRIPES: usize = 1024;

/// Counters of the operations on one stripe, guarded by the stripe's lock.
#[derive(Default)]
struct Counters {
    probes: u64,
    hits: u64,
    stores: u64,
    replacements: u64,
}

/// A lock with its counters, alone on its cache line: counting touches the line the lock
/// acquisition has just taken, and two stripes never share a line (no false sharing).
#[derive(Default)]
#[repr(align(64))]
struct Stripe {
    lock: Mutex<Counters>,
}

const _: () = assert!(size_of::<Stripe>() == 64);

/// A transposition table shared by any number of threads through `&self`.
///
/// Keys are side-relative positions (`player`, `opponent` bitboards) and are stored whole, so a
/// probe never returns the entry of another position. Buckets hold four entries; the table
/// has a power-of-two number of buckets and a stripe of locks, each guarding a contiguous group
/// of buckets; the bucket (and so the lock) is chosen by a hash of the position. See the crate
/// documentation for the replacement policy.
///
/// ```
/// use othello_table::{Bound, TranspositionTable};
/// use std::thread;
///
/// let tt = TranspositionTable::new(1);
/// thread::scope(|s| {
///     for t in 0..4u64 {
///         let tt = &tt;
///         s.spawn(move || tt.store(1 << t, 1 << 40, 5, t as i16, Bound::Exact, None));
///     }
/// });
/// assert_eq!(tt.probe(1 << 3, 1 << 40).unwrap().score, 3);
/// assert_eq!(tt.stats().stores, 4);
/// ```
pub struct TranspositionTable {
    buckets: Box<[Bucket]>,
    stripes: Box<[Stripe]>,
    /// `buckets.len() - 1`.
    mask: usize,
    /// Bucket index >> `shift` = stripe index.
    shift: u32,
    generation: AtomicU8,
    mib: usize,
}

impl TranspositionTable {
    /// A table of at most `mib` MiB of entries (the largest power-of-two number of 96-byte
    /// buckets that fits; at least one bucket, also for 0), all empty, generation 0.
    ///
    /// # Panics
    ///
    /// Panics (or aborts) if the memory cannot be allocated.
    pub fn new(mib: usize) -> Self {
        let n = bucket::bucket_count(mib);
        let stripes = n.min(MAX_STRIPES);
        TranspositionTable {
            buckets: bucket::allocate(n),
            stripes: (0..stripes).map(|_| Stripe::default()).collect(),
            mask: n - 1,
            shift: n.ilog2() - stripes.ilog2(),
            generation: AtomicU8::new(0),
            mib,
        }
    }

    #[inline]
    fn locate(&self, player: u64, opponent: u64) -> (&Bucket, &Stripe) {
        let b = bucket::hash(player, opponent) as usize & self.mask;
        (&self.buckets[b], &self.stripes[b >> self.shift])
    }

    /// A copy of the entry of this position, if stored.
    #[inline]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<Entry> {
        let (bucket, stripe) = self.locate(player, opponent);
        let mut counters = stripe.lock.lock();
        counters.probes += 1;
        let found = bucket.probe(player, opponent);
        counters.hits += found.is_some() as u64;
        found
    }

    /// Stores a result for this position, stamped with the current generation.
    ///
    /// If the position is already stored its entry is overwritten (keeping its best move when
    /// `best_move` is `None`); otherwise the entry goes to an empty slot of its bucket, else
    /// replaces an entry of an older generation, else the shallowest entry.
    #[inline]
    pub fn store(&self, player: u64, opponent: u64, depth: u8, score: i16, bound: Bound, best_move: Option<Move>) {
        let generation = self.generation.load(Relaxed);
        let (bucket, stripe) = self.locate(player, opponent);
        let mut counters = stripe.lock.lock();
        let outcome = bucket.store(player, opponent, depth, score, bound, best_move, generation);
        counters.stores += 1;
        counters.replacements += (outcome == StoreOutcome::Replaced) as u64;
    }

    /// Starts a new search: bumps the generation (wrapping after 255), so the entries written
    /// so far become the first candidates for replacement. Nothing is erased.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// The current generation (stamped on new entries).
    pub fn generation(&self) -> u8 {
        self.generation.load(Relaxed)
    }

    /// Empties every entry. Statistics and the generation are kept. Safe to call while other
    /// threads use the table: each group of buckets is emptied under its lock.
    pub fn clear(&self) {
        let group = 1 << self.shift;
        for (stripe, buckets) in self.stripes.iter().zip(self.buckets.chunks(group)) {
            let _guard = stripe.lock.lock();
            buckets.iter().for_each(Bucket::clear);
        }
    }

    /// Replaces the table by an empty one of `mib` MiB, as [`TranspositionTable::new`] does:
    /// entries, statistics and the generation are reset.
    ///
    /// # Panics
    ///
    /// Panics (or aborts) if the memory cannot be allocated.
    pub fn resize(&mut self, mib: usize) {
        // Free the old buckets first so that peak memory is one table, not two.
        self.buckets = Box::new([]);
        *self = TranspositionTable::new(mib);
    }

    /// The counters summed over all stripes.
    pub fn stats(&self) -> TableStats {
        let mut total = TableStats::default();
        for stripe in self.stripes.iter() {
            let c = stripe.lock.lock();
            total += TableStats {
                probes: c.probes,
                hits: c.hits,
                stores: c.stores,
                replacements: c.replacements,
            };
        }
        total
    }

    /// Sets all counters to zero.
    pub fn reset_stats(&self) {
        for stripe in self.stripes.iter() {
            *stripe.lock.lock() = Counters::default();
        }
    }

    /// Number of entries (slots) the table holds.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * bucket::WAYS
    }

    /// The size asked for in [`TranspositionTable::new`] or the last
    /// [`TranspositionTable::resize`], in MiB (the table uses at most that much for entries).
    pub fn mib(&self) -> usize {
        self.mib
    }
}

impl fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("mib", &self.mib)
            .field("capacity", &self.capacity())
            .field("stripes", &self.stripes.len())
            .field("generation", &self.generation())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<TranspositionTable>();
    }

    #[test]
    fn stripes_cover_the_buckets_in_equal_groups() {
        for mib in [0, 1, 4, 64] {
            let t = TranspositionTable::new(mib);
            let n = t.buckets.len();
            assert_eq!(t.capacity(), 4 * n);
            assert_eq!(t.stripes.len() << t.shift, n);
            assert_eq!((n - 1) >> t.shift, t.stripes.len() - 1);
        }
    }
}
