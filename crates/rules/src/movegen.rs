//! Move generation and flips on raw side-relative bitboards (8x8 layout).
//!
//! Everything here works on `(player, opponent)` pairs of `u64`. Boards smaller than 8x8 live in
//! the top-left corner: rays never pass through a square without a disc, so the same code is
//! exact for them once the legal-move set is masked with the board (see
//! [`BoardSize::mask`](crate::BoardSize::mask)); [`Position`](crate::Position) does that.
//!
//! Back ends ([`Backend`]) sit side by side with identical signatures:
//! - [`portable`]: plain `u64` shifts (Kogge-Stone fills) and a bit-scan flip; always compiled.
//! - [`Backend::Avx2`]: AVX2 move generation (the eight directions as four 64-bit lanes, each
//!   shifted both ways) and the AVX2 flip ([`x86::flips_avx2`]: the same lanes, filled from the
//!   played square), which measured faster than the bit-scan flip with single-instruction
//!   `tzcnt`/`lzcnt` ([`x86::flips_bmi`]) in perft, the endgame solver and the search
//!   (2026-12-01, Intel Xeon: docs/history/benchmarks-2026.md). Perft's last ply, with this back end and
//!   the BMI2 one, counts the moves of four positions at a time, one per lane
//!   ([`x86::leaves1_avx2`]).
//! - [`Backend::Bmi2`]: the AVX2 move generation and flips by `pext`/`pdep` (four lines of the
//!   played square gathered into bytes, two small tables). Chosen only where `pext` is fast:
//!   not on AMD before Zen 3 (family 0x17 and older), where it is microcoded.
//! - [`Backend::Avx512`]: move generation with the eight directions in one 512-bit register
//!   (rotations and three-input logic) and the bit-scan flip on four lanes at a time
//!   (`vplzcntq`); AVX-512 F/VL/CD. For perft it also counts the last two plies eight
//!   positions at a time, one per lane ([`x86::perft2_avx512`]; with VBMI2 and VPOPCNTDQ,
//!   checked at run time, [`x86::perft2_avx512_icl`] and [`x86::perft3_avx512_icl`]).
//!
//! All are checked against the portable code and the naive reference in [`crate::reference`]
//! on random positions (see the integration tests, which run every back end the CPU supports).
//! [`legal_moves`] picks the back end once, at the first call ([`backend`] says which):
//! `OTHELLO_BACKEND=portable|avx2|bmi2|avx512` forces one (an unsupported or unknown name falls
//! back to the default with a warning on stderr), `OTHELLO_PORTABLE=1` is an alias of
//! `OTHELLO_BACKEND=portable`; otherwise [`Backend::best`] decides. Hot loops elsewhere (perft,
//! the endgame solver) compile their own copy per back end with the functions of [`x86`]
//! inlined, and dispatch once per search.

use std::sync::atomic::{AtomicU8, Ordering};

mod avx2;
mod avx512;
mod bmi2;
mod cpu;

pub use cpu::{
    CpuFeatures, cpu_family, cpu_features, cpu_vendor, gathers_microcoded, gathers_microcoded_on, pext_is_fast,
    pext_is_fast_on,
};

/// An implementation of [`legal_moves`] and [`flips`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Backend {
    /// Plain `u64` code, compiled for the baseline target.
    Portable,
    /// AVX2 move generation and the AVX2 flip (x86-64 only).
    Avx2,
    /// AVX2 move generation and BMI2 `pext`/`pdep` flips (x86-64 only).
    Bmi2,
    /// AVX-512 (F, VL, CD) move generation and flips (x86-64 only).
    Avx512,
}

impl Backend {
    /// Every back end, slowest first.
    pub const ALL: [Backend; 4] = [Backend::Portable, Backend::Avx2, Backend::Bmi2, Backend::Avx512];

