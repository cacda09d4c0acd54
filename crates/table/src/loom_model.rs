//! Model check of the seqlock protocol with loom (`--cfg loom`; see `docs/table.md`).
//!
//! Built only with `RUSTFLAGS="--cfg loom"`: the table's atomics, fences and stripe lock are
//! then loom's models (`crate::sync`), and loom runs the closures below under every
//! interleaving and every memory-order outcome its model allows (up to its preemption bound).
//! The code checked is the table's own: `TranspositionTable::store` (stripe lock, odd version,
//! release fence, slot writes, even version) against `TranspositionTable::probe` (acquire
//! version, slot reads, acquire fence, version re-read).
//!
//! The readers run on spawned threads: loom explored far fewer schedules with the probes on
//! the model's main thread, and missed a deliberately broken protocol there (see
//! `docs/table.md`).

use crate::{Bound, TranspositionTable};
use loom::sync::Arc;
use loom::thread;
use othello_rules::BoardSize;

const E: BoardSize = BoardSize::Eight;

/// A table of one bucket (four slots) and one stripe, its slots filled with keys 1..=4.
fn full_table() -> Arc<TranspositionTable> {
    let t = TranspositionTable::new(0);
    assert_eq!(t.capacity(), 4);
    for k in 1..=4u64 {
        t.store(E, k, 100 + k, 1, k as i16, Bound::Exact, None);
    }
    Arc::new(t)
}

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

/// A store that evicts another position rewrites a slot's three words (two key words and the
/// data word). A probe running at the same time must never pair the new key with the old data
/// or the old key with the new data: it sees the new entry whole, the old one whole, or a miss.
#[test]
fn loom_a_probe_never_sees_a_torn_eviction() {
    model("torn eviction", || {
        let t = full_table();
        let writer = {
            let t = t.clone();
            thread::spawn(move || {
                // Key 9 evicts the shallowest (first) slot, key 1.
                t.store(E, 9, 109, 2, 99, Bound::Lower, None);
            })
        };
        let reader = {
            let t = t.clone();
            thread::spawn(move || (t.probe(E, 9, 109), t.probe(E, 1, 101)))
        };
        let (new, old) = reader.join().unwrap();
        writer.join().unwrap();
        if let Some(e) = new {
            assert_eq!((e.depth, e.score, e.bound), (2, 99, Bound::Lower));
        }
        if let Some(e) = old {
            assert_eq!((e.depth, e.score, e.bound), (1, 1, Bound::Exact));
        }
        // After the store, the new entry is there and the old one is gone.
        assert_eq!(t.probe(E, 9, 109).map(|e| e.score), Some(99));
        assert_eq!(t.probe(E, 1, 101), None);
    });
}

/// Two writers serialise on the stripe lock; a reader sees each version whole.
#[test]
fn loom_two_writers_and_a_reader() {
    model("two writers", || {
        let t = full_table();
        let writers: Vec<_> = [(2, 7i16), (3, 8)]
            .into_iter()
            .map(|(k, score)| {
                let t = t.clone();
                thread::spawn(move || t.store(E, k, 100 + k, 5, score, Bound::Upper, None))
            })
            .collect();
        let reader = {
            let t = t.clone();
            thread::spawn(move || [2u64, 3].map(|k| t.probe(E, k, 100 + k)))
        };
        for (k, found) in [2u64, 3].into_iter().zip(reader.join().unwrap()) {
            if let Some(e) = found {
                let stored = (e.depth, e.score, e.bound);
                let new = (5, if k == 2 { 7 } else { 8 }, Bound::Upper);
                assert!(stored == (1, k as i16, Bound::Exact) || stored == new, "{stored:?}");
            }
        }
        for w in writers {
            w.join().unwrap();
        }
        assert_eq!(t.probe(E, 2, 102).map(|e| e.score), Some(7));
        assert_eq!(t.probe(E, 3, 103).map(|e| e.score), Some(8));
        assert_eq!(t.stats().stores, 6);
    });
}

/// The version word protocol alone, as the table runs it: a reader that validates its read
/// (even version, unchanged after the acquire fence) sees the words of one store, never a mix.
#[test]
fn loom_a_validated_read_is_never_a_mix_of_two_stores() {
    model("two stores", || {
        let t = full_table();
        let writer = {
            let t = t.clone();
            thread::spawn(move || {
                t.store(E, 4, 104, 3, 30, Bound::Exact, None);
                t.store(E, 4, 104, 4, 40, Bound::Exact, None);
            })
        };
        let reader = {
            let t = t.clone();
            thread::spawn(move || t.probe(E, 4, 104))
        };
        if let Some(e) = reader.join().unwrap() {
            assert!(matches!((e.depth, e.score), (1, 4) | (3, 30) | (4, 40)), "{e:?}");
        }
        writer.join().unwrap();
        assert_eq!(t.probe(E, 4, 104).map(|e| e.score), Some(40));
    });
}
