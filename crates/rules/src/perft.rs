//! Perft: counting the leaves of the game tree to a fixed depth.
//!
//! Convention (the published table's): every move is a ply, a forced pass included; a game that
//! ends before the depth counts as one leaf; depth 0 counts 1. From the 8x8 start this gives
//! 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, ...
//!
//! Modes: plain [`perft`] (bulk counting at the last ply: the number of legal moves, or 1 for a
//! pass or a finished game; with AVX-512 the last two plies are counted eight positions at a
//! time, see `movegen::x86::perft3_avx512_icl`; with the other back ends the last three plies
//! are counted in stages over a buffer of grandchildren, whose moves the avx2 and bmi2 back ends
//! count four at a time by `movegen::x86::leaves1_avx2`), [`divide`] (a count per root move), [`perft_hashed`] (a table
//! keyed by the full position and remaining depth, so it cannot give a false hit, and below it a
//! small cache per thread for the subtrees of three plies) and
//! [`perft_parallel`] (tasks split a few plies below the root, shared by `threads` workers,
//! which share one lock-free table).

use crate::movegen::Backend;
use crate::movegen::{self, portable};
use crate::{Move, Position, canonical};
use std::sync::atomic::{AtomicUsize, Ordering};

#[cfg(all(test, loom))]
mod loom_model;
mod table;

pub use table::PerftTable;

/// Subtrees shallower than this are counted directly, not cached.
const HASH_MIN_DEPTH: u32 = 4;