    /// The name accepted by `OTHELLO_BACKEND`: `portable`, `avx2`, `bmi2` or `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Avx2 => "avx2",
            Backend::Bmi2 => "bmi2",
            Backend::Avx512 => "avx512",
        }
    }

    /// The back end called `name` (as [`Backend::name`] spells it, any case).
    pub fn from_name(name: &str) -> Option<Backend> {
        Backend::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Whether this CPU can run the back end (the portable one always can). The one CPU check of
    /// the workspace: the hot loops of other crates ask it too.
    pub fn supported(self) -> bool {
        match self {
            Backend::Portable => true,
            Backend::Avx2 => x86::available(),
            Backend::Bmi2 => x86::available() && x86::has_bmi2(),
            Backend::Avx512 => x86::available() && x86::has_bmi2() && x86::has_avx512(),
        }
    }

    /// The default on this CPU: AVX-512 where present, else BMI2 where `pext` is fast, else
    /// AVX2, else portable. Decided by measurement (docs/BENCHMARKS.md) and, for `pext`, by CPU
    /// family rather than by the feature bit.
    pub fn best() -> Backend {
        if Backend::Avx512.supported() {
            Backend::Avx512
        } else if Backend::Bmi2.supported() && x86::pext_is_fast() {
            Backend::Bmi2
        } else if Backend::Avx2.supported() {
            Backend::Avx2
        } else {
            Backend::Portable
        }
    }

    fn code(self) -> u8 {
        match self {
            Backend::Portable => PORTABLE,
            Backend::Avx2 => AVX2,
            Backend::Bmi2 => BMI2,
            Backend::Avx512 => AVX512,
        }
    }
}

const UNKNOWN: u8 = 0;
const PORTABLE: u8 = 1;
const AVX2: u8 = 2;
const BMI2: u8 = 3;
const AVX512: u8 = 4;
static BACKEND: AtomicU8 = AtomicU8::new(UNKNOWN);

/// The back end the environment asks for, if any (`OTHELLO_BACKEND`, or `OTHELLO_PORTABLE=1`).
/// An unknown or unsupported name gives the default, with a warning.
fn requested() -> Option<Backend> {
    if let Some(v) = std::env::var_os("OTHELLO_BACKEND") {
        let name = v.to_string_lossy();
        match Backend::from_name(&name) {
            Some(b) if b.supported() => return Some(b),
            Some(b) => eprintln!(
                "warning: OTHELLO_BACKEND={} is not supported by this CPU; using {}",
                b.name(),
                Backend::best().name()
            ),
            None => eprintln!(
                "warning: OTHELLO_BACKEND={name} is not one of portable, avx2, bmi2, avx512; using {}",
                Backend::best().name()
            ),
        }
        return None;
    }
    if std::env::var_os("OTHELLO_PORTABLE").is_some_and(|v| v != "0") {
        return Some(Backend::Portable);
    }
    None
}

#[cold]
fn detect() -> u8 {
    let choice = requested().unwrap_or_else(Backend::best).code();
    BACKEND.store(choice, Ordering::Relaxed);
    choice
}

#[inline(always)]
fn chosen() -> u8 {
    match BACKEND.load(Ordering::Relaxed) {
        UNKNOWN => detect(),
        b => b,
    }
}

/// The back end in use (decided once; see the module docs for the environment variables).
pub fn backend() -> Backend {
    match chosen() {
        AVX2 => Backend::Avx2,
        BMI2 => Backend::Bmi2,
        AVX512 => Backend::Avx512,
        _ => Backend::Portable,
    }
}

/// The squares where `player` may play: empty squares (of the whole 8x8 grid) from which a
/// straight line of one or more `opponent` discs ends at a `player` disc.
///
/// `player` and `opponent` must not overlap.
#[inline]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    match chosen() {
        AVX2 | BMI2 => x86::legal_moves(player, opponent),
        AVX512 => x86::legal_moves_512(player, opponent),
        _ => portable::legal_moves(player, opponent),
    }
}

