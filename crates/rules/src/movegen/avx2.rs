//! Flips of one move with AVX2: the eight directions in two 256-bit registers.
//!
//! The layout is the one of [`super::x86::legal_moves_avx2`]: four 64-bit lanes for the shifts
//! 1, 8, 9 and 7, each lane shifted left (the directions towards higher square indices) in one
//! register and right (towards lower ones) in the other. From the played square, a
//! parallel-prefix fill collects the run of opponent discs next to it in each direction (one
//! plain step, then two steps of twice the shift through pairs of opponent discs: runs of up to
//! six discs, the longest a line can hold). A direction's run flips only when the square just
//! past it holds a player disc: each lane is compared with zero once and cleared otherwise, and
//! the eight lanes are OR-ed together. No table, no bit scan: about thirty vector instructions.
//!
//! Wrap-around across the board's edge is prevented as in the move generator: for the
//! horizontal and diagonal directions the opponent discs of columns a and h are masked out, so
//! a run never includes them and a shift off the edge lands on a masked square (or, for the
//! vertical lanes, off the 64 bits).

// Used only by the x86-64 back ends: other architectures compile it unused.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// The opponent discs that may be part of a run, per lane (shifts 1, 8, 9, 7): not on
/// columns a and h, except for the vertical lane.
#[cfg(target_arch = "x86_64")]
const INNER: [u64; 4] = [
    0x7e7e_7e7e_7e7e_7e7e,
    u64::MAX,
    0x7e7e_7e7e_7e7e_7e7e,
    0x7e7e_7e7e_7e7e_7e7e,
];

/// The flips of the move on `sq`, left in every lane of the result (a broadcast), with the
/// broadcast `pp` (player) and `oo` (opponent) discs. The form a hot loop can keep in vector
/// registers; [`flips_avx2`] returns the `u64`.
///
/// # Safety
/// As [`flips_avx2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn flips_avx2_vec(pp: __m256i, oo: __m256i, sq: u32) -> __m256i {
    let shift = _mm256_set_epi64x(7, 9, 8, 1);
    let shift2 = _mm256_set_epi64x(14, 18, 16, 2);
    let inner = _mm256_set_epi64x(INNER[3] as i64, INNER[2] as i64, INNER[1] as i64, INNER[0] as i64);
    let x = _mm256_set1_epi64x((1u64 << (sq & 63)) as i64);
    let oo = _mm256_and_si256(oo, inner);
    let zero = _mm256_setzero_si256();
    // Pairs of opponent discs (a disc and its neighbour one shift back): a run grows through
    // them two squares at a time.
    let pl = _mm256_and_si256(oo, _mm256_sllv_epi64(oo, shift));
    let pr = _mm256_srlv_epi64(pl, shift);
    // Towards higher indices.
    let mut fl = _mm256_and_si256(oo, _mm256_sllv_epi64(x, shift));
    fl = _mm256_or_si256(fl, _mm256_and_si256(oo, _mm256_sllv_epi64(fl, shift)));
    fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, shift2)));
    fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, shift2)));
    // Towards lower indices.
    let mut fr = _mm256_and_si256(oo, _mm256_srlv_epi64(x, shift));
    fr = _mm256_or_si256(fr, _mm256_and_si256(oo, _mm256_srlv_epi64(fr, shift)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, shift2)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, shift2)));
    // The square past each run: a player disc there keeps the run (the other shifted squares
    // are opponent discs, never player ones), an empty square, an opponent disc of an edge
    // column or the board's end clears it.
    let keep_l = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_sllv_epi64(fl, shift), pp), zero);
    let keep_r = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_srlv_epi64(fr, shift), pp), zero);
    let f = _mm256_or_si256(_mm256_andnot_si256(keep_l, fl), _mm256_andnot_si256(keep_r, fr));
    // OR the four lanes into every lane.
    let f = _mm256_or_si256(f, _mm256_permute4x64_epi64(f, 0b01_00_11_10));
    _mm256_or_si256(f, _mm256_shuffle_epi32(f, 0b01_00_11_10))
}

