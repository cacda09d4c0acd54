//! The shared table: lock-free probes validated by a per-stripe version word (a seqlock), stores
//! under a stripe of `parking_lot` mutexes.

use crate::bucket::{self, Bucket, StoreOutcome};
use crate::sync::{AtomicU8, AtomicU64, Lock, fence};
use crate::{Bound, Entry, TableStats};
use othello_rules::{BoardSize, Move};
use std::fmt;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};

/// Most stripes a table has (fewer when it has fewer buckets). 1024 stripes make two threads
/// meet on the same stripe about once in a thousand accesses, for 64 KiB of stripes.
const MAX_STRIPES: usize = 1024;

/// How many times a probe reads its bucket again when a store to the same stripe overlapped the
/// read, before it gives up and reports a miss (a miss is always a correct answer).
const PROBE_ATTEMPTS: usize = 4;

/// A writer lock, the version word readers validate against, and the counters of the
/// operations on the stripe, alone on one cache line: a probe reads the version and bumps one
/// counter on that line, a store also takes the lock there, and two stripes never share a
/// line (no false sharing).
///
/// The version is even when no store is in progress on the stripe. A writer (holding `lock`)
/// makes it odd, writes its bucket, and makes it even again, so a reader that sees the same
/// even version before and after reading a bucket knows no store overlapped its read.
#[repr(align(64))]
pub(crate) struct Stripe {
    lock: Lock,
    version: AtomicU64,
    /// Probes that found their position (lock-free: `fetch_add`).
    hits: AtomicU64,
    /// Probes that did not (lock-free: `fetch_add`).
    misses: AtomicU64,
    /// Stores that did not evict another position (written only under `lock`).
    plain_stores: AtomicU64,
    /// Stores that evicted another position (written only under `lock`).
    replacements: AtomicU64,
}

#[cfg(not(loom))]
const _: () = assert!(size_of::<Stripe>() == 64);

impl Default for Stripe {
    fn default() -> Stripe {
        Stripe {
            lock: Lock::default(),
            version: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            plain_stores: AtomicU64::new(0),
            replacements: AtomicU64::new(0),
        }
    }
}

impl Stripe {
    /// Runs `write` (which modifies buckets of this stripe) under the lock, with the version
    /// odd while it runs.
    #[inline]
    pub(crate) fn write<R>(&self, write: impl FnOnce() -> R) -> R {
        let _guard = self.lock.lock();
        let v = self.version.load(Relaxed);
        self.version.store(v.wrapping_add(1), Relaxed);
        // Orders the odd version before the slot stores: a reader that sees any of them then
        // sees the odd (or a later) version when it re-reads it after its acquire fence.
        fence(Release);
        let r = write();
        // Publishes the slot stores with the even version.
        self.version.store(v.wrapping_add(2), Release);
        r
    }

    /// Adds one to a counter that only the holder of `lock` writes: a plain load and store,
    /// no read-modify-write.
    #[inline]
    fn bump_locked(counter: &AtomicU64) {
        counter.store(counter.load(Relaxed) + 1, Relaxed);
    }
}

