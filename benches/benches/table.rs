//! Transposition table: probe and store cost, shared (lock-free probes, stores under striped
//! locks; labelled `locked`) against the same table without locks, and with two threads contending.
//! Run: `cargo bench -p othello-benches --bench table`.
use criterion::{BenchmarkId, Criterion, criterion_main};
use othello_rules::random::play_random;
use othello_rules::{BoardSize, Position};
use othello_table::{Bound, LocalTable, Table, TranspositionTable};

/// The board size of the keys.
const E: BoardSize = BoardSize::Eight;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::hint::black_box;
use std::thread;
use std::time::{Duration, Instant};

/// Table size used throughout: larger than the caches, as in a real search.
const MIB: usize = 64;
/// Keys per measured batch.
const N: usize = 1000;

/// `n` distinct side-relative positions from seeded random play (8x8).
fn keys(n: usize, seed: u64) -> Vec<(u64, u64)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    while out.len() < n {
        let plies = rng.random_range(0..60);
        let pos = play_random(&Position::start(), plies, &mut rng);
        if seen.insert((pos.player().0, pos.opponent().0)) {
            out.push((pos.player().0, pos.opponent().0));
        }
    }
    out
}

/// What the bench stores for a key: a function of the key, so a probe can check it.
fn score_of(p: u64, o: u64) -> i16 {
    (p.wrapping_mul(31) ^ o) as i16
}

fn store_all(t: &impl Table, ks: &[(u64, u64)]) {
    for &(p, o) in ks {
        t.store(E, black_box(p), o, 7, score_of(p, o), Bound::Exact, None);
    }
}

/// Probes every key, checks every hit, returns the hit count.
fn probe_all(t: &impl Table, ks: &[(u64, u64)]) -> usize {
    let mut hits = 0;
    for &(p, o) in ks {
        if let Some(e) = t.probe(E, black_box(p), o) {
            assert_eq!(e.score, score_of(p, o));
            hits += 1;
        }
    }
    hits
}

fn single_thread(c: &mut Criterion, name: &str, t: &impl Table) {
    let all = keys(2 * N, 1);
    let (stored, absent) = all.split_at(N);
    store_all(t, stored);
    let mut g = c.benchmark_group("table");
    g.bench_function(BenchmarkId::new("probe hit x1000", name), |b| {
        b.iter(|| assert_eq!(probe_all(t, stored), N))
    });
    g.bench_function(BenchmarkId::new("probe miss x1000", name), |b| {
        b.iter(|| assert_eq!(probe_all(t, absent), 0))
    });
    // Fresh keys each batch, so stores fill and replace rather than update the same entries.
    let fresh = keys(64 * N, 3);
    let mut batches = fresh.chunks(N).cycle();
    g.bench_function(BenchmarkId::new("store x1000", name), |b| {
        b.iter(|| store_all(t, batches.next().unwrap()))
    });
    g.finish();
    // Everything the store bench wrote last is still there with the right contents.
    let last = fresh.chunks(N).last().unwrap();
    store_all(t, last);
    assert_eq!(probe_all(t, last), N);
}

/// `threads` threads each run `iters` batches of 1000 mixed operations (half probes, half
/// stores) over `ks`; returns the wall time, which criterion reports per batch: the time one
/// thread takes for 1000 operations while all the threads run.
fn mixed(t: &TranspositionTable, ks: &[(u64, u64)], threads: usize, iters: u64) -> Duration {
    let start = Instant::now();
    thread::scope(|s| {
        for th in 0..threads {
            s.spawn(move || {
                let mut rng = SmallRng::seed_from_u64(th as u64);
                for _ in 0..iters {
                    for _ in 0..N / 2 {
                        let (p, o) = ks[rng.random_range(0..ks.len())];
                        t.store(E, p, o, 5, score_of(p, o), Bound::Lower, None);
                        let (p, o) = ks[rng.random_range(0..ks.len())];
                        if let Some(e) = t.probe(E, black_box(p), o) {
                            assert_eq!(e.score, score_of(p, o));
                        }
                    }
                }
            });
        }
    });
    start.elapsed()
}

fn contended(c: &mut Criterion) {
    let wide = keys(200_000, 4);
    let hot = keys(16, 5);
    let mut g = c.benchmark_group("table/mixed x1000");
    g.measurement_time(Duration::from_secs(4));
    for (name, mib, ks) in [("wide 64MiB", MIB, &wide), ("one bucket", 0, &hot)] {
        for threads in [1, 2] {
            let t = TranspositionTable::new(mib);
            g.bench_function(BenchmarkId::new(name, format!("{threads} thread(s)")), |b| {
                b.iter_custom(|iters| mixed(&t, ks, threads, iters))
            });
            let s = t.stats();
            assert!(s.hits > 0 && s.stores == s.probes, "{s:?}");
        }
    }
    g.finish();
}

fn bench(c: &mut Criterion) {
    single_thread(c, "locked", &TranspositionTable::new(MIB));
    single_thread(c, "local (no locks)", &LocalTable::new(MIB));
    contended(c);
}

// criterion_group! defines an undocumented public function; inside a private module it needs no docs.
mod group {
    criterion::criterion_group!(benches, super::bench);
}
use group::benches;
criterion_main!(benches);