/// [`super::flips`] with AVX2 (see the module docs).
///
/// # Safety
/// Outside a function with the same target features, call it only when the CPU supports AVX2
/// (see [`super::Backend::Avx2`] and [`super::Backend::supported`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn flips_avx2(p: u64, o: u64, sq: u32) -> u64 {
    let f = flips_avx2_vec(_mm256_set1_epi64x(p as i64), _mm256_set1_epi64x(o as i64), sq);
    _mm_cvtsi128_si64(_mm256_castsi256_si128(f)) as u64
}

/// The rays of one square for [`flips_avx2_rays_vec`]: the squares past it towards higher
/// indices (east, south-west, south, south-east: +1, +7, +8, +9) and towards lower ones (west,
/// north-east, north, north-west: -1, -7, -8, -9), one direction per 64-bit lane. 64 bytes,
/// one cache line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Rays {
    up: [u64; 4],
    down: [u64; 4],
}

/// `RAYS[sq]`: the rays of `sq` (from [`super::RAYS`], whose direction order they keep).
static RAYS: [Rays; 64] = rays(&super::make_rays());

const fn rays(all: &[[u64; 8]; 64]) -> [Rays; 64] {
    let mut out = [Rays {
        up: [0; 4],
        down: [0; 4],
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let r = &all[sq];
        out[sq] = Rays {
            up: [r[0], r[1], r[2], r[3]],
            down: [r[4], r[5], r[6], r[7]],
        };
        sq += 1;
    }
    out
}

/// The flips of the move on `sq` as four 64-bit lanes to be OR-ed together (one direction
/// towards higher indices and one towards lower ones per lane), with the broadcast `pp`
/// (player) and `oo` (opponent) discs: the flip by ray masks. Each lane holds the square's
/// exact ray in its direction, so no edge mask is needed. Towards higher indices the first
/// square of the ray that is not an opponent disc is the ray's lowest such bit (`x & -x`);
/// towards lower indices it is the highest, found by a parallel-prefix smear (three shifts
/// cover the seven squares a ray can hold). A run flips when that square holds a player disc.
/// About twenty vector instructions where [`flips_avx2_vec`] takes about thirty.
///
/// # Safety
/// As [`flips_avx2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn flips_avx2_rays_vec(pp: __m256i, oo: __m256i, sq: u32) -> __m256i {
    let r = &RAYS[sq as usize & 63];
    // Each `[u64; 4]` is 32 consecutive bytes: the compiler makes each one load.
    let up = _mm256_set_epi64x(r.up[3] as i64, r.up[2] as i64, r.up[1] as i64, r.up[0] as i64);
    let down = _mm256_set_epi64x(r.down[3] as i64, r.down[2] as i64, r.down[1] as i64, r.down[0] as i64);
    let zero = _mm256_setzero_si256();
    // Towards higher indices: the first square that is not an opponent disc, if the player's.
    let free = _mm256_andnot_si256(oo, up);
    let outflank = _mm256_and_si256(_mm256_and_si256(free, _mm256_sub_epi64(zero, free)), pp);
    // The ray's squares below it (the run of opponent discs), or nothing without an outflank.
    let below = _mm256_and_si256(_mm256_add_epi64(outflank, _mm256_set1_epi64x(-1)), up);
    let f_up = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero), below);
    // Towards lower indices (shifts 1, 7, 8, 9): every ray square at or below the highest
    // square that is not an opponent disc.
    let shift = _mm256_set_epi64x(9, 8, 7, 1);
    let free = _mm256_andnot_si256(oo, down);
    let mut smear = _mm256_or_si256(free, _mm256_srlv_epi64(free, shift));
    smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, _mm256_set_epi64x(18, 16, 14, 2)));
    smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, _mm256_set_epi64x(36, 32, 28, 4)));
    // That square (the one smeared square whose neighbour above is not), if the player's.
    let outflank = _mm256_andnot_si256(_mm256_srlv_epi64(smear, shift), _mm256_and_si256(pp, down));
    let f_down = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero), _mm256_andnot_si256(smear, down));
    _mm256_or_si256(f_up, f_down)
}

/// [`super::flips`] by ray masks ([`flips_avx2_rays_vec`]).
///
/// # Safety
/// As [`flips_avx2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn flips_avx2_rays(p: u64, o: u64, sq: u32) -> u64 {
    let f = flips_avx2_rays_vec(_mm256_set1_epi64x(p as i64), _mm256_set1_epi64x(o as i64), sq);
    let f = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256(f, 1));
    (_mm_cvtsi128_si64(f) | _mm_extract_epi64::<1>(f)) as u64
}

