//! The perft cache: a lock-free table shared by every thread of a count (see [`PerftTable`]).
//!
//! Its protocol is a sequence lock per entry whose writers give up instead of waiting: a
//! writer claims an entry by moving its sequence number from even to odd with one
//! compare-and-swap (a store that loses the race, or finds the entry being written, is
//! dropped: this is a cache), writes the three words, and publishes them with the next even
//! number; a reader takes the sequence number before and after reading the words and keeps
//! them only if both are the same even number. The table crate's transposition table uses the
//! same reader side with a stripe of writer locks instead. Each crate has a loom model of its
//! own protocol (`RUSTFLAGS="--cfg loom" cargo test -p othello-rules --release --lib loom`,
//! see `perft/loom_model.rs`), so either crate can be lifted out alone.

use crate::BoardSize;
use crate::hash::hash_pair;
#[cfg(loom)]
use loom::sync::atomic::{AtomicU64, Ordering, fence};
#[cfg(not(loom))]
use std::sync::atomic::{AtomicU64, Ordering, fence};

/// One cached count: position (side-relative), remaining depth and count, behind a sequence
/// number (a seqlock): odd while a writer fills the entry, bumped by two when it is done.
#[derive(Default)]
struct Entry {
    seq: AtomicU64,
    player: AtomicU64,
    opponent: AtomicU64,
    /// Count in the low 56 bits, remaining depth in the top 8 (0 = empty slot).
    data: AtomicU64,
}

/// Two entries on one 64-byte cache line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Entry; 2]);

/// A perft cache shared by every thread of a count: buckets of two entries, depth-preferred
/// replacement, lock-free. A probe returns a count only for the exact position and depth it
/// was stored for: the whole position is compared, and a sequence number read before and after
/// the entry rejects an entry another thread was writing meanwhile, so a probe never sees a
/// torn entry. A store that finds its entry being written is dropped (it is a cache).
pub struct PerftTable {
    buckets: Box<[Bucket]>,
    mask: usize,
    /// The board size the table was made for.
    pub(super) size: BoardSize,
}

impl PerftTable {
    /// A table for positions of `size` using about `mib` MiB (rounded down to a power of two
    /// buckets of 64 bytes; at least 512 buckets).
    pub fn new(mib: usize, size: BoardSize) -> PerftTable {
        let want = (mib.max(1) << 20) / std::mem::size_of::<Bucket>();
        let n = (want.max(512) + 1).next_power_of_two() / 2;
        PerftTable::with_buckets(n, size)
    }

    /// A table of `n` buckets (a power of two).
    fn with_buckets(n: usize, size: BoardSize) -> PerftTable {
        debug_assert!(n.is_power_of_two());
        PerftTable {
            buckets: zeroed_buckets(n),
            mask: n - 1,
            size,
        }
    }

    /// A table of one bucket (two entries), for the loom model.
    #[cfg(all(test, loom))]
    pub(super) fn one_bucket(size: BoardSize) -> PerftTable {
        PerftTable::with_buckets(1, size)
    }

    /// The count stored for `(p, o)` at `depth`, if any (never a torn entry).
    #[inline]
    pub(super) fn probe(&self, p: u64, o: u64, depth: u32) -> Option<u64> {
        let b = &self.buckets[hash_pair(p, o) as usize & self.mask];
        for e in &b.0 {
            let s1 = e.seq.load(Ordering::Acquire);
            let (ep, eo, data) = (
                e.player.load(Ordering::Relaxed),
                e.opponent.load(Ordering::Relaxed),
                e.data.load(Ordering::Relaxed),
            );
            fence(Ordering::Acquire);
            let s2 = e.seq.load(Ordering::Relaxed);
            if s1 & 1 == 0 && s1 == s2 && ep == p && eo == o && (data >> 56) as u32 == depth {
                return Some(data & ((1 << 56) - 1));
            }
        }
        None
    }

    /// Asks the CPU to bring the bucket of `(p, o)` into the cache ahead of its probe.
    #[inline]
    pub(super) fn prefetch(&self, p: u64, o: u64) {
        crate::hash::prefetch(&self.buckets[hash_pair(p, o) as usize & self.mask]);
    }

