//! Model check of the perft cache's protocol with loom (`--cfg loom`).
//!
//! Built only with `RUSTFLAGS="--cfg loom"`: the cache's atomics and fences are then loom's
//! models, and loom runs each closure below under every interleaving and every memory-order
//! outcome its model allows (up to its preemption bound). The code checked is the cache's own
//! `PerftTable::store` (claim by compare-and-swap to an odd sequence number, release fence, the
//! three words, release of the next even number) against `PerftTable::probe` (acquire the
//! sequence number, the words, acquire fence, re-read). The readers run on spawned threads, as
//! in the table crate's model: loom explores more schedules that way.

use super::table::PerftTable;
use crate::BoardSize;
use loom::sync::Arc;
use loom::thread;

const E: BoardSize = BoardSize::Eight;
const DEPTH: u32 = 5;

/// Runs `f` under loom and prints how many executions were explored (with `--nocapture`).
fn model(name: &str, f: impl Fn() + Sync + Send + 'static) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let runs = std::sync::Arc::new(AtomicUsize::new(0));
    let counted = runs.clone();
    let mut b = loom::model::Builder::new();
    if b.preemption_bound.is_none() {
        b.preemption_bound = Some(3);
    }
    b.check(move || {
        counted.fetch_add(1, Ordering::Relaxed);
        f();
    });
    println!("{name}: {} executions explored", runs.load(Ordering::Relaxed));
}

/// The count stored for key `k` in these models: a function of the key, so that a probe
/// pairing one key with another key's count is caught.
fn count_of(k: u64) -> u64 {
    1000 + k
}

/// A table of one bucket whose two entries hold keys 1 and 2 (at depths `DEPTH` and
/// `DEPTH + 1`, so the replacement evicts key 1's entry first).
fn full_table() -> Arc<PerftTable> {
    let t = PerftTable::one_bucket(E);
    t.store(1, 101, DEPTH, count_of(1));
    t.store(2, 102, DEPTH + 1, count_of(2));
    assert_eq!(t.probe(1, 101, DEPTH), Some(count_of(1)));
    assert_eq!(t.probe(2, 102, DEPTH + 1), Some(count_of(2)));
    Arc::new(t)
}

/// A store that evicts another position rewrites an entry's three words. A probe running at
/// the same time must never pair the new key with the old count or the old key with the new
/// count: it sees the new entry whole, the old one whole, or a miss.
#[test]
fn loom_a_probe_never_sees_a_torn_eviction() {
    model("torn eviction", || {
        let t = full_table();
        let writer = {
            let t = t.clone();
            thread::spawn(move || t.store(9, 109, DEPTH, count_of(9)))
        };
        let reader = {
            let t = t.clone();
            thread::spawn(move || (t.probe(1, 101, DEPTH), t.probe(9, 109, DEPTH)))
        };
        writer.join().unwrap();
        let (old, new) = reader.join().unwrap();
        assert!(
            old.is_none() || old == Some(count_of(1)),
            "old key, wrong count: {old:?}"
        );
        assert!(
            new.is_none() || new == Some(count_of(9)),
            "new key, wrong count: {new:?}"
        );
        // Once the writer is done, the new entry is there whole and the old one is gone.
        assert_eq!(t.probe(9, 109, DEPTH), Some(count_of(9)));
        assert_eq!(t.probe(1, 101, DEPTH), None);
        // The deeper entry was never touched.
        assert_eq!(t.probe(2, 102, DEPTH + 1), Some(count_of(2)));
    });
}

/// Two stores racing for the same entry: at most one claims it, the other is dropped; a
/// probe during and after the race finds each key with its own count or not at all, and the
/// entry afterwards holds one of the two whole.
#[test]
fn loom_racing_stores_leave_one_whole_entry() {
    model("racing stores", || {
        let t = full_table();
        let a = {
            let t = t.clone();
            thread::spawn(move || t.store(7, 107, DEPTH, count_of(7)))
        };
        let b = {
            let t = t.clone();
            thread::spawn(move || {
                t.store(8, 108, DEPTH, count_of(8));
                t.probe(7, 107, DEPTH)
            })
        };
        a.join().unwrap();
        let seen = b.join().unwrap();
        assert!(
            seen.is_none() || seen == Some(count_of(7)),
            "key 7, wrong count: {seen:?}"
        );
        let (x, y) = (t.probe(7, 107, DEPTH), t.probe(8, 108, DEPTH));
        assert!(x.is_none() || x == Some(count_of(7)));
        assert!(y.is_none() || y == Some(count_of(8)));
        assert!(
            x.is_some() || y.is_some(),
            "both stores lost: the entry was left claimed"
        );
        assert_eq!(t.probe(2, 102, DEPTH + 1), Some(count_of(2)));
    });
}

/// A probe of the same key while its count is rewritten at another depth: the answer is for
/// the depth asked (the depth is stored with the count, in one word).
#[test]
fn loom_a_probe_never_mixes_depths() {
    model("depths", || {
        let t = full_table();
        let writer = {
            let t = t.clone();
            thread::spawn(move || t.store(1, 101, DEPTH - 1, 5))
        };
        let reader = {
            let t = t.clone();
            thread::spawn(move || (t.probe(1, 101, DEPTH), t.probe(1, 101, DEPTH - 1)))
        };
        writer.join().unwrap();
        let (deep, shallow) = reader.join().unwrap();
        assert!(deep.is_none() || deep == Some(count_of(1)));
        assert!(shallow.is_none() || shallow == Some(5));
    });
}