/// The count two plies below a position with legal moves `moves` (as perft's generic two-ply
/// loop): for each move, the child's number of moves within `mask`, or 1 when it has none. The
/// child stays in vector registers from the flip to its move generation.
///
/// # Safety
/// Outside a function with the same target features, call it only when the CPU supports the
/// AVX2 back end (see [`super::Backend::Avx2`] and [`super::Backend::supported`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,lzcnt,popcnt")]
#[inline]
pub fn perft2_avx2(p: u64, o: u64, moves: u64, mask: u64) -> u64 {
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    let empty = !(p | o) & mask;
    let mut n = 0;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        let x = 1u64 << sq;
        let f = flips_avx2_vec(pp, oo, sq);
        // The child, from the opponent's side: their discs and the flipped ones become the
        // player's; the played disc joins the opponent's.
        let np = _mm256_xor_si256(oo, f);
        let no = _mm256_xor_si256(_mm256_xor_si256(pp, f), _mm256_set1_epi64x(x as i64));
        let m = super::x86::moves_avx2_vec(np, no) & empty & !x;
        n += if m == 0 { 1 } else { m.count_ones() as u64 };
    }
    n
}

/// One direction pair (shift `S` both ways, `S2 = 2 * S`) of the move generation with one
/// position per 64-bit lane: the moves of `pp` through the opponent discs `om` (already masked
/// for the direction's wrap-around) towards higher and lower indices.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn lanes_dir<const S: i32, const S2: i32>(pp: __m256i, om: __m256i) -> __m256i {
    let mut fl = _mm256_and_si256(om, _mm256_slli_epi64::<S>(pp));
    let mut fr = _mm256_and_si256(om, _mm256_srli_epi64::<S>(pp));
    fl = _mm256_or_si256(fl, _mm256_and_si256(om, _mm256_slli_epi64::<S>(fl)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(om, _mm256_srli_epi64::<S>(fr)));
    let pl = _mm256_and_si256(om, _mm256_slli_epi64::<S>(om));
    let pr = _mm256_srli_epi64::<S>(pl);
    fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_slli_epi64::<S2>(fl)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srli_epi64::<S2>(fr)));
    fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_slli_epi64::<S2>(fl)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srli_epi64::<S2>(fr)));
    _mm256_or_si256(_mm256_slli_epi64::<S>(fl), _mm256_srli_epi64::<S>(fr))
}

/// [`lanes_dir`] for the horizontal direction (shift 1), with the direction towards higher
/// indices by a carry instead of a fill: adding to `om` its discs just past a player disc
/// carries through each run of opponent discs that starts there and sets the square past the
/// run (the runs stay within a row: `om` has no disc on columns a and h).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn lanes_horizontal(pp: __m256i, om: __m256i) -> __m256i {
    let start = _mm256_and_si256(om, _mm256_slli_epi64::<1>(pp));
    let east = _mm256_andnot_si256(om, _mm256_add_epi64(om, start));
    let mut fr = _mm256_and_si256(om, _mm256_srli_epi64::<1>(pp));
    fr = _mm256_or_si256(fr, _mm256_and_si256(om, _mm256_srli_epi64::<1>(fr)));
    let pr = _mm256_and_si256(om, _mm256_srli_epi64::<1>(om));
    fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srli_epi64::<2>(fr)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srli_epi64::<2>(fr)));
    _mm256_or_si256(east, _mm256_srli_epi64::<1>(fr))
}

/// The legal moves of four positions at once, one per 64-bit lane (`pp` the players' discs,
/// `oo` the opponents'), not yet masked with the empty squares.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn lanes_moves(pp: __m256i, oo: __m256i) -> __m256i {
    let om = _mm256_and_si256(oo, _mm256_set1_epi64x(INNER[0] as i64));
    let m = _mm256_or_si256(lanes_horizontal(pp, om), lanes_dir::<8, 16>(pp, oo));
    let m = _mm256_or_si256(m, lanes_dir::<9, 18>(pp, om));
    _mm256_or_si256(m, lanes_dir::<7, 14>(pp, om))
}