/// The legal moves of both sides at once: `(legal_moves(player, opponent),
/// legal_moves(opponent, player))`. One run-time switch and one call for both, which is what
/// mobility evaluation needs.
#[inline]
pub fn legal_moves_both(player: u64, opponent: u64) -> (u64, u64) {
    match chosen() {
        AVX2 | BMI2 | AVX512 => x86::legal_moves_both(player, opponent),
        _ => (
            portable::legal_moves(player, opponent),
            portable::legal_moves(opponent, player),
        ),
    }
}

/// The opponent discs flipped when `player` plays on square `sq` (0..64); empty when the move
/// flips nothing (that is, when it is not legal). `sq` must be an empty square.
///
/// Each back end's flip: the portable bit-scan code, the AVX2 fill ([`x86::flips_avx2`]) with
/// the AVX2 back end, `pext` with BMI2 and the AVX-512 flip (docs/BENCHMARKS.md). Hot loops
/// compiled with the x86 features (perft, the endgame solver) inline the functions of [`x86`]
/// instead.
#[inline]
pub fn flips(player: u64, opponent: u64, sq: u32) -> u64 {
    match chosen() {
        AVX2 => x86::flips_256(player, opponent, sq),
        BMI2 => x86::flips_bmi2(player, opponent, sq),
        AVX512 => x86::flips_512(player, opponent, sq),
        _ => portable::flips(player, opponent, sq),
    }
}

/// Rays from each square in each of the eight directions, not including the square itself.
/// Index `[sq][dir]`; directions 0..4 point to higher indices (E, SW, S, SE: +1, +7, +8, +9),
/// directions 4..8 to lower ones (W, NE, N, NW: -1, -7, -8, -9).
pub(crate) static RAYS: [[u64; 8]; 64] = make_rays();

const fn make_rays() -> [[u64; 8]; 64] {
    let dirs: [(i32, i32); 8] = [(1, 0), (-1, 1), (0, 1), (1, 1), (-1, 0), (1, -1), (0, -1), (-1, -1)];
    let mut out = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = dirs[d];
            let mut c = (sq % 8) as i32 + dc;
            let mut r = (sq / 8) as i32 + dr;
            let mut m = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                m |= 1 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            out[sq][d] = m;
            d += 1;
        }
        sq += 1;
    }
    out
}

/// The portable implementation: plain `u64` arithmetic, any target.
pub mod portable {
    use super::RAYS;

    /// See [`super::legal_moves`].
    #[inline]
    pub fn legal_moves(player: u64, opponent: u64) -> u64 {
        // Kogge-Stone style fill in each direction: 6 steps cover the longest ray.
        let mo = opponent & 0x7e7e_7e7e_7e7e_7e7e; // horizontal and diagonal rays
        let mut moves = dir_moves(player, mo, 1);
        moves |= dir_moves(player, opponent, 8);
        moves |= dir_moves(player, mo, 7);
        moves |= dir_moves(player, mo, 9);
        moves & !(player | opponent)
    }

    #[inline(always)]
    fn dir_moves(p: u64, o: u64, s: u32) -> u64 {
        let mut fl = o & (p << s);
        let mut fr = o & (p >> s);
        fl |= o & (fl << s);
        fr |= o & (fr >> s);
        let pl = o & (o << s);
        let pr = pl >> s;
        let s2 = s + s;
        fl |= pl & (fl << s2);
        fr |= pr & (fr >> s2);
        fl |= pl & (fl << s2);
        fr |= pr & (fr >> s2);
        (fl << s) | (fr >> s)
    }

    /// See [`super::flips`].
    #[inline]
    pub fn flips(player: u64, opponent: u64, sq: u32) -> u64 {
        flips_bitscan(player, opponent, sq)
    }

