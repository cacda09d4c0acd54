//! Behaviour of the tables through their public API: values and bounds as stored, the
//! replacement policy against a slow model, clear and resize, statistics, and concurrent use
//! without torn or wrong entries.

use othello_rules::random::play_random;
use othello_rules::{BoardSize, Move, Position};
use othello_table::{Bound, Entry, LocalTable, Table, TableStats, TranspositionTable};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// The board size of the positions these tests store.
const E: BoardSize = BoardSize::Eight;

const BOUNDS: [Bound; 3] = [Bound::Exact, Bound::Lower, Bound::Upper];

/// Side-relative keys of positions from seeded random play (8x8), distinct.
fn positions(n: usize, seed: u64) -> Vec<(u64, u64)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    while out.len() < n {
        let plies = rng.random_range(0..60);
        let pos = play_random(&Position::start(), plies, &mut rng);
        let key = (pos.player().0, pos.opponent().0);
        if seen.insert(key) {
            out.push(key);
        }
    }
    out
}

fn random_entry(rng: &mut SmallRng) -> (u8, i16, Bound, Option<Move>) {
    let mv = Move::from_u8(rng.random_range(0..=65)); // 65 decodes to None
    (rng.random(), rng.random(), BOUNDS[rng.random_range(0..3)], mv)
}

#[test]
fn store_then_probe_returns_what_was_stored() {
    let keys = positions(2000, 1);
    let tt = TranspositionTable::new(16);
    let mut rng = SmallRng::seed_from_u64(2);
    let mut model = HashMap::new();
    for &(p, o) in &keys {
        let (d, s, b, m) = random_entry(&mut rng);
        tt.store(E, p, o, d, s, b, m);
        model.insert(
            (p, o),
            Entry {
                depth: d,
                score: s,
                bound: b,
                best_move: m,
                generation: 0,
            },
        );
    }
    let mut hits = 0;
    for &(p, o) in &keys {
        // 2000 keys over 43690 buckets of 4: a bucket overflowing is the only way to miss.
        if let Some(e) = tt.probe(E, p, o) {
            assert_eq!(e, model[&(p, o)]);
            hits += 1;
        }
        // The same discs with the other side to move were never stored (unless they were).
        if let Some(e) = tt.probe(E, o, p) {
            assert_eq!(Some(&e), model.get(&(o, p)));
        }
    }
    assert!(hits >= 1990, "{hits} hits of 2000");
    for b in BOUNDS {
        let (p, o) = keys[0];
        tt.store(E, p, o, 3, -1234, b, None);
        let e = tt.probe(E, p, o).unwrap();
        assert_eq!((e.bound, e.score, e.depth), (b, -1234, 3));
    }
}

/// The replacement policy written the slow, obvious way, for a table of one bucket.
#[derive(Default)]
struct ModelBucket {
    slots: Vec<((u64, u64), Entry)>,
    generation: u8,
}

impl ModelBucket {
    fn store(&mut self, key: (u64, u64), d: u8, s: i16, b: Bound, m: Option<Move>) -> bool {
        let mut e = Entry {
            depth: d,
            score: s,
            bound: b,
            best_move: m,
            generation: self.generation,
        };
        if let Some(slot) = self.slots.iter_mut().find(|(k, _)| *k == key) {
            if m.is_none() {
                e.best_move = slot.1.best_move;
            }
            slot.1 = e;
            return false;
        }
        if self.slots.len() < 4 {
            self.slots.push((key, e));
            return false;
        }
        let g = self.generation;
        let victim = (0..4)
            .filter(|&i| self.slots[i].1.generation != g)
            .min_by_key(|&i| (self.slots[i].1.depth, i))
            .or_else(|| (0..4).min_by_key(|&i| (self.slots[i].1.depth, i)))
            .unwrap();
        self.slots[victim] = (key, e);
        true
    }

    fn probe(&self, key: (u64, u64)) -> Option<Entry> {
        self.slots.iter().find(|(k, _)| *k == key).map(|(_, e)| *e)
    }
}