/// The number of set bits of each 64-bit lane of `x` (AVX2 has no `vpopcntq`): each nibble's
/// count from a 16-entry table (`vpshufb`), the bytes summed per lane by `vpsadbw`. Shared with
/// the pattern evaluation's AVX2 path.
///
/// # Safety
/// Outside a function with AVX2 enabled, call it only when the CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn popcount_epi64_avx2(x: __m256i) -> __m256i {
    let table = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
    );
    let low = _mm256_set1_epi8(0x0f);
    let lo = _mm256_shuffle_epi8(table, _mm256_and_si256(x, low));
    let hi = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi64::<4>(x), low));
    _mm256_sad_epu8(_mm256_add_epi8(lo, hi), _mm256_setzero_si256())
}

/// The legal moves within `mask` of the first `len` positions `(players[i], opponents[i])`,
/// into `moves[i]`, four positions at a time (one per lane); the entries from `len` up to the
/// next multiple of four are overwritten too, with the moves of whatever the arrays hold there.
///
/// # Safety
/// Outside a function with the same target features, call it only when the CPU supports AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn legal_moves4_avx2(players: &[u64; 64], opponents: &[u64; 64], moves: &mut [u64; 64], len: usize, mask: u64) {
    let mm = _mm256_set1_epi64x(mask as i64);
    let groups = players
        .chunks_exact(4)
        .zip(opponents.chunks_exact(4))
        .zip(moves.chunks_exact_mut(4));
    for ((p, o), m) in groups.take(len.div_ceil(4)) {
        let pp = _mm256_set_epi64x(p[3] as i64, p[2] as i64, p[1] as i64, p[0] as i64);
        let oo = _mm256_set_epi64x(o[3] as i64, o[2] as i64, o[1] as i64, o[0] as i64);
        let empty = _mm256_andnot_si256(_mm256_or_si256(pp, oo), mm);
        let r = _mm256_and_si256(lanes_moves(pp, oo), empty);
        let (lo, hi) = (_mm256_castsi256_si128(r), _mm256_extracti128_si256::<1>(r));
        m[0] = _mm_cvtsi128_si64(lo) as u64;
        m[1] = _mm_extract_epi64::<1>(lo) as u64;
        m[2] = _mm_cvtsi128_si64(hi) as u64;
        m[3] = _mm_extract_epi64::<1>(hi) as u64;
    }
}

/// The leaves one ply below each position `(players[i], opponents[i])`: its number of legal
/// moves within `mask`, or 1 when it has none (a pass or a finished game). Four positions at a
/// time, one per 64-bit lane; `players` and `opponents` have the same length.
///
/// # Safety
/// Outside a function with the same target features, call it only when the CPU supports the
/// AVX2 back end (see [`super::Backend::Avx2`] and [`super::Backend::supported`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,lzcnt,popcnt")]
#[inline]
pub fn leaves1_avx2(players: &[u64], opponents: &[u64], mask: u64) -> u64 {
    assert_eq!(players.len(), opponents.len());
    let mm = _mm256_set1_epi64x(mask as i64);
    let zero = _mm256_setzero_si256();
    let mut acc = zero;
    let mut ps = players.chunks_exact(4);
    let mut os = opponents.chunks_exact(4);
    for (p, o) in (&mut ps).zip(&mut os) {
        // Four consecutive `u64`: the compiler makes each one load.
        let pp = _mm256_set_epi64x(p[3] as i64, p[2] as i64, p[1] as i64, p[0] as i64);
        let oo = _mm256_set_epi64x(o[3] as i64, o[2] as i64, o[1] as i64, o[0] as i64);
        let empty = _mm256_andnot_si256(_mm256_or_si256(pp, oo), mm);
        let m = _mm256_and_si256(lanes_moves(pp, oo), empty);
        // A lane without moves counts 1: its compare with zero is -1, subtracted.
        let n = _mm256_sub_epi64(popcount_epi64_avx2(m), _mm256_cmpeq_epi64(m, zero));
        acc = _mm256_add_epi64(acc, n);
    }
    let mut n = 0;
    for (&p, &o) in ps.remainder().iter().zip(os.remainder()) {
        let m = super::x86::legal_moves_avx2(p, o) & mask;
        n += if m == 0 { 1 } else { m.count_ones() as u64 };
    }
    let s = _mm_add_epi64(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    n + (_mm_cvtsi128_si64(s) as u64).wrapping_add(_mm_extract_epi64::<1>(s) as u64)
}