/// A transposition table shared by any number of threads through `&self`.
///
/// Keys are side-relative positions (`player`, `opponent` bitboards) and are stored whole, so a
/// probe never returns the entry of another position. Buckets hold four entries; the table
/// has a power-of-two number of buckets and a stripe of locks and version words, each covering
/// a contiguous group of buckets; the bucket (and so the stripe) is chosen by a hash of the
/// position. Probes take no lock and never wait; see the crate documentation for how they
/// stay exact, and for the replacement policy.
///
/// ```
/// use othello_table::{Bound, TranspositionTable};
/// use std::thread;
///
/// let tt = TranspositionTable::new(1);
/// let size = othello_rules::BoardSize::Eight;
/// thread::scope(|s| {
///     for t in 0..4u64 {
///         let tt = &tt;
///         s.spawn(move || tt.store(size, 1 << t, 1 << 40, 5, t as i16, Bound::Exact, None));
///     }
/// });
/// assert_eq!(tt.probe(size, 1 << 3, 1 << 40).unwrap().score, 3);
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

    /// Asks the CPU to start loading the bucket of this position (side-relative bitboards)
    /// ahead of its probe or store: a hint that changes no entry, no counter and no result.
    #[inline]
    pub fn prefetch(&self, player: u64, opponent: u64) {
        othello_rules::hash::prefetch(self.locate(player, opponent).0);
    }

    /// A copy of the entry of this position (board size and side-relative bitboards), if
    /// stored.
    ///
    /// Takes no lock and never waits: the bucket is read between two reads of its stripe's
    /// version and the result is used only if no store overlapped (otherwise the read is
    /// retried a few times, then reported as a miss).
    #[inline]
    pub fn probe(&self, size: BoardSize, player: u64, opponent: u64) -> Option<Entry> {
        let (bucket, stripe) = self.locate(player, opponent);
        let found = Self::read(bucket, stripe, size.side(), player, opponent);
        let counter = if found.is_some() { &stripe.hits } else { &stripe.misses };
        counter.fetch_add(1, Relaxed);
        found
    }

    /// The seqlock read of `bucket`: `None` if absent or if every attempt overlapped a store.
    #[inline]
    pub(crate) fn read(bucket: &Bucket, stripe: &Stripe, side: u8, player: u64, opponent: u64) -> Option<Entry> {
        for _ in 0..PROBE_ATTEMPTS {
            let before = stripe.version.load(Acquire);
            if before & 1 == 0 {
                let found = bucket.probe(side, player, opponent);
                // Orders the slot loads before the second version load: if any of them saw a
                // store made after `before`, this load sees that store's odd version or later.
                fence(Acquire);
                if stripe.version.load(Relaxed) == before {
                    return found;
                }
            }
            crate::sync::spin_loop();
        }
        None
    }

    /// Stores a result for this position (board size and side-relative bitboards), stamped
    /// with the current generation.
    ///
    /// If the position is already stored its entry is overwritten (keeping its best move when
    /// `best_move` is `None`); otherwise the entry goes to an empty slot of its bucket, else
    /// replaces an entry of an older generation, else the shallowest entry.
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
        let generation = self.generation.load(Relaxed);
        let (bucket, stripe) = self.locate(player, opponent);
        stripe.write(|| {
            let outcome = bucket.store(
                size.side(),
                player,
                opponent,
                depth,
                score,
                bound,
                best_move,
                generation,
            );
            let counter = if outcome == StoreOutcome::Replaced {
                &stripe.replacements
            } else {
                &stripe.plain_stores
            };
            Stripe::bump_locked(counter);
        });
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
    /// threads use the table: each group of buckets is emptied under its stripe's lock (probes
    /// of a group being emptied report misses).
    pub fn clear(&self) {
        let group = 1 << self.shift;
        for (stripe, buckets) in self.stripes.iter().zip(self.buckets.chunks(group)) {
            stripe.write(|| buckets.iter().for_each(Bucket::clear));
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
        for s in self.stripes.iter() {
            let (hits, misses) = (s.hits.load(Relaxed), s.misses.load(Relaxed));
            let (plain, replacements) = (s.plain_stores.load(Relaxed), s.replacements.load(Relaxed));
            total += TableStats {
                probes: hits + misses,
                hits,
                stores: plain + replacements,
                replacements,
            };
        }
        total
    }

    /// Sets all counters to zero.
    pub fn reset_stats(&self) {
        for s in self.stripes.iter() {
            let _guard = s.lock.lock();
            for c in [&s.hits, &s.misses, &s.plain_stores, &s.replacements] {
                c.store(0, Relaxed);
            }
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

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    const E: BoardSize = BoardSize::Eight;

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

    #[test]
    fn stores_move_the_version_by_two_and_probes_leave_it() {
        let t = TranspositionTable::new(0);
        let v = || t.stripes[0].version.load(Relaxed);
        assert_eq!(v(), 0);
        t.store(E, 1, 2, 3, 4, Bound::Exact, None);
        assert_eq!(v(), 2);
        assert!(t.probe(E, 1, 2).is_some() && t.probe(E, 2, 1).is_none());
        assert_eq!(v(), 2);
        t.clear();
        assert_eq!(v(), 4);
    }

    #[test]
    fn a_probe_during_a_store_is_a_miss_and_never_reads_the_bucket() {
        let t = TranspositionTable::new(0);
        t.store(E, 1, 2, 3, 4, Bound::Exact, None);
        let stripe = &t.stripes[0];
        // A store in progress (odd version): the entry is there, but the probe must not use it.
        stripe.version.store(3, Relaxed);
        assert_eq!(t.probe(E, 1, 2), None);
        stripe.version.store(4, Relaxed);
        assert_eq!(t.probe(E, 1, 2).unwrap().score, 4);
        let s = t.stats();
        assert_eq!((s.probes, s.hits, s.stores, s.replacements), (2, 1, 1, 0));
    }
}