#[test]
fn replacement_policy_matches_the_model() {
    // A table of 0 MiB has one bucket, so every key collides.
    let keys = positions(10, 3);
    let mut rng = SmallRng::seed_from_u64(4);
    for round in 0..50 {
        let tt = TranspositionTable::new(0);
        assert_eq!(tt.capacity(), 4);
        let local = LocalTable::new(0);
        let mut model = ModelBucket::default();
        let mut expected = TableStats::default();
        for _ in 0..400 {
            let key = keys[rng.random_range(0..keys.len())];
            match rng.random_range(0..10) {
                0 if round % 2 == 0 => {
                    tt.new_search();
                    local.new_search();
                    model.generation = model.generation.wrapping_add(1);
                }
                1..=4 => {
                    // Few depths, so that ties and the generation rule both matter.
                    let d = rng.random_range(0..4);
                    let (_, s, b, m) = random_entry(&mut rng);
                    tt.store(E, key.0, key.1, d, s, b, m);
                    local.store(E, key.0, key.1, d, s, b, m);
                    expected.stores += 1;
                    expected.replacements += model.store(key, d, s, b, m) as u64;
                }
                _ => {
                    let want = model.probe(key);
                    assert_eq!(tt.probe(E, key.0, key.1), want);
                    assert_eq!(local.probe(E, key.0, key.1), want);
                    expected.probes += 1;
                    expected.hits += want.is_some() as u64;
                }
            }
        }
        assert_eq!(tt.stats(), expected);
        assert_eq!(local.stats(), expected);
    }
}

#[test]
fn deep_entries_survive_shallow_ones_and_old_generations_go_first() {
    let keys = positions(8, 5);
    let tt = TranspositionTable::new(0);
    for (i, &(p, o)) in keys[..4].iter().enumerate() {
        tt.store(E, p, o, 20 + i as u8, 0, Bound::Exact, None);
    }
    // Shallow entries of the same generation keep evicting each other, never the deep ones.
    for &(p, o) in &keys[4..] {
        tt.store(E, p, o, 1, 0, Bound::Lower, None);
    }
    let present: Vec<bool> = keys.iter().map(|&(p, o)| tt.probe(E, p, o).is_some()).collect();
    assert_eq!(present, [false, true, true, true, false, false, false, true]);
    // After a new search old entries go first, the shallowest old one (key 7) before the deep ones.
    tt.new_search();
    assert_eq!(tt.generation(), 1);
    tt.store(E, keys[4].0, keys[4].1, 0, 0, Bound::Upper, None);
    tt.store(E, keys[5].0, keys[5].1, 0, 0, Bound::Upper, None);
    let present: Vec<bool> = keys.iter().map(|&(p, o)| tt.probe(E, p, o).is_some()).collect();
    assert_eq!(present, [false, false, true, true, true, true, false, false]);
    assert_eq!(tt.stats().replacements, 6);
}

#[test]
fn clear_and_resize_empty_the_table() {
    let keys = positions(500, 6);
    let mut tt = TranspositionTable::new(1);
    assert_eq!(tt.mib(), 1);
    assert_eq!(tt.capacity(), 4 * 8192);
    let fill = |tt: &TranspositionTable| {
        for (i, &(p, o)) in keys.iter().enumerate() {
            tt.store(E, p, o, 1, i as i16, Bound::Exact, None);
        }
    };
    let count = |tt: &TranspositionTable| keys.iter().filter(|&&(p, o)| tt.probe(E, p, o).is_some()).count();
    fill(&tt);
    assert_eq!(count(&tt), 500);
    tt.new_search();
    tt.clear();
    assert_eq!(count(&tt), 0);
    assert_eq!(tt.stats().stores, 500, "clear keeps the statistics");
    assert_eq!(tt.generation(), 1, "clear keeps the generation");
    fill(&tt);
    tt.resize(2);
    assert_eq!((tt.mib(), tt.capacity(), tt.generation()), (2, 4 * 16384, 0));
    assert_eq!(tt.stats(), TableStats::default());
    assert_eq!(count(&tt), 0);
    fill(&tt);
    assert_eq!(count(&tt), 500);
    tt.reset_stats();
    assert_eq!(tt.stats(), TableStats::default());
    tt.resize(0);
    assert_eq!(tt.capacity(), 4);

    let mut local = LocalTable::new(1);
    local.store(E, 1, 2, 3, 4, Bound::Lower, None);
    local.clear();
    assert_eq!(local.probe(E, 1, 2), None);
    local.resize(0);
    assert_eq!((local.capacity(), local.mib()), (4, 0));
}