    /// Stores `count` for `(p, o)` at `depth`, unless another thread is writing the entry.
    #[inline]
    pub(super) fn store(&self, p: u64, o: u64, depth: u32, count: u64) {
        let b = &self.buckets[hash_pair(p, o) as usize & self.mask];
        let d0 = b.0[0].data.load(Ordering::Relaxed) >> 56;
        let d1 = b.0[1].data.load(Ordering::Relaxed) >> 56;
        let e = if d1 < d0 { &b.0[1] } else { &b.0[0] };
        let s = e.seq.load(Ordering::Relaxed);
        // The claim acquires: it reads the even number the previous writer released, so that
        // writer's words happen before ours. With a relaxed claim the two writers' words were
        // unordered, and the entry could end with one writer's key and the other's count
        // under an even sequence number: a torn entry every later probe accepts (found by
        // the loom model, `loom_racing_stores_leave_one_whole_entry`). On x86-64 the
        // compare-and-swap is the same instruction either way.
        if s & 1 != 0
            || e.seq
                .compare_exchange(s, s + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        // The odd number is visible before any word of the new entry.
        fence(Ordering::Release);
        e.player.store(p, Ordering::Relaxed);
        e.opponent.store(o, Ordering::Relaxed);
        e.data.store(count | (depth as u64) << 56, Ordering::Relaxed);
        e.seq.store(s + 2, Ordering::Release);
    }
}

/// `n` empty buckets. The memory is first mapped in one call ([`populate`]), then zeroed: the
/// zeroing then takes no page faults (with the allocator's zeroing, one fault per 4 KiB page:
/// 0.2-0.3 s of system time for 256 MiB on an AMD EPYC Zen 3 VM). Leaving the pages to be
/// faulted in by the counting threads instead was measured and is worse (docs/BENCHMARKS.md,
/// "Zen 3": with two threads the concurrent first-touch faults cost that VM two to three
/// times the system time).
#[cfg(not(loom))]
#[allow(unsafe_code)]
fn zeroed_buckets(n: usize) -> Box<[Bucket]> {
    let layout = std::alloc::Layout::array::<Bucket>(n).expect("perft table size overflows");
    // SAFETY: `layout` has a non-zero size (n >= 512); the pointer comes from the global
    // allocator with the layout of `[Bucket; n]`, which is the layout `Box<[Bucket]>` frees it
    // with; `populate` only maps the pages inside the allocation; every byte is then written
    // (zero), and a `Bucket` is atomics only, for which all zero bytes are a valid value (the
    // same as `Bucket::default()`).
    unsafe {
        let ptr = std::alloc::alloc(layout);
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        populate(ptr, layout.size());
        ptr.write_bytes(0, layout.size());
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr.cast::<Bucket>(), n))
    }
}

/// `n` empty buckets, for the loom model: loom's atomics are objects of its model, not plain
/// memory, so they are built one by one.
#[cfg(loom)]
fn zeroed_buckets(n: usize) -> Box<[Bucket]> {
    (0..n).map(|_| Bucket::default()).collect()
}

/// Asks the operating system to map the pages of `[ptr, ptr + len)` now, in one call (Linux
/// 5.14 and later: `madvise(MADV_POPULATE_WRITE)`), as first writes would map them, rather
/// than at one page fault each. Elsewhere, or when the kernel refuses, nothing happens.
///
/// # Safety
/// `[ptr, ptr + len)` must lie inside one allocation.
#[cfg(not(loom))]
#[allow(unsafe_code)]
unsafe fn populate(ptr: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        use std::ffi::{c_int, c_void};
        unsafe extern "C" {
            fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
        }
        const MADV_POPULATE_WRITE: c_int = 23;
        // The base page of x86-64 and of most aarch64 kernels; where pages are larger, the
        // rounded range is not aligned and the call fails harmlessly (EINVAL).
        const PAGE: usize = 4096;
        let (start, end) = (ptr as usize, ptr as usize + len);
        let (first, last) = (start.next_multiple_of(PAGE), end / PAGE * PAGE);
        if last > first {
            // SAFETY: [first, last) is inside [ptr, ptr + len), whole pages rounded inwards
            // (the caller's promise); MADV_POPULATE_WRITE maps them without changing their
            // contents. A failure (an older kernel) is ignored: the pages fault in as before.
            unsafe { madvise(first as *mut c_void, last - first, MADV_POPULATE_WRITE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, len);
}