    /// Flips by bit scans along the eight rays of `sq`: in each direction the first square that
    /// is not an opponent disc is found (lowest bit for rays towards higher indices, highest
    /// bit for the others); if it holds a player disc, the opponent discs before it flip.
    #[inline(always)]
    pub(crate) fn flips_bitscan(player: u64, opponent: u64, sq: u32) -> u64 {
        let rays = &RAYS[sq as usize & 63];
        let not_o = !opponent;
        let mut f = 0u64;
        // Directions towards higher indices: lowest non-opponent square of the ray.
        for &m in &rays[..4] {
            let stop = not_o & m;
            let first = stop & stop.wrapping_neg();
            let hit = first & player;
            // hit - 1 (when hit != 0) has every bit below the outflanking disc set.
            f |= hit.wrapping_sub((hit != 0) as u64) & m;
        }
        // Directions towards lower indices: highest non-opponent square of the ray.
        for &m in &rays[4..] {
            let stop = not_o & m;
            let first = (0x8000_0000_0000_0000u64 >> (stop.leading_zeros() & 63)) & stop;
            let hit = first & player;
            // -hit * 2 has every bit above the outflanking disc set (0 when hit is 0).
            f |= hit.wrapping_neg().wrapping_shl(1) & m;
        }
        // When the ray holds only opponent discs `stop` is 0, and so are `first` and `hit`.
        f
    }
}

/// The x86-64 back ends' functions.
///
/// The `#[target_feature]` functions are public so that a hot loop elsewhere (a solver, a
/// perft) can be compiled with the same features and inline them, as [`crate::perft`] does:
/// call them from a function carrying at least the same `#[target_feature]` set, entered only
/// after [`Backend::supported`] returned true for the back end that uses them:
/// - [`Backend::Avx2`]: [`x86::legal_moves_avx2`] and [`x86::flips_avx2`]
///   (`avx2,bmi1,lzcnt,popcnt`; [`x86::flips_bmi`] is the bit-scan alternative);
/// - [`Backend::Bmi2`]: [`x86::legal_moves_avx2`] and [`x86::flips_pext`]
///   (`avx2,bmi1,bmi2,lzcnt,popcnt`);
/// - [`Backend::Avx512`]: [`x86::legal_moves_avx512`] and [`x86::flips_avx512`]
///   (`avx512f,avx512vl,avx512cd,avx2,bmi1,bmi2,lzcnt,popcnt`).
///
/// [`x86::legal_moves_avx512vl`] is the 256-bit AVX-512 alternative that measured slower here
/// (kept for comparison on other CPUs, and tested).
pub mod x86 {
    #[cfg(target_arch = "x86_64")]
    pub use super::avx2::{
        flips_avx2, flips_avx2_rays, flips_avx2_rays_vec, flips_avx2_vec, leaves1_avx2, legal_moves4_avx2, perft2_avx2,
        popcount_epi64_avx2,
    };
    #[cfg(target_arch = "x86_64")]
    pub use super::avx512::{
        flips_avx512, has_avx512_icl, legal_moves_avx512, legal_moves_avx512vl, perft2_avx512, perft2_avx512_icl,
        perft3_avx512_icl,
    };
    #[cfg(target_arch = "x86_64")]
    pub use super::bmi2::flips_pext;

    /// Whether the CPU supports the AVX2 back end (AVX2, BMI1, LZCNT, POPCNT).
    pub fn available() -> bool {
        super::cpu_features().avx2_set()
    }

    /// Whether the CPU has BMI2 (`pext`, `pdep`), fast or not.
    pub(super) fn has_bmi2() -> bool {
        super::cpu_features().bmi2
    }

    /// Whether the CPU has AVX-512 F, VL and CD.
    pub(super) fn has_avx512() -> bool {
        super::cpu_features().avx512_set()
    }