// The count two plies down from a position with legal moves `moves`, one move at a time: for
// each move, the child's number of moves, or 1 when it has none (a pass or a finished game,
// one leaf either way). Compiled per back end as the recursion below.
macro_rules! two_impl {
    ($(#[$attr:meta])* $two:ident, $moves:path, $flips:path) => {
        $(#[$attr])*
        fn $two(p: u64, o: u64, moves: u64, mask: u64) -> u64 {
            let mut n = 0;
            let mut rest = moves;
            while rest != 0 {
                let sq = rest.trailing_zeros();
                rest &= rest - 1;
                let f = $flips(p, o, sq);
                let m = $moves(o ^ f, p ^ f ^ (1 << sq)) & mask;
                n += if m == 0 { 1 } else { m.count_ones() as u64 };
            }
            n
        }
    };
}

two_impl!(
    #[inline]
    two_portable,
    portable::legal_moves,
    portable::flips
);

// The AVX2 back end's two plies keep each child in vector registers (`perft2_avx2`).
#[cfg(target_arch = "x86_64")]
use movegen::x86::perft2_avx2 as two_avx2;

#[cfg(target_arch = "x86_64")]
two_impl!(
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    #[inline]
    two_bmi2,
    movegen::x86::legal_moves_avx2,
    movegen::x86::flips_pext
);

// The count three plies down from a position with legal moves `moves`: each child's two-ply
// count (the generic form of `perft3_avx512_icl`).
macro_rules! three_impl {
    ($(#[$attr:meta])* $three:ident, $moves:path, $flips:path, $two:path) => {
        $(#[$attr])*
        fn $three(p: u64, o: u64, moves: u64, mask: u64, _scratch: &mut Scratch) -> u64 {
            let mut n = 0;
            let mut rest = moves;
            while rest != 0 {
                let sq = rest.trailing_zeros();
                rest &= rest - 1;
                let f = $flips(p, o, sq);
                let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
                let m = $moves(np, no) & mask;
                n += if m != 0 {
                    $two(np, no, m, mask)
                } else {
                    // A pass: the other side's moves below it, or one leaf if none.
                    ($moves(no, np) & mask).count_ones().max(1) as u64
                };
            }
            n
        }
    };
}

// The count three plies down, in stages over whole batches rather than one subtree at a time:
// the children (flips), then their moves, then the grandchildren of all of them (flips) into one
// buffer, then the grandchildren's move counts in one flat loop. Each stage's loop has short,
// independent iterations, so the CPU overlaps many of them, and the last loop runs for a whole
// batch (about 80 grandchildren) instead of ending after each child's ten or so; `$count`
// counts them four at a time (`leaves1_avx2`). The children's flips are `$flips`, the
// grandchildren's `$leaf_flips`: with the avx2 and bmi2 back ends the flip by ray masks
// (`flips_avx2_rays`), about 40 instructions a grandchild with its loop where the AVX2 fill took
// about 45 and `pext` about 52 (the bmi2 back end alternated the two: perft(11) 635 -> 578 M
// instructions, plain perft(11) 4-6% less time; the avx2 back end 613 -> 570 M, 13% less time).
macro_rules! three_flat_impl {
    ($(#[$attr:meta])* $three:ident, $count:path, $kid_moves:path, $moves:path, $flips:path, $leaf_flips:path) => {
        $(#[$attr])*
        fn $three(p: u64, o: u64, moves: u64, mask: u64, scratch: &mut Scratch) -> u64 {
            let Scratch { player: bp, opponent: bo, kid_player: kp, kid_opponent: ko, kid_moves: km, .. } = scratch;
            let mut len = 0;
            let mut rest = moves;
            while rest != 0 {
                let sq = rest.trailing_zeros();
                rest &= rest - 1;
                let f = $flips(p, o, sq);
                kp[len & 63] = o ^ f;
                ko[len & 63] = p ^ f ^ (1 << sq);
                len += 1;
            }
            $kid_moves(kp, ko, km, len, mask);
            let mut n = 0;
            let mut blen = 0;
            for ((&np, &no), &m) in kp[..len].iter().zip(&ko[..len]).zip(&km[..len]) {
                if m == 0 {
                    // A pass: the other side's moves below it, or one leaf if none.
                    n += ($moves(no, np) & mask).count_ones().max(1) as u64;
                    continue;
                }
                if blen > BATCH - 64 {
                    n += $count(&bp[..blen], &bo[..blen], mask);
                    blen = 0;
                }
                let mut rest = m;
                while rest != 0 {
                    let sq = rest.trailing_zeros();
                    rest &= rest - 1;
                    let f = $leaf_flips(np, no, sq);
                    bp[blen & (BATCH - 1)] = no ^ f;
                    bo[blen & (BATCH - 1)] = np ^ f ^ (1 << sq);
                    blen += 1;
                    if rest == 0 {
                        break;
                    }
                    let sq = rest.trailing_zeros();
                    rest &= rest - 1;
                    let f = $leaf_flips(np, no, sq);
                    bp[blen & (BATCH - 1)] = no ^ f;
                    bo[blen & (BATCH - 1)] = np ^ f ^ (1 << sq);
                    blen += 1;
                }
            }
            n + $count(&bp[..blen], &bo[..blen], mask)
        }
    };
}

/// Grandchildren buffered by the staged three-ply count (a power of two, at least 128: a
/// child adds at most 64).
const BATCH: usize = 256;

/// The staged three-ply count's buffer of grandchildren (side to move's discs, the other
/// side's), made once per count and lent down the recursion (zeroing it at each call cost 4%).
struct Scratch {
    /// The children: side to move's discs, the other side's, moves.
    kid_player: [u64; 64],
    kid_opponent: [u64; 64],
    kid_moves: [u64; 64],
    player: [u64; BATCH],
    opponent: [u64; BATCH],
    /// The hashed count's cache of three-ply subtrees (empty for the plain count).
    near: NearCache,
}

/// A small cache, private to one thread, of the counts of subtrees with three plies left (the
/// hashed count's main table holds deeper ones only: see `HASH_MIN_DEPTH`). Direct-mapped,
/// keyed by the exact position (no symmetry), sized to stay in the core's L2 cache: it catches
/// the transpositions between nearby positions of the walk (the same three plies below two
/// cousins) without a trip to memory. On hashed perft(13) from the start it answered 6.8% of
/// the three-ply subtrees (an unbounded one would answer 15%).
struct NearCache {
    /// `(player, opponent, count)`; a never-written slot holds `(0, 0, 0)`, which no position
    /// below a move matches (the side that moved has a disc).
    entries: Vec<(u64, u64, u64)>,
    /// Probes answered (tests check that the cache serves).
    hits: u64,
}

/// Entries of the [`NearCache`] (a power of two): 8192 of 24 bytes, 192 KiB.
const NEAR_ENTRIES: usize = 1 << 13;

impl NearCache {
    #[inline]
    fn slot(p: u64, o: u64) -> usize {
        ((p ^ o.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 51) as usize & (NEAR_ENTRIES - 1)
    }
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            kid_player: [0; 64],
            kid_opponent: [0; 64],
            kid_moves: [0; 64],
            player: [0; BATCH],
            opponent: [0; BATCH],
            near: NearCache {
                entries: Vec::new(),
                hits: 0,
            },
        }
    }
}

// The recursion, written once and compiled twice: for the portable code and, on x86-64, with
// the AVX2/BMI features enabled so the fast move generator inlines into it.
macro_rules! perft_impl {
    ($(#[$attr:meta])* $plain:ident, $hashed:ident, $hashed_keyed:ident, $moves:path, $flips:path, $two:path, $three:path) => {
        $(#[$attr])*
        fn $plain(p: u64, o: u64, mask: u64, depth: u32, s: &mut Scratch) -> u64 {
            let moves = $moves(p, o) & mask;
            if moves == 0 {
                // A pass (a ply) or a finished game (one leaf).
                if depth == 1 || $moves(o, p) & mask == 0 {
                    return 1;
                }
                return $plain(o, p, mask, depth - 1, s);
            }
            if depth == 1 {
                return moves.count_ones() as u64;
            }
            if depth == 2 {
                return $two(p, o, moves, mask);
            }
            if depth == 3 {
                return $three(p, o, moves, mask, s);
            }
            let mut n = 0;
            let mut rest = moves;
            while rest != 0 {
                let sq = rest.trailing_zeros();
                rest &= rest - 1;
                let f = $flips(p, o, sq);
                n += $plain(o ^ f, p ^ f ^ (1 << sq), mask, depth - 1, s);
            }
            n
        }

        $(#[$attr])*
        fn $hashed(p: u64, o: u64, mask: u64, depth: u32, table: &PerftTable, s: &mut Scratch) -> u64 {
            if depth < HASH_MIN_DEPTH {
                return $plain(p, o, mask, depth, s);
            }
            let (cp, co) = canonical(p, o, table.size);
            $hashed_keyed(p, o, cp, co, mask, depth, table, s)
        }

        /// `$hashed` with the table key `(cp, co)` of `(p, o)` already computed: the children's
        /// keys are computed and their buckets prefetched before the first child is counted,
        /// so the memory latency of each probe overlaps the counting of its elder siblings.
        // The position, its key, the board and depth, the table and the buffer: all needed.
        #[allow(clippy::too_many_arguments)]
        $(#[$attr])*
        fn $hashed_keyed(
            p: u64,
            o: u64,
            cp: u64,
            co: u64,
            mask: u64,
            depth: u32,
            table: &PerftTable,
            s: &mut Scratch,
        ) -> u64 {
            if let Some(n) = table.probe(cp, co, depth) {
                return n;
            }
            let moves = $moves(p, o) & mask;
            let n = if moves == 0 {
                if $moves(o, p) & mask == 0 { 1 } else { $hashed(o, p, mask, depth - 1, table, s) }
            } else if depth > HASH_MIN_DEPTH {
                let mut kids = [(0u64, 0u64, 0u64, 0u64); 64];
                let mut len = 0;
                let mut rest = moves;
                while rest != 0 {
                    let sq = rest.trailing_zeros();
                    rest &= rest - 1;
                    let f = $flips(p, o, sq);
                    let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
                    let (kp, ko) = canonical(np, no, table.size);
                    table.prefetch(kp, ko);
                    kids[len] = (np, no, kp, ko);
                    len += 1;
                }
                let mut n = 0;
                for &(np, no, kp, ko) in &kids[..len] {
                    n += $hashed_keyed(np, no, kp, ko, mask, depth - 1, table, s);
                }
                n
            } else {
                // The children have three plies left: counted plain, through the near cache
                // when there is one.
                let mut n = 0;
                let mut rest = moves;
                while rest != 0 {
                    let sq = rest.trailing_zeros();
                    rest &= rest - 1;
                    let f = $flips(p, o, sq);
                    let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
                    if s.near.entries.is_empty() {
                        n += $plain(np, no, mask, depth - 1, s);
                        continue;
                    }
                    let i = NearCache::slot(np, no);
                    let (ep, eo, count) = s.near.entries[i];
                    if ep == np && eo == no {
                        s.near.hits += 1;
                        n += count;
                    } else {
                        let count = $plain(np, no, mask, depth - 1, s);
                        s.near.entries[i] = (np, no, count);
                        n += count;
                    }
                }
                n
            };
            table.store(cp, co, depth, n);
            n
        }
    };
}

// One subtree at a time: the reference the staged counts are tested against.
three_impl!(
    #[cfg(test)]
    #[inline]
    three_portable,
    portable::legal_moves,
    portable::flips,
    two_portable
);

three_flat_impl!(
    #[inline]
    three_portable_flat,
    leaves1_portable,
    legal_moves_each_portable,
    portable::legal_moves,
    portable::flips,
    portable::flips
);

/// The legal moves within `mask` of the first `len` positions `(players[i], opponents[i])`,
/// into `moves` (see `movegen::x86::legal_moves4_avx2`), one at a time.
fn legal_moves_each_portable(players: &[u64; 64], opponents: &[u64; 64], moves: &mut [u64; 64], len: usize, mask: u64) {
    for ((m, &p), &o) in moves.iter_mut().zip(players).zip(opponents).take(len) {
        *m = portable::legal_moves(p, o) & mask;
    }
}

/// The leaves one ply below each position `(players[i], opponents[i])` (see
/// `movegen::x86::leaves1_avx2`), one at a time.
fn leaves1_portable(players: &[u64], opponents: &[u64], mask: u64) -> u64 {
    let mut n = 0;
    for (&p, &o) in players.iter().zip(opponents) {
        let m = portable::legal_moves(p, o) & mask;
        n += if m == 0 { 1 } else { m.count_ones() as u64 };
    }
    n
}

#[cfg(target_arch = "x86_64")]
three_flat_impl!(
    #[target_feature(enable = "avx2,bmi1,lzcnt,popcnt")]
    #[inline]
    three_avx2,
    movegen::x86::leaves1_avx2,
    movegen::x86::legal_moves4_avx2,
    movegen::x86::legal_moves_avx2,
    movegen::x86::flips_avx2_rays,
    movegen::x86::flips_avx2_rays
);

#[cfg(target_arch = "x86_64")]
three_flat_impl!(
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    #[inline]
    three_bmi2,
    movegen::x86::leaves1_avx2,
    movegen::x86::legal_moves4_avx2,
    movegen::x86::legal_moves_avx2,
    movegen::x86::flips_avx2_rays,
    movegen::x86::flips_avx2_rays
);

#[cfg(target_arch = "x86_64")]
three_impl!(
    #[target_feature(enable = "avx512f,avx512vl,avx512cd,avx2,bmi1,bmi2,lzcnt,popcnt")]
    #[inline]
    three_avx512,
    movegen::x86::legal_moves_avx512,
    movegen::x86::flips_avx512,
    movegen::x86::perft2_avx512
);

perft_impl!(
    plain_portable,
    hashed_portable,
    keyed_portable,
    portable::legal_moves,
    portable::flips,
    two_portable,
    three_portable_flat
);

#[cfg(target_arch = "x86_64")]
perft_impl!(
    #[target_feature(enable = "avx2,bmi1,lzcnt,popcnt")]
    plain_avx2,
    hashed_avx2,
    keyed_avx2,
    movegen::x86::legal_moves_avx2,
    movegen::x86::flips_avx2,
    two_avx2,
    three_avx2
);

#[cfg(target_arch = "x86_64")]
perft_impl!(
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    plain_bmi2,
    hashed_bmi2,
    keyed_bmi2,
    movegen::x86::legal_moves_avx2,
    movegen::x86::flips_pext,
    two_bmi2,
    three_bmi2
);

#[cfg(target_arch = "x86_64")]
perft_impl!(
    #[target_feature(enable = "avx512f,avx512vl,avx512cd,avx2,bmi1,bmi2,lzcnt,popcnt")]
    plain_avx512,
    hashed_avx512,
    keyed_avx512,
    movegen::x86::legal_moves_avx512,
    movegen::x86::flips_avx512,
    movegen::x86::perft2_avx512,
    three_avx512
);

// The three plies of the AVX-512 back end on CPUs with the newer extensions, in the shape the
// recursion calls (it needs no buffer).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512cd,avx512bw,avx512vbmi2,avx512vpopcntdq,avx2,bmi1,bmi2,lzcnt,popcnt")]
#[inline]
fn three_avx512icl(p: u64, o: u64, moves: u64, mask: u64, _scratch: &mut Scratch) -> u64 {
    movegen::x86::perft3_avx512_icl(p, o, moves, mask)
}

// The AVX-512 back end on CPUs with the newer extensions (see `perft2_avx512_icl`).
#[cfg(target_arch = "x86_64")]
perft_impl!(
    #[target_feature(
        enable = "avx512f,avx512vl,avx512cd,avx512bw,avx512vbmi2,avx512vpopcntdq,avx2,bmi1,bmi2,lzcnt,popcnt"
    )]
    plain_avx512icl,
    hashed_avx512icl,
    keyed_avx512icl,
    movegen::x86::legal_moves_avx512,
    movegen::x86::flips_avx512,
    movegen::x86::perft2_avx512_icl,
    three_avx512icl
);

fn run_plain(backend: Backend, p: u64, o: u64, mask: u64, depth: u32) -> u64 {
    debug_assert!(backend.supported());
    let mut s = Scratch::new();
    #[cfg(target_arch = "x86_64")]
    // SAFETY: every caller passes `movegen::backend()` (whose features were checked when it was
    // chosen) or a back end it checked with `Backend::supported`; each instantiation needs
    // exactly the features of its back end.
    unsafe {
        match backend {
            Backend::Avx2 => return plain_avx2(p, o, mask, depth, &mut s),
            Backend::Bmi2 => return plain_bmi2(p, o, mask, depth, &mut s),
            // The extensions were checked by `has_avx512_icl`.
            Backend::Avx512 if movegen::x86::has_avx512_icl() => return plain_avx512icl(p, o, mask, depth, &mut s),
            Backend::Avx512 => return plain_avx512(p, o, mask, depth, &mut s),
            Backend::Portable => {}
        }
    }
    plain_portable(p, o, mask, depth, &mut s)
}

/// A [`Scratch`] for the hashed count: with a near cache, for positions of one board size (a
/// count depends on the board's mask).
fn hashed_scratch() -> Box<Scratch> {
    let mut s = Box::new(Scratch::new());
    s.near.entries = vec![(0, 0, 0); NEAR_ENTRIES];
    s
}

/// The hashed count with the buffers `s` (from [`hashed_scratch`], or without a near cache),
/// whose near cache may hold the counts of earlier calls with the same board size: they stay
/// valid (the exact position, three plies).
fn run_hashed(backend: Backend, p: u64, o: u64, mask: u64, depth: u32, table: &PerftTable, s: &mut Scratch) -> u64 {
    debug_assert!(backend.supported());
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as in `run_plain`.
    unsafe {
        match backend {
            Backend::Avx2 => return hashed_avx2(p, o, mask, depth, table, s),
            Backend::Bmi2 => return hashed_bmi2(p, o, mask, depth, table, s),
            Backend::Avx512 if movegen::x86::has_avx512_icl() => {
                return hashed_avx512icl(p, o, mask, depth, table, s);
            }
            Backend::Avx512 => return hashed_avx512(p, o, mask, depth, table, s),
            Backend::Portable => {}
        }
    }
    hashed_portable(p, o, mask, depth, table, s)
}

/// The number of leaves `depth` plies below `pos` (see the module docs for the convention).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_with(movegen::backend(), pos, depth).expect("the chosen back end runs on this CPU")
}

/// Perft with the back end `backend`, or `None` when the CPU cannot run it (tests and
/// benchmarks compare them).
pub fn perft_with(backend: Backend, pos: &Position, depth: u32) -> Option<u64> {
    if !backend.supported() {
        return None;
    }
    if depth == 0 {
        return Some(1);
    }
    Some(run_plain(
        backend,
        pos.player().0,
        pos.opponent().0,
        pos.size().mask().0,
        depth,
    ))
}

/// Perft with the portable move generator, whatever the CPU (for comparisons and tests).
pub fn perft_portable(pos: &Position, depth: u32) -> u64 {
    perft_with(Backend::Portable, pos, depth).expect("the portable code runs everywhere")
}

/// Perft with a cache of about `hash_mib` MiB keyed by the full position.
pub fn perft_hashed(pos: &Position, depth: u32, hash_mib: usize) -> u64 {
    perft_hashed_in(pos, depth, &PerftTable::new(hash_mib, pos.size()))
}

/// Perft with the table `table` (made for `pos`'s board size), which keeps its entries from
/// earlier calls: they stay valid, because each is keyed by the full position and the depth
/// left below it. Counting depths 1 to N into one table is how `othello perft --hash` runs.
///
/// # Panics
/// If `table` was made for another board size.
pub fn perft_hashed_in(pos: &Position, depth: u32, table: &PerftTable) -> u64 {
    assert_eq!(table.size, pos.size(), "perft table made for another board size");
    if depth == 0 {
        return 1;
    }
    run_hashed(
        movegen::backend(),
        pos.player().0,
        pos.opponent().0,
        pos.size().mask().0,
        depth,
        table,
        &mut hashed_scratch(),
    )
}

/// The perft count below each root move (a single pass when the side to move must pass; empty
/// when the game is over or `depth` is 0).
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.moves()
        .into_iter()
        .map(|m| (m, perft(&pos.play_unchecked(m), depth - 1)))
        .collect()
}

/// Perft on `threads` threads (and one cache of `hash_mib` MiB shared by all of them when
/// `hash_mib > 0`). The positions a few plies below the root are the tasks; workers take them
/// in order from a shared counter.
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize, hash_mib: usize) -> u64 {
    let table = (hash_mib > 0).then(|| PerftTable::new(hash_mib, pos.size()));
    perft_parallel_in(pos, depth, threads, table.as_ref())
}

/// [`perft_parallel`] with the table `table` (made for `pos`'s board size; see
/// [`perft_hashed_in`]), or none.
///
/// # Panics
/// If `table` was made for another board size.
pub fn perft_parallel_in(pos: &Position, depth: u32, threads: usize, table: Option<&PerftTable>) -> u64 {
    if let Some(t) = table {
        assert_eq!(t.size, pos.size(), "perft table made for another board size");
    }
    let threads = threads.max(1);
    if depth == 0 {
        return 1;
    }
    // Split deep enough for a few dozen tasks per thread, leaving at least 3 plies to count.
    let mut split = 0;
    let mut tasks = vec![*pos];
    let mut leaves = 0u64;
    while split + 3 < depth && tasks.len() < 32 * threads {
        let mut next = Vec::with_capacity(tasks.len() * 8);
        for t in &tasks {
            let moves = t.moves();
            if moves.is_empty() {
                leaves += 1; // the game ended above the depth: one leaf
            }
            next.extend(moves.into_iter().map(|m| t.play_unchecked(m)));
        }
        tasks = next;
        split += 1;
    }
    let remaining = depth - split;
    let next = AtomicUsize::new(0);
    let backend = movegen::backend();
    let total: u64 = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut sum = 0u64;
                    // One near cache per worker, kept from task to task.
                    let mut scratch = table.map(|_| hashed_scratch());
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(t) = tasks.get(i) else { break };
                        let (p, o, mask) = (t.player().0, t.opponent().0, t.size().mask().0);
                        sum += match (table, scratch.as_deref_mut()) {
                            (Some(table), Some(s)) => run_hashed(backend, p, o, mask, remaining, table, s),
                            _ => run_plain(backend, p, o, mask, remaining),
                        };
                    }
                    sum
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("perft worker panicked"))
            .sum()
    });
    total + leaves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardSize;

    /// `pos` after a move picked by a xorshift step of `seed` (the random play of the tests
    /// below). `pos` must have a move (a pass included).
    fn random_move(pos: &Position, seed: &mut u64) -> Position {
        let all = pos.moves();
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        pos.play_unchecked(all[(*seed % all.len() as u64) as usize])
    }

    const PUBLISHED: [u64; 9] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];

    #[test]
    fn start_matches_published_table() {
        let start = Position::start();
        for (d, &n) in PUBLISHED.iter().enumerate() {
            let d = d as u32 + 1;
            assert_eq!(perft(&start, d), n, "depth {d}");
            assert_eq!(perft_portable(&start, d), n, "portable depth {d}");
        }
        assert_eq!(perft(&start, 0), 1);
    }

    #[test]
    fn modes_agree() {
        let start = Position::start();
        for d in 1..=8 {
            let n = perft(&start, d);
            assert_eq!(perft_hashed(&start, d, 1), n);
            assert_eq!(perft_parallel(&start, d, 3, 0), n);
            assert_eq!(perft_parallel(&start, d, 2, 2), n);
            assert_eq!(divide(&start, d).iter().map(|&(_, c)| c).sum::<u64>(), n);
        }
    }

    #[test]
    fn one_table_across_depths_and_threads() {
        let start = Position::start();
        let table = PerftTable::new(1, BoardSize::Eight);
        for d in 1..=9 {
            assert_eq!(
                perft_hashed_in(&start, d, &table),
                PUBLISHED[d as usize - 1],
                "depth {d}"
            );
        }
        // Entries of the runs above serve again, from other threads too.
        assert_eq!(perft_parallel_in(&start, 9, 2, Some(&table)), PUBLISHED[8]);
        assert_eq!(perft_parallel_in(&start, 8, 2, None), PUBLISHED[7]);
        let six = Position::start_of(BoardSize::Six);
        let small = PerftTable::new(1, BoardSize::Six);
        let n = perft(&six, 8);
        assert_eq!(perft_parallel_in(&six, 8, 3, Some(&small)), n);
        assert_eq!(perft_hashed_in(&six, 8, &small), n);
    }

    #[test]
    #[should_panic(expected = "another board size")]
    fn table_of_another_size_is_refused() {
        let table = PerftTable::new(1, BoardSize::Six);
        perft_hashed_in(&Position::start(), 5, &table);
    }

    /// The batched two- and three-ply counts of each back end against the one-move-at-a-time
    /// counts and the naive reference, on positions from seeded random play on every board
    /// size (up to 30 moves from one position, so batches of eight are full, partial and
    /// several; passes and finished games on the way).
    #[test]
    fn two_and_three_ply_counts_agree() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut checked = 0;
        for size in BoardSize::ALL {
            let mask = size.mask().0;
            for _game in 0..40 {
                let mut pos = Position::start_of(size);
                while !pos.is_game_over() {
                    let (p, o) = (pos.player().0, pos.opponent().0);
                    let moves = portable::legal_moves(p, o) & mask;
                    if moves != 0 {
                        let want = two_portable(p, o, moves, mask);
                        let want3 = three_portable(p, o, moves, mask, &mut Scratch::new());
                        assert_eq!(want, run_plain(Backend::Portable, p, o, mask, 2));
                        assert_eq!(want3, run_plain(Backend::Portable, p, o, mask, 3));
                        if checked % 16 == 0 {
                            assert_eq!(want3, crate::reference::perft(&pos, 3), "{pos}");
                        }
                        for b in Backend::ALL {
                            if b.supported() {
                                assert_eq!(run_plain(b, p, o, mask, 2), want, "{pos} {b:?}");
                                assert_eq!(run_plain(b, p, o, mask, 3), want3, "{pos} {b:?}");
                            }
                        }
                        #[cfg(target_arch = "x86_64")]
                        if Backend::Avx2.supported() {
                            // SAFETY: the AVX2 back end's features were just checked.
                            let n = unsafe { movegen::x86::perft2_avx2(p, o, moves, mask) };
                            assert_eq!(n, want, "{pos} perft2_avx2");
                        }
                        #[cfg(target_arch = "x86_64")]
                        if Backend::Avx512.supported() {
                            // SAFETY: AVX-512 F/VL/CD were just checked.
                            let n = unsafe { movegen::x86::perft2_avx512(p, o, moves, mask) };
                            assert_eq!(n, want, "{pos} perft2_avx512");
                        }
                        #[cfg(target_arch = "x86_64")]
                        if Backend::Avx512.supported() && movegen::x86::has_avx512_icl() {
                            // SAFETY: the extensions were just checked.
                            let n = unsafe { movegen::x86::perft2_avx512_icl(p, o, moves, mask) };
                            assert_eq!(n, want, "{pos} perft2_avx512_icl");
                            // SAFETY: as above.
                            let n = unsafe { movegen::x86::perft3_avx512_icl(p, o, moves, mask) };
                            assert_eq!(n, want3, "{pos} perft3_avx512_icl");
                        }
                        checked += 1;
                    }
                    pos = random_move(&pos, &mut seed);
                }
            }
        }
        assert!(checked > 3000, "{checked}");
    }

    /// The staged three-ply count on random dense boards (not from play: up to 30 moves with up
    /// to 30 each), so its buffer fills past a batch and is counted in several parts, against
    /// the one-subtree-at-a-time count and, on some, the naive reference.
    #[test]
    fn staged_three_ply_count_on_crowded_buffers() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mask = BoardSize::Eight.mask().0;
        let (mut big, mut checked) = (0, 0);
        while big < 30 {
            let (a, b, c) = (next(), next(), next());
            // A quarter of the squares the player's, three eighths the opponent's: about one
            // board in 300 then has more grandchildren than a batch holds.
            let p = a & !b;
            let o = b & !a | a & b & c;
            let moves = portable::legal_moves(p, o);
            if moves == 0 {
                continue;
            }
            let grandchildren: u32 = (0..64)
                .filter(|&sq| moves >> sq & 1 != 0)
                .map(|sq| {
                    let f = portable::flips(p, o, sq);
                    portable::legal_moves(o ^ f, p ^ f ^ (1 << sq)).count_ones()
                })
                .sum();
            let want = three_portable(p, o, moves, mask, &mut Scratch::new());
            for backend in Backend::ALL {
                if backend.supported() {
                    assert_eq!(run_plain(backend, p, o, mask, 3), want, "{p:#x} {o:#x} {backend:?}");
                }
            }
            if grandchildren as usize > BATCH {
                big += 1;
                if big % 10 == 0 {
                    let pos = Position::from_raw_unchecked(p, o, crate::Color::Black, BoardSize::Eight);
                    assert_eq!(crate::reference::perft(&pos, 3), want, "{pos}");
                }
            }
            checked += 1;
        }
        assert!(checked >= big, "{checked}");
    }

    /// `leaves1_avx2` against one position at a time, for every length up to 13 (full groups of
    /// four and every remainder) on positions from random play, passes and finished games
    /// among them.
    /// The shared lane-wise popcount (also the pattern evaluation's) equals `count_ones` per lane.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn popcount_epi64_avx2_counts_each_lane() {
        use std::arch::x86_64::{__m256i, _mm256_loadu_si256, _mm256_storeu_si256};
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for i in 0..2000 {
            let mut lanes = [0u64; 4];
            for (k, lane) in lanes.iter_mut().enumerate() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Sparse, dense, empty and full lanes as well as random ones.
                *lane = match (i + k) % 5 {
                    0 => seed & (seed >> 17) & (seed >> 33),
                    1 => seed | (seed >> 9),
                    2 => 0,
                    3 => u64::MAX,
                    _ => seed,
                };
            }
            let mut out = [0u64; 4];
            // SAFETY: AVX2 was detected above; the loads and stores read and write the two
            // 32-byte arrays.
            unsafe {
                let v = _mm256_loadu_si256(lanes.as_ptr().cast::<__m256i>());
                let c = crate::movegen::x86::popcount_epi64_avx2(v);
                _mm256_storeu_si256(out.as_mut_ptr().cast::<__m256i>(), c);
            }
            assert_eq!(out, lanes.map(|l| u64::from(l.count_ones())), "{lanes:x?}");
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn leaves1_avx2_counts_each_position() {
        if !Backend::Avx2.supported() {
            return;
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for size in BoardSize::ALL {
            let mut positions = Vec::new();
            for _game in 0..6 {
                let mut pos = Position::start_of(size);
                loop {
                    positions.push(pos);
                    if pos.is_game_over() {
                        break;
                    }
                    pos = random_move(&pos, &mut seed);
                }
            }
            let mask = size.mask().0;
            for len in 0..=13 {
                for group in positions.chunks(len.max(1)) {
                    let group = &group[..len.min(group.len())];
                    let ps: Vec<u64> = group.iter().map(|g| g.player().0).collect();
                    let os: Vec<u64> = group.iter().map(|g| g.opponent().0).collect();
                    let want: u64 = group
                        .iter()
                        .map(|g| crate::reference::legal_moves(g).0.count_ones().max(1) as u64)
                        .sum();
                    // SAFETY: the AVX2 back end's features were checked above.
                    let n = unsafe { movegen::x86::leaves1_avx2(&ps, &os, mask) };
                    assert_eq!(n, want, "{size:?} len {len}");
                }
            }
        }
    }

    /// The hashed count with its near cache of three-ply subtrees against the plain count, with
    /// every back end, on positions from seeded random play on every board size (one table and
    /// one near cache for all of them, as the workers keep theirs from task to task); the near
    /// cache must have answered some subtrees.
    #[test]
    fn near_cache_counts_match_the_plain_count() {
        let mut seed = 0x0123_4567_89ab_cdefu64;
        for size in BoardSize::ALL {
            let mask = size.mask().0;
            let depth = 6;
            for backend in Backend::ALL.into_iter().filter(|b| b.supported()) {
                let table = PerftTable::new(1, size);
                let mut s = hashed_scratch();
                let mut checked = 0;
                for _game in 0..2 {
                    let mut pos = Position::start_of(size);
                    while !pos.is_game_over() {
                        let (p, o) = (pos.player().0, pos.opponent().0);
                        let want = run_plain(backend, p, o, mask, depth);
                        let n = run_hashed(backend, p, o, mask, depth, &table, &mut s);
                        assert_eq!(n, want, "{pos} {backend:?}");
                        checked += 1;
                        pos = random_move(&pos, &mut seed);
                    }
                }
                assert!(
                    s.near.hits > 0,
                    "{size:?} {backend:?}: {checked} positions, no near hit"
                );
            }
        }
    }

    /// `legal_moves4_avx2` (the staged count's children's moves, four at a time) against the
    /// portable moves, for every length up to 64 (full groups of four and every remainder) on
    /// positions from random play on every board size, passes and finished games among them.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn legal_moves4_avx2_matches_one_at_a_time() {
        if !Backend::Avx2.supported() {
            return;
        }
        let mut seed = 0x5851_f42d_4c95_7f2du64;
        for size in BoardSize::ALL {
            let mask = size.mask().0;
            let (mut ps, mut os) = ([0u64; 64], [0u64; 64]);
            let mut filled = 0;
            while filled < 64 {
                let mut pos = Position::start_of(size);
                while filled < 64 && !pos.is_game_over() {
                    (ps[filled], os[filled]) = (pos.player().0, pos.opponent().0);
                    filled += 1;
                    pos = random_move(&pos, &mut seed);
                }
            }
            let mut want = [0u64; 64];
            legal_moves_each_portable(&ps, &os, &mut want, 64, mask);
            for len in 0..=64 {
                let mut got = [u64::MAX; 64];
                // SAFETY: AVX2 was checked above.
                unsafe { movegen::x86::legal_moves4_avx2(&ps, &os, &mut got, len, mask) };
                assert_eq!(got[..len], want[..len], "{size:?} len {len}");
                assert!(
                    got[len.next_multiple_of(4).min(64)..].iter().all(|&m| m == u64::MAX),
                    "{len}"
                );
            }
        }
    }

    #[test]
    fn four_by_four_depth_12() {
        let p = Position::start_of(BoardSize::Four);
        assert_eq!(perft(&p, 12), 57436);
        assert_eq!(perft_hashed(&p, 12, 1), 57436);
    }
}