/// The contents every thread stores for a key: a function of both halves of the key, so a
/// mixed or torn entry (key of one store, data of another) cannot pass the check.
fn contents(p: u64, o: u64) -> (u8, i16, Bound, Option<Move>) {
    let h = othello_rules::hash::mix64(p.rotate_left(17) ^ o.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    (
        h as u8,
        (h >> 8) as i16,
        BOUNDS[(h >> 24) as usize % 3],
        Move::from_u8((h >> 32) as u8 % 66),
    )
}

/// `threads` threads store and probe `keys` at random for `time`; one of them also starts new
/// searches and, if `chaos`, clears the table now and then. Every hit is checked. Each thread
/// watches the clock itself, so one failing thread cannot leave the others running.
fn hammer(tt: &TranspositionTable, keys: &[(u64, u64)], threads: usize, time: Duration, chaos: bool) -> u64 {
    let hits = AtomicU64::new(0);
    let start = Instant::now();
    thread::scope(|s| {
        for t in 0..threads {
            let hits = &hits;
            s.spawn(move || {
                let mut rng = SmallRng::seed_from_u64(100 + t as u64);
                let mut my_hits = 0;
                for i in 1u64.. {
                    let (p, o) = keys[rng.random_range(0..keys.len())];
                    let (d, s, b, m) = contents(p, o);
                    if rng.random_range(0..2) == 0 {
                        tt.store(E, p, o, d, s, b, m);
                    } else if let Some(e) = tt.probe(E, p, o) {
                        assert_eq!(
                            (e.depth, e.score, e.bound, e.best_move),
                            (d, s, b, m),
                            "wrong entry for {p:x} {o:x}"
                        );
                        my_hits += 1;
                    }
                    if i.is_multiple_of(4096) {
                        if t == 0 {
                            if chaos && i.is_multiple_of(1 << 16) {
                                tt.clear();
                            }
                            tt.new_search();
                        }
                        if start.elapsed() > time {
                            break;
                        }
                    }
                }
                hits.fetch_add(my_hits, Ordering::Relaxed);
            });
        }
    });
    hits.into_inner()
}

#[test]
fn many_threads_never_see_torn_or_wrong_entries() {
    // Keys that differ in one half only and share bits, so torn halves would form other keys.
    let mut keys: Vec<(u64, u64)> = positions(3000, 7);
    let base: Vec<(u64, u64)> = keys[..40].to_vec();
    for &(p, _) in &base {
        for &(_, o) in &base {
            keys.push((p, o));
        }
    }
    let time = Duration::from_millis(700);
    // One bucket: every store competes for four slots under a single lock.
    let tiny = TranspositionTable::new(0);
    assert!(hammer(&tiny, &keys[..12], 4, time, false) > 1000);
    // One bucket, 16 keys that are all the pairs of 4 players and 4 opponents: a slot read
    // while it is rewritten (one key's player, another's opponent) forms another stored key,
    // whose contents differ, so a probe that used a torn slot would fail the check.
    let b = &base;
    let cross: Vec<(u64, u64)> = (0..4).flat_map(|i| (0..4).map(move |j| (b[i].0, b[j].1))).collect();
    let one = TranspositionTable::new(0);
    let h = hammer(&one, &cross, 4, time, false);
    assert!(h > 1000 && one.stats().hits == h, "{h} hits, {:?}", one.stats());
    // 8192 buckets, 1024 stripes, 4600 keys plus heavy reuse: many buckets overflow.
    let small = TranspositionTable::new(1);
    let h = hammer(&small, &keys, 6, time, false);
    assert!(h > 10_000, "{h} hits");
    let s = small.stats();
    assert!(s.replacements > 0 && s.hits == h && s.stores > 10_000, "{s:?}");
    // The same with concurrent clears.
    let chaos = TranspositionTable::new(1);
    assert!(hammer(&chaos, &keys, 4, time, true) > 1000);
}

#[test]
fn board_size_is_part_of_the_key_in_both_tables() {
    // 6x6 and 8x8 (and 4x4) positions can have the same bitboards: a 6x6 board lives in the
    // corner of the 8x8 grid. One table holds them side by side and never crosses them.
    fn check<T: Table>(t: &T) {
        let six = Position::start_of(BoardSize::Six);
        let (p, o) = (six.player().0, six.opponent().0);
        let sizes = [BoardSize::Four, BoardSize::Six, BoardSize::Eight];
        for size in sizes {
            assert!(t.probe(size, p, o).is_none());
        }
        t.store(BoardSize::Six, p, o, 6, 66, Bound::Exact, "a1".parse().ok());
        assert_eq!(t.probe(BoardSize::Six, p, o).unwrap().score, 66);
        assert!(t.probe(BoardSize::Eight, p, o).is_none(), "no 8x8 hit for a 6x6 entry");
        assert!(t.probe(BoardSize::Four, p, o).is_none());
        t.store(BoardSize::Eight, p, o, 8, 88, Bound::Lower, None);
        // Both live side by side; the 8x8 store did not overwrite (or take the move of) the 6x6.
        let (e6, e8) = (
            t.probe(BoardSize::Six, p, o).unwrap(),
            t.probe(BoardSize::Eight, p, o).unwrap(),
        );
        assert_eq!((e6.score, e6.depth, e6.bound), (66, 6, Bound::Exact));
        assert_eq!(e6.best_move, "a1".parse().ok());
        assert_eq!(
            (e8.score, e8.depth, e8.bound, e8.best_move),
            (88, 8, Bound::Lower, None)
        );
        // Through a view per size, the same.
        assert_eq!(t.for_size(BoardSize::Six).probe(p, o).unwrap().score, 66);
        assert_eq!(t.for_size(BoardSize::Eight).probe(p, o).unwrap().score, 88);
        t.for_size(BoardSize::Four).store(p, o, 4, 44, Bound::Upper, None);
        let scores: Vec<i16> = sizes.iter().map(|&s| t.probe(s, p, o).unwrap().score).collect();
        assert_eq!(scores, [44, 66, 88]);
        // Many positions of each size with the same bitboards, no cross hits.
        for (i, &(p, o)) in positions(300, 9).iter().enumerate() {
            t.store(BoardSize::Six, p, o, 1, i as i16, Bound::Exact, None);
            assert_eq!(t.probe(BoardSize::Eight, p, o).map(|e| e.score), None);
            t.store(BoardSize::Eight, p, o, 1, -(i as i16), Bound::Exact, None);
            if let (Some(a), Some(b)) = (t.probe(BoardSize::Six, p, o), t.probe(BoardSize::Eight, p, o)) {
                assert_eq!((a.score, b.score), (i as i16, -(i as i16)));
            }
        }
    }
    check(&TranspositionTable::new(4));
    check(&LocalTable::new(4));
}

#[test]
fn a_table_probed_through_the_trait_from_several_threads() {
    // Generic code over `Table` with a table several threads share: each thread stores its own
    // positions and probes everyone's; every hit is what its writer stored.
    fn run<T: Table + Sync>(t: &T) -> u64 {
        let keys = positions(400, 11);
        let hits = AtomicU64::new(0);
        thread::scope(|s| {
            for k in 0..4usize {
                let (keys, hits) = (&keys, &hits);
                s.spawn(move || {
                    for round in 0..20 {
                        for (i, &(p, o)) in keys.iter().enumerate() {
                            if i % 4 == k && round == 0 {
                                let (d, sc, b, m) = contents(p, o);
                                t.store(E, p, o, d, sc, b, m);
                            } else if let Some(e) = t.probe(E, p, o) {
                                let (d, sc, b, m) = contents(p, o);
                                assert_eq!((e.depth, e.score, e.bound, e.best_move), (d, sc, b, m));
                                hits.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    }
                });
            }
        });
        hits.into_inner()
    }
    let tt = TranspositionTable::new(4);
    assert!(tt.as_shared().is_some() && LocalTable::new(0).as_shared().is_none());
    assert!(run(&tt) > 0);
    assert_eq!(Table::stats(&tt).stores, 400);
}

/// The 8x8 probe of every key of `keys`, in order.
fn all_probes<T: Table>(t: &T, keys: &[(u64, u64)]) -> Vec<Option<Entry>> {
    keys.iter().map(|&(p, o)| t.probe(E, p, o)).collect()
}

/// A prefetch is a hint: after prefetching every stored position and as many absent ones, in
/// both tables, directly, through the trait and through a board view, every probe answers as
/// before and no counter moved (the probes below are counted the same either way).
fn prefetch_changes_nothing<T: Table>(t: &T) {
    let keys = positions(600, 0x7072_6566);
    let mut rng = SmallRng::seed_from_u64(3);
    for &(p, o) in &keys[..300] {
        let (d, s, b, m) = random_entry(&mut rng);
        t.store(E, p, o, d, s, b, m);
    }
    let before = all_probes(t, &keys);
    assert_eq!(before.iter().filter(|e| e.is_some()).count(), 300);
    let stats = t.stats();
    for &(p, o) in &keys {
        t.prefetch(p, o);
        t.prefetch(o, p);
        t.for_size(E).prefetch(p, o);
        let moves = othello_rules::movegen::legal_moves(p, o);
        t.for_size(E)
            .prefetch_children(p, o, moves, othello_rules::movegen::flips);
    }
    assert_eq!(t.stats(), stats);
    assert_eq!(all_probes(t, &keys), before);
}

#[test]
fn prefetch_is_only_a_hint() {
    prefetch_changes_nothing(&TranspositionTable::new(1));
    prefetch_changes_nothing(&LocalTable::new(1));
    let tt = TranspositionTable::new(1);
    // The inherent methods, as the trait's.
    tt.prefetch(1, 2);
    LocalTable::new(1).prefetch(1, 2);
    assert_eq!(tt.stats(), TableStats::default());
}