    /// Whether `pext`/`pdep` are fast on this CPU (see [`super::pext_is_fast_on`]).
    pub(super) fn pext_is_fast() -> bool {
        super::pext_is_fast()
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(super) fn legal_moves(player: u64, opponent: u64) -> u64 {
        // SAFETY: only called when the chosen back end is AVX2, BMI2 or AVX-512, each of which
        // `Backend::supported` confirmed to include AVX2.
        unsafe { legal_moves_avx2(player, opponent) }
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(super) fn legal_moves_512(player: u64, opponent: u64) -> u64 {
        // SAFETY: only called when the chosen back end is AVX-512, which `Backend::supported`
        // confirmed (AVX-512 F/VL/CD).
        unsafe { legal_moves_avx512(player, opponent) }
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(super) fn legal_moves_both(player: u64, opponent: u64) -> (u64, u64) {
        // SAFETY: as in `legal_moves`.
        unsafe { both_avx2(player, opponent) }
    }

    /// Both sides' moves in one AVX2 function, so both fills inline.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn both_avx2(p: u64, o: u64) -> (u64, u64) {
        (legal_moves_avx2(p, o), legal_moves_avx2(o, p))
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(super) fn flips_bmi2(player: u64, opponent: u64, sq: u32) -> u64 {
        // SAFETY: only called when the chosen back end is BMI2 or AVX-512, both confirmed by
        // `Backend::supported` to include BMI1 and BMI2.
        unsafe { flips_pext(player, opponent, sq) }
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn legal_moves(player: u64, opponent: u64) -> u64 {
        super::portable::legal_moves(player, opponent)
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn legal_moves_512(player: u64, opponent: u64) -> u64 {
        super::portable::legal_moves(player, opponent)
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn legal_moves_both(player: u64, opponent: u64) -> (u64, u64) {
        (
            super::portable::legal_moves(player, opponent),
            super::portable::legal_moves(opponent, player),
        )
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(super) fn flips_512(player: u64, opponent: u64, sq: u32) -> u64 {
        // SAFETY: only called when the chosen back end is AVX-512, confirmed by
        // `Backend::supported` (AVX-512 F/VL/CD and AVX2).
        unsafe { flips_avx512(player, opponent, sq) }
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn flips_512(player: u64, opponent: u64, sq: u32) -> u64 {
        super::portable::flips(player, opponent, sq)
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(super) fn flips_256(player: u64, opponent: u64, sq: u32) -> u64 {
        // SAFETY: only called when the chosen back end is AVX2, which `Backend::supported`
        // confirmed.
        unsafe { flips_avx2(player, opponent, sq) }
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn flips_256(player: u64, opponent: u64, sq: u32) -> u64 {
        super::portable::flips(player, opponent, sq)
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn flips_bmi2(player: u64, opponent: u64, sq: u32) -> u64 {
        super::portable::flips(player, opponent, sq)
    }

    /// [`super::legal_moves`] with AVX2: the eight directions as four lanes (shifts 1, 8, 9,
    /// 7), each filled both ways.
    ///
    /// # Safety
    /// Outside a function with the same target features, call it only when [`available`] is
    /// true (the CPU must support AVX2).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn legal_moves_avx2(p: u64, o: u64) -> u64 {
        use std::arch::x86_64::*;
        moves_avx2_vec(_mm256_set1_epi64x(p as i64), _mm256_set1_epi64x(o as i64)) & !(p | o)
    }

    /// [`legal_moves_avx2`] of the discs broadcast in `pp` and `oo`, not yet masked with the
    /// empty squares (a hot loop that keeps a position in vector registers masks it itself).
    ///
    /// # Safety
    /// As [`legal_moves_avx2`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn moves_avx2_vec(pp: std::arch::x86_64::__m256i, oo: std::arch::x86_64::__m256i) -> u64 {
        use std::arch::x86_64::*;
        let shift = _mm256_set_epi64x(7, 9, 8, 1);
        let shift2 = _mm256_set_epi64x(14, 18, 16, 2);
        let edge = _mm256_set_epi64x(0x7e7e_7e7e_7e7e_7e7e, 0x7e7e_7e7e_7e7e_7e7e, -1, 0x7e7e_7e7e_7e7e_7e7e);
        let oo = _mm256_and_si256(oo, edge);
        let mut fl = _mm256_and_si256(oo, _mm256_sllv_epi64(pp, shift));
        let mut fr = _mm256_and_si256(oo, _mm256_srlv_epi64(pp, shift));
        fl = _mm256_or_si256(fl, _mm256_and_si256(oo, _mm256_sllv_epi64(fl, shift)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(oo, _mm256_srlv_epi64(fr, shift)));
        let pl = _mm256_and_si256(oo, _mm256_sllv_epi64(oo, shift));
        let pr = _mm256_srlv_epi64(pl, shift);
        fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, shift2)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, shift2)));
        fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, shift2)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, shift2)));
        let mm = _mm256_or_si256(_mm256_sllv_epi64(fl, shift), _mm256_srlv_epi64(fr, shift));
        let m = _mm_or_si128(_mm256_castsi256_si128(mm), _mm256_extracti128_si256(mm, 1));
        let m = _mm_or_si128(m, _mm_unpackhi_epi64(m, m));
        _mm_cvtsi128_si64(m) as u64
    }

    /// [`super::flips`]: the portable bit-scan flip compiled with single-instruction
    /// `tzcnt`/`lzcnt`.
    ///
    /// # Safety
    /// Outside a function with the same target features, call it only when [`available`] is
    /// true (the CPU must support BMI1, LZCNT and POPCNT).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,lzcnt,popcnt")]
    #[inline]
    pub fn flips_bmi(p: u64, o: u64, sq: u32) -> u64 {
        super::portable::flips_bitscan(p, o, sq)
    }
}

/// Every back end's functions, callable directly so tests and benchmarks can compare them.
pub mod variants {
    use super::Backend;

    /// Legal moves with the AVX2 back end, or `None` when the CPU lacks it.
    pub fn legal_moves_fast(player: u64, opponent: u64) -> Option<u64> {
        legal_moves_with(Backend::Avx2, player, opponent)
    }

    /// Flips with the AVX2 back end, or `None` when the CPU lacks it.
    pub fn flips_fast(player: u64, opponent: u64, sq: u32) -> Option<u64> {
        flips_with(Backend::Avx2, player, opponent, sq)
    }

    /// Legal moves with `backend`, or `None` when the CPU cannot run it.
    pub fn legal_moves_with(backend: Backend, player: u64, opponent: u64) -> Option<u64> {
        if !backend.supported() {
            return None;
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `supported()` confirmed the target features of each function called.
        let m = unsafe {
            use super::x86;
            match backend {
                Backend::Portable => super::portable::legal_moves(player, opponent),
                Backend::Avx2 | Backend::Bmi2 => x86::legal_moves_avx2(player, opponent),
                Backend::Avx512 => x86::legal_moves_avx512(player, opponent),
            }
        };
        #[cfg(not(target_arch = "x86_64"))]
        let m = super::portable::legal_moves(player, opponent);
        Some(m)
    }

    /// Flips with `backend`, or `None` when the CPU cannot run it.
    pub fn flips_with(backend: Backend, player: u64, opponent: u64, sq: u32) -> Option<u64> {
        if !backend.supported() {
            return None;
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `supported()` confirmed the target features of each function called.
        let f = unsafe {
            use super::x86;
            match backend {
                Backend::Portable => super::portable::flips(player, opponent, sq),
                Backend::Avx2 => x86::flips_avx2(player, opponent, sq),
                Backend::Bmi2 => x86::flips_pext(player, opponent, sq),
                Backend::Avx512 => x86::flips_avx512(player, opponent, sq),
            }
        };
        #[cfg(not(target_arch = "x86_64"))]
        let f = super::portable::flips(player, opponent, sq);
        Some(f)
    }

    /// Flips with each x86 flip function that some back end or hot loop uses, whichever back end
    /// it belongs to: `(name, flips)` for each one the CPU supports (the bit-scan flip compiled
    /// with BMI1/LZCNT, the AVX2 fill, `pext`/`pdep`, AVX-512). Tests compare them all.
    pub fn flips_x86(player: u64, opponent: u64, sq: u32) -> Vec<(&'static str, u64)> {
        // Filled only on x86-64.
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut out = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            use super::x86;
            if Backend::Avx2.supported() {
                // SAFETY: `supported()` confirmed AVX2, BMI1, LZCNT and POPCNT.
                out.push(("bitscan", unsafe { x86::flips_bmi(player, opponent, sq) }));
                // SAFETY: as above (AVX2).
                out.push(("avx2", unsafe { x86::flips_avx2(player, opponent, sq) }));
                // SAFETY: as above (AVX2).
                out.push(("avx2 rays", unsafe { x86::flips_avx2_rays(player, opponent, sq) }));
            }
            if Backend::Bmi2.supported() {
                // SAFETY: `supported()` confirmed BMI2.
                out.push(("pext", unsafe { x86::flips_pext(player, opponent, sq) }));
            }
            if Backend::Avx512.supported() {
                // SAFETY: `supported()` confirmed AVX-512 F/VL/CD.
                out.push(("avx512", unsafe { x86::flips_avx512(player, opponent, sq) }));
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (player, opponent, sq);
        out
    }

    /// Legal moves with the 256-bit AVX-512 alternative that no back end uses (the AVX2 layout
    /// with three-input logic), or `None` without AVX-512.
    pub fn legal_moves_avx512vl(player: u64, opponent: u64) -> Option<u64> {
        if !Backend::Avx512.supported() {
            return None;
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `supported()` confirmed AVX-512 F/VL/CD.
        let m = unsafe { super::x86::legal_moves_avx512vl(player, opponent) };
        #[cfg(not(target_arch = "x86_64"))]
        let m = super::portable::legal_moves(player, opponent);
        Some(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_moves() {
        // Black to move at the start: black d5 (35) e4 (28), white d4 (27) e5 (36).
        let p = 1u64 << 35 | 1 << 28;
        let o = 1u64 << 27 | 1 << 36;
        let expected = 1u64 << 19 | 1 << 26 | 1 << 37 | 1 << 44; // d3 c4 f5 e6
        assert_eq!(portable::legal_moves(p, o), expected);
        assert_eq!(legal_moves(p, o), expected);
        assert_eq!(portable::flips(p, o, 19), 1 << 27); // d3 flips d4
        assert_eq!(flips(p, o, 19), 1 << 27);
        assert_eq!(portable::flips(p, o, 0), 0);
    }

    #[test]
    fn variants_run_exactly_the_supported_back_ends() {
        let p = 1u64 << 35 | 1 << 28;
        let o = 1u64 << 27 | 1 << 36;
        for b in Backend::ALL {
            let (moves, f) = (variants::legal_moves_with(b, p, o), variants::flips_with(b, p, o, 19));
            if b.supported() {
                assert_eq!(moves, Some(1u64 << 19 | 1 << 26 | 1 << 37 | 1 << 44), "{b:?}");
                assert_eq!(f, Some(1 << 27), "{b:?}");
            } else {
                assert_eq!((moves, f), (None, None), "{b:?}");
            }
        }
    }

    #[test]
    fn rays_do_not_wrap() {
        // From h1 (7) going east there is nothing; going south-west reaches a8 diagonally.
        assert_eq!(RAYS[7][0], 0);
        assert_eq!(RAYS[7][1].count_ones(), 7);
        assert_eq!(RAYS[0][4], 0);
        assert_eq!(RAYS[63][7].count_ones(), 7);
    }
}
