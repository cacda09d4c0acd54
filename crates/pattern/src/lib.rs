//! Pattern (n-tuple) evaluation for 8x8 Othello, the kind every strong program since
//! Logistello uses: for 46 groups of squares (edges with their X-squares, corner 3x3 and 2x5
//! blocks, diagonals, inner lines), a table holds one weight per configuration of the group
//! (`3^n` of them); one set of tables per game phase (number of empties). The score is the
//! phase's constant plus one table entry per group, plus small tables of the mobility and of
//! global features (potential mobility, frontier, odd quadrants: pattern set 2), in
//! centi-discs for the side to move, so it implements [`othello_eval::Evaluator`] and plugs
//! into any search of the toolkit.
//!
//! - [`set`]: the patterns (pictures in `docs/pattern.md`), their symmetric images (which
//!   share a table) and the tie of table entries under a pattern's own symmetries, so the
//!   evaluation is exactly invariant under the eight board symmetries.
//! - [`weights`]: the weights file format (header with magic, version, pattern-set id, phases,
//!   scale and checksum; little-endian `i16` weights; tagged sections for other data, such as
//!   a search's cut table), checked on load down to the ties of symmetric configurations, and
//!   its typed errors.
//! - [`PatternEval`]: the evaluator. Indices are extracted per call from the bitboards, each
//!   group read straight from the board ([`Extraction`], chosen at run time within the rules
//!   crate's move-generation back end, which `OTHELLO_BACKEND` forces): with AVX-512 VBMI
//!   all 46 indices at once by byte permutations and the table entries by gathers; with BMI2
//!   by `pext` on the board's symmetry images; portable code otherwise. All give the same
//!   scores (tested against each other and a slow reference).
//! - [`PatternEval::default`] uses weights embedded in the crate, trained by
//!   the repository's `othello-train` tool (see `docs/pattern.md`).
//!
//! The tables are for 8x8 only: [`PatternEval::check_size`] refuses 4x4 and 6x6 with a typed
//! error, for the code that builds an engine; `evaluate` never panics (on a smaller board it
//! falls back to the disc difference).
//!
//! ```
//! use othello_eval::{CutTable, Evaluator};
//! use othello_pattern::{PatternEval, Weights};
//! use othello_rules::{BoardSize, Position};
//!
//! let eval = PatternEval::default();
//! let start = Position::start();
//! let score = eval.evaluate(&start); // centi-discs for black, the side to move
//! assert!(score.abs() < 1000);
//! assert!(PatternEval::check_size(BoardSize::Six).is_err());
//!
//! // Weights round-trip through their file format.
//! let w = Weights::zero(4, 100).unwrap();
//! assert_eq!(Weights::from_bytes(&w.to_bytes()).unwrap(), w);
//! assert_eq!(PatternEval::new(&w).evaluate(&start), 0);
//! ```
#![deny(missing_docs)]

mod extract;
pub mod set;
pub mod weights;

pub use set::{Layout, PATTERN_SET_ID, PATTERNS, Pattern};
pub use weights::{Weights, WeightsError};

use othello_eval::{CutTable, Evaluator};
use othello_rules::{BoardSize, Position, Symmetry};
use std::sync::{Arc, OnceLock};

/// The default weights, trained by the repository's `othello-train` tool (see `docs/pattern.md`).
pub const DEFAULT_WEIGHTS: &[u8] = include_bytes!("../weights/default.bin");

/// Features per position for the fit: the phase constant, one per pattern instance, the
/// two mobility entries and one entry per global feature ([`set::GLOBALS`]).
pub const FEATURES: usize = 49 + set::GLOBALS.len();

/// The shared layout of set 1.
pub fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(Layout::new)
}

/// The groups of set 1 read straight from the board.
fn groups() -> &'static extract::Groups {
    static GROUPS: OnceLock<extract::Groups> = OnceLock::new();
    GROUPS.get_or_init(|| extract::Groups::new(layout()))
}

/// Binary digits read as ternary digits: `B2T[b] = sum of 3^k over the set bits k of b`.
static B2T: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u32;
        let mut k = 0;
        while k < 10 {
            if b >> k & 1 == 1 {
                v += set::pow3(k);
            }
            k += 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
};

/// The refusal of a board size the tables do not cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the pattern evaluation is for 8x8 only, not {0}")]
pub struct UnsupportedSize(pub BoardSize);

#[cfg_attr(
    not(target_arch = "x86_64"),
    allow(dead_code, reason = "read by the x86-64 extractions")
)]
#[derive(Clone, Copy, Debug)]
struct Inst {
    sym: u8,
    mask: u64,
    offset: u32,
}

/// How [`PatternEval`] reads the groups' indices from the bitboards. Every way gives the same
/// indices (tested against each other and against a slow reference).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extraction {
    /// Plain integer code, on every CPU.
    Portable,
    /// BMI2 `pext` (x86-64, detected at run time).
    Bmi2,
    /// AVX2 byte shuffles of the bitboards, all groups at once, and gathers of the table
    /// entries (x86-64, detected at run time; POPCNT for the mobility): for CPUs without
    /// AVX-512 VBMI.
    Avx2,
    /// The same indices as [`Extraction::Avx2`], and scalar reads of the table entries: for
    /// CPUs whose gathers are microcoded (AMD).
    Avx2Loads,
    /// AVX-512 F/BW/VBMI byte permutations, all groups at once (x86-64, detected at run time;
    /// VL and VPOPCNTDQ for the global features, AVX2 and POPCNT for the mobility: every CPU
    /// with VBMI but Cannon Lake has them).
    Avx512,
}

impl Extraction {
    /// Every extraction, the portable one first.
    pub const ALL: [Extraction; 5] = [
        Extraction::Portable,
        Extraction::Bmi2,
        Extraction::Avx2,
        Extraction::Avx2Loads,
        Extraction::Avx512,
    ];

    /// Its short name (benchmarks, diagnostics).
    pub fn name(self) -> &'static str {
        match self {
            Extraction::Portable => "portable",
            Extraction::Bmi2 => "bmi2",
            Extraction::Avx2 => "avx2",
            Extraction::Avx2Loads => "avx2-loads",
            Extraction::Avx512 => "avx512",
        }
    }

    /// Whether this CPU can run it.
    pub fn supported(self) -> bool {
        match self {
            Extraction::Portable => true,
            Extraction::Bmi2 => has_bmi2(),
            Extraction::Avx2 | Extraction::Avx2Loads => has_avx2(),
            Extraction::Avx512 => has_avx512(),
        }
    }

    /// Every extraction, fastest first (as measured: `docs/pattern.md`, "Index computation").
    /// AVX2 comes before BMI2: on the Intel Xeon measured it takes less than half the time,
    /// and it does not depend on a fast `pext` either. With gathers first; where gathers are
    /// microcoded (AMD) [`Extraction::best`] takes the scalar reads instead.
    pub const PREFERENCE: [Extraction; 5] = [
        Extraction::Avx512,
        Extraction::Avx2,
        Extraction::Avx2Loads,
        Extraction::Bmi2,
        Extraction::Portable,
    ];

    /// The fastest extraction this CPU supports within the rules crate's move-generation back
    /// end ([`movegen::backend`](othello_rules::movegen::backend), see [`Extraction::within`]):
    /// so `OTHELLO_BACKEND=avx2` or `bmi2` on an AVX-512 machine evaluates as a CPU without
    /// AVX-512 would, and `OTHELLO_BACKEND=portable` runs the portable code throughout.
    pub fn best() -> Extraction {
        Extraction::best_within(othello_rules::movegen::backend())
    }

    /// The fastest extraction this CPU supports within the back end `backend`.
    fn best_within(backend: othello_rules::movegen::Backend) -> Extraction {
        Extraction::first_of(|x| x.supported() && x.within(backend), slow_gathers())
    }

    /// Whether the extraction needs no instruction set beyond those of the move-generation
    /// back end `backend`: AVX-512 only with [`Backend::Avx512`](othello_rules::movegen::Backend),
    /// `pext` only with the back ends that use it (BMI2, AVX-512), AVX2 with any x86 back end,
    /// the portable code with all. (Whether the CPU has the features is [`Extraction::supported`].)
    pub fn within(self, backend: othello_rules::movegen::Backend) -> bool {
        use othello_rules::movegen::Backend;
        match self {
            Extraction::Portable => true,
            Extraction::Bmi2 => matches!(backend, Backend::Bmi2 | Backend::Avx512),
            Extraction::Avx2 | Extraction::Avx2Loads => backend != Backend::Portable,
            Extraction::Avx512 => backend == Backend::Avx512,
        }
    }

    /// The first extraction of [`Extraction::PREFERENCE`] that `supported` accepts (the
    /// portable one if none), skipping the AVX2 gathers if they are slow.
    fn first_of(supported: impl Fn(Extraction) -> bool, slow_gathers: bool) -> Extraction {
        Extraction::PREFERENCE
            .into_iter()
            .filter(|&x| !(slow_gathers && x == Extraction::Avx2))
            .find(|&x| supported(x))
            .unwrap_or(Extraction::Portable)
    }
}

/// The pattern evaluation: weights per phase, scores in centi-discs for the side to move.
#[derive(Clone, Debug)]
pub struct PatternEval {
    /// The weights, phase by phase, and one 0 (see `PatternEval::new`).
    values: Arc<[i16]>,
    /// Start of each number of empties' phase in `values`.
    phase_base: [u32; 61],
    #[cfg_attr(
        not(target_arch = "x86_64"),
        allow(dead_code, reason = "read by the x86-64 extractions")
    )]
    insts: Arc<[Inst]>,
    groups: &'static extract::Groups,
    mobility: u32,
    globals: u32,
    scale: i32,
    extraction: Extraction,
    /// The cut table of selective search, if any.
    cuts: Option<Arc<CutTable>>,
}

impl Default for PatternEval {
    /// The embedded default weights.
    fn default() -> PatternEval {
        static DEFAULT: OnceLock<PatternEval> = OnceLock::new();
        DEFAULT
            .get_or_init(|| {
                let w = Weights::from_bytes(DEFAULT_WEIGHTS).expect("the embedded weights are checked by a test");
                PatternEval::new(&w)
            })
            .clone()
    }
}

/// The eight images of a bitboard, in [`Symmetry::ALL`] order. Three costly transforms (the
/// column mirror twice and the transpose once); the other images are byte swaps of those
/// (a row mirror is a byte swap): rot180 = v(h), rot270 = v(d), rot90 = h(d), anti = v(h(d)).
#[inline(always)]
fn images(b: u64) -> [u64; 8] {
    let h = Symmetry::FlipHorizontal.apply8(b);
    let d = Symmetry::FlipDiagonal.apply8(b);
    let hd = Symmetry::FlipHorizontal.apply8(d);
    // Identity, FlipVertical, FlipHorizontal, FlipDiagonal, FlipAntiDiagonal, Rotate90,
    // Rotate180, Rotate270.
    [
        b,
        b.swap_bytes(),
        h,
        d,
        hd.swap_bytes(),
        hd,
        h.swap_bytes(),
        d.swap_bytes(),
    ]
}

/// Portable parallel bit extract.
#[inline(always)]
fn pext_soft(x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask ^= low;
    }
    out
}

#[inline(always)]
fn ternary(p: u64, o: u64) -> u32 {
    u32::from(B2T[p as usize & 1023]) + 2 * u32::from(B2T[o as usize & 1023])
}

impl PatternEval {
    /// An evaluator with these weights, and their cut table for selective search when the
    /// file has one (the section [`weights::CUTS_TAG`], checked when the file was read; a
    /// section that is not a cut table, possible only through [`Weights::with_section`], is
    /// left out).
    pub fn new(weights: &Weights) -> PatternEval {
        let per = weights::per_phase() as u32;
        let mut phase_base = [0u32; 61];
        for (e, b) in phase_base.iter_mut().enumerate() {
            *b = weights.phase_of(e as u32) * per;
        }
        let insts: Vec<Inst> = layout()
            .instances
            .iter()
            .map(|i| Inst {
                sym: i.sym,
                mask: i.mask,
                offset: i.offset,
            })
            .collect();
        // One entry past the last phase: the vector extractions read each table entry as 4
        // bytes (a 32-bit gather lane), the last global entry of the last phase too.
        let values: Vec<i16> = weights.values().iter().copied().chain([0]).collect();
        PatternEval {
            values: values.into(),
            phase_base,
            insts: insts.into(),
            groups: groups(),
            mobility: layout().mobility,
            globals: layout().globals,
            scale: weights.scale() as i32,
            extraction: Extraction::best(),
            cuts: weights
                .section(weights::CUTS_TAG)
                .and_then(|b| CutTable::from_bytes(b).ok())
                .map(Arc::new),
        }
    }

    /// The same evaluator with another cut table for selective search (returned by
    /// [`Evaluator::cut_table`]). Weights files carry their own (`othello-train cuts` fits one
    /// and writes it into the file).
    #[must_use]
    pub fn with_cut_table(mut self, cuts: CutTable) -> PatternEval {
        self.cuts = Some(Arc::new(cuts));
        self
    }

    /// Loads a weights file.
    ///
    /// # Errors
    /// See [`Weights::from_path`].
    pub fn from_path(path: impl AsRef<std::path::Path>) -> Result<PatternEval, WeightsError> {
        Ok(PatternEval::new(&Weights::from_path(path)?))
    }

    /// `Ok` for 8x8; the typed refusal of other sizes.
    ///
    /// # Errors
    /// [`UnsupportedSize`] for 4x4 and 6x6.
    pub fn check_size(size: BoardSize) -> Result<(), UnsupportedSize> {
        if size == BoardSize::Eight {
            Ok(())
        } else {
            Err(UnsupportedSize(size))
        }
    }

    /// The same evaluator with another index extraction (for tests and benchmarks); `None`
    /// if this CPU cannot run it.
    pub fn with_extraction(mut self, extraction: Extraction) -> Option<PatternEval> {
        extraction.supported().then(|| {
            self.extraction = extraction;
            self
        })
    }

    /// The index extraction in use (the fastest this CPU supports, unless changed).
    pub fn extraction(&self) -> Extraction {
        self.extraction
    }

    /// Out of line: inlined into [`PatternEval::raw`] it gave every extraction's call the
    /// portable code's stack frame and saved registers (about 25 instructions per evaluation,
    /// measured 2026-12-01 on the Intel Xeon: docs/history/benchmarks-2026.md).
    #[inline(never)]
    fn sum_portable(&self, base: usize, player: u64, opponent: u64, mine: Option<u64>) -> i32 {
        let w = &self.values[base..];
        let idx = self.groups.indices_portable(player, opponent);
        let (mine, theirs) = legal_moves_both(player, opponent, mine);
        self.sum_groups(w, &idx) + self.mobility_terms(w, player, opponent, mine, theirs)
    }

    /// The phase constant plus each group's table entry.
    #[inline(always)]
    fn sum_groups(&self, w: &[i16], idx: &[u16]) -> i32 {
        let mut sum = i32::from(w[0]);
        for (&off, &i) in self.groups.offset.iter().zip(&idx[..extract::GROUPS]) {
            sum += i32::from(w[off as usize + usize::from(i)]);
        }
        sum
    }

    /// With AVX-512: the groups' entries by three 16-lane gathers, the mobility and global
    /// features' entries and the phase constant by one 8-lane gather, summed together.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vl,avx512vpopcntdq,avx2,popcnt")]
    fn sum_avx512(&self, base: usize, player: u64, opponent: u64, mine: Option<u64>) -> i32 {
        use othello_rules::movegen::x86::legal_moves_avx2;
        use std::arch::x86_64::*;
        let w = &self.values[base..];
        let groups = self.groups.lanes_avx512(w, player, opponent);
        let mine = mine.unwrap_or_else(|| legal_moves_avx2(player, opponent));
        let theirs = legal_moves_avx2(opponent, player);
        let counts =
            extract::Groups::extra_counts_avx512(player, opponent, mine, theirs, mobility_entries(mine, theirs));
        let extra = self.groups.extra_lanes_avx2(w, counts);
        _mm512_reduce_add_epi32(_mm512_add_epi32(groups, _mm512_zextsi256_si512(extra)))
    }

    /// With AVX2: the groups' entries by six 8-lane gathers (or scalar reads with `loads`),
    /// the mobility and global features' entries and the phase constant by one more.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    fn sum_avx2(&self, base: usize, player: u64, opponent: u64, mine: Option<u64>, loads: bool) -> i32 {
        use othello_rules::movegen::x86::legal_moves_avx2;
        use std::arch::x86_64::*;
        let w = &self.values[base..];
        let mine = mine.unwrap_or_else(|| legal_moves_avx2(player, opponent));
        let theirs = legal_moves_avx2(opponent, player);
        let counts = extract::Groups::extra_counts_avx2(player, opponent, mine, theirs, mobility_entries(mine, theirs));
        if loads {
            self.groups.sum_avx2_loads(w, player, opponent) + self.groups.extra_sum_avx2_loads(w, counts)
        } else {
            let groups = self.groups.lanes_avx2(w, player, opponent);
            extract::hsum_avx2(_mm256_add_epi32(groups, self.groups.extra_lanes_avx2(w, counts)))
        }
    }

    /// The mobility and global-feature entries, from the legal moves `mine` and `theirs`
    /// (the portable and BMI2 extractions).
    #[inline(always)]
    fn mobility_terms(&self, w: &[i16], player: u64, opponent: u64, mine: u64, theirs: u64) -> i32 {
        let (m, t) = mobility_entries(mine, theirs);
        let mut sum = i32::from(w[(self.mobility + m) as usize]) + i32::from(w[(self.mobility + t) as usize]);
        // Overlapping bitboards (never a position) read as the player, as in every extraction.
        for g in set::global_entries(player, opponent & !player, mine, theirs) {
            sum += i32::from(w[(self.globals + g) as usize]);
        }
        sum
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn sum_bmi2(&self, base: usize, player: u64, opponent: u64, mine: Option<u64>) -> i32 {
        use std::arch::x86_64::_pext_u64;
        let w = &self.values[base..];
        // Overlapping bitboards (never a position) read as the player, as in every extraction.
        let (ps, os) = (images(player), images(opponent & !player));
        let mut sum = i32::from(w[0]);
        for i in self.insts.iter() {
            let s = i.sym as usize;
            let idx = i.offset + ternary(_pext_u64(ps[s], i.mask), _pext_u64(os[s], i.mask));
            sum += i32::from(w[idx as usize]);
        }
        let (mine, theirs) = legal_moves_both(player, opponent, mine);
        sum + self.mobility_terms(w, player, opponent, mine, theirs)
    }

    /// The weighted sum in weight units (before scaling), for an 8x8 position.
    fn raw(&self, pos: &Position) -> i32 {
        self.raw_of(pos.player().0, pos.opponent().0, pos.empty_count())
    }

    /// The weighted sum for these bitboards, in the phase of `empties`.
    fn raw_of(&self, p: u64, o: u64, empties: u32) -> i32 {
        self.raw_with(p, o, empties, None)
    }

    /// [`PatternEval::raw_of`], given the side to move's legal squares `mine` when the caller
    /// has them (else computed here).
    #[inline]
    fn raw_with(&self, p: u64, o: u64, empties: u32, mine: Option<u64>) -> i32 {
        let base = self.phase_base[empties.min(60) as usize] as usize;
        match self.extraction {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Avx512` is chosen only when the CPU reports AVX-512 F/BW/VBMI/VL/VPOPCNTDQ,
            // AVX2 and POPCNT (`Extraction::supported`).
            Extraction::Avx512 => unsafe { self.sum_avx512(base, p, o, mine) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Avx2` is chosen only when the CPU reports AVX2 and POPCNT
            // (`Extraction::supported`).
            Extraction::Avx2 => unsafe { self.sum_avx2(base, p, o, mine, false) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as for `Avx2`.
            Extraction::Avx2Loads => unsafe { self.sum_avx2(base, p, o, mine, true) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Bmi2` is chosen only when the CPU reports BMI2 (`Extraction::supported`).
            Extraction::Bmi2 => unsafe { self.sum_bmi2(base, p, o, mine) },
            _ => self.sum_portable(base, p, o, mine),
        }
    }
}

/// Both sides' legal squares, the side to move's from `mine` when given.
#[inline(always)]
fn legal_moves_both(player: u64, opponent: u64, mine: Option<u64>) -> (u64, u64) {
    match mine {
        Some(mine) => (mine, othello_rules::movegen::legal_moves(opponent, player)),
        None => othello_rules::movegen::legal_moves_both(player, opponent),
    }
}

impl PatternEval {
    /// A weighted sum in centi-discs: scaled, clamped to the disc range.
    #[inline(always)]
    fn centi_discs(&self, raw: i32) -> i32 {
        let cd = if self.scale == 100 {
            raw
        } else {
            (i64::from(raw) * 100 / i64::from(self.scale)) as i32
        };
        cd.clamp(-6400, 6400)
    }
}

fn has_avx512() -> bool {
    let f = othello_rules::movegen::cpu_features();
    f.avx512f && f.avx512bw && f.avx512vbmi && f.avx512vl && f.avx512vpopcntdq && f.avx2 && f.popcnt
}

fn has_avx2() -> bool {
    let f = othello_rules::movegen::cpu_features();
    f.avx2 && f.popcnt
}

/// Whether the CPU's gathers are microcoded, so that scalar table reads are faster (the rules
/// crate's [`gathers_microcoded`](othello_rules::movegen::gathers_microcoded): AMD and Hygon).
/// Not measured here (docs/pattern.md); the `pattern` bench measures both ways.
fn slow_gathers() -> bool {
    othello_rules::movegen::gathers_microcoded()
}

fn has_bmi2() -> bool {
    othello_rules::movegen::cpu_features().bmi2
}

/// The mobility entries (relative to the mobility tables) of the side to move and its opponent,
/// from their legal moves: the one place the mobility cap is applied.
#[inline(always)]
fn mobility_entries(mine: u64, theirs: u64) -> (u32, u32) {
    let cap = set::MOBILITY_CAP - 1;
    (
        mine.count_ones().min(cap),
        set::MOBILITY_CAP + theirs.count_ones().min(cap),
    )
}

/// The feature indices of an 8x8 position within its phase's weights (for the fit): the phase
/// constant (index 0), then one table entry per pattern instance.
pub fn feature_indices(pos: &Position) -> [u32; FEATURES] {
    let mut out = [0u32; FEATURES];
    let (ps, os) = (images(pos.player().0), images(pos.opponent().0));
    for (slot, i) in out[1..].iter_mut().zip(&layout().instances) {
        let s = i.sym as usize;
        *slot = i.offset + ternary(pext_soft(ps[s], i.mask), pext_soft(os[s], i.mask));
    }
    let (p, o) = (pos.player().0, pos.opponent().0);
    let (moves, their_moves) = othello_rules::movegen::legal_moves_both(p, o);
    let (mine, theirs) = mobility_entries(moves, their_moves);
    let globals = set::GLOBALS.len();
    out[FEATURES - globals - 2] = layout().mobility + mine;
    out[FEATURES - globals - 1] = layout().mobility + theirs;
    for (slot, g) in out[FEATURES - globals..]
        .iter_mut()
        .zip(set::global_entries(p, o & !p, moves, their_moves))
    {
        *slot = layout().globals + g;
    }
    out
}

impl Evaluator for PatternEval {
    /// Centi-discs for the side to move. On a board other than 8x8 (which engine builders
    /// refuse with [`PatternEval::check_size`]) the disc difference x100.
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        if pos.size() != BoardSize::Eight {
            return pos.disc_difference() * 100;
        }
        self.centi_discs(self.raw(pos))
    }

    /// [`Evaluator::evaluate`] without computing the side to move's legal squares again.
    #[inline(always)]
    fn evaluate_with_moves(&self, pos: &Position, moves: u64) -> i32 {
        if pos.size() != BoardSize::Eight {
            return pos.disc_difference() * 100;
        }
        self.centi_discs(self.raw_with(pos.player().0, pos.opponent().0, pos.empty_count(), Some(moves)))
    }

    /// The cut table of the weights file or of [`PatternEval::with_cut_table`] (the default evaluator's
    /// embedded one). It is fitted on 8x8; the search is full-width on other sizes.
    fn cut_table(&self) -> Option<&CutTable> {
        self.cuts.as_deref()
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod image_tests {
    use super::*;

    #[test]
    fn images_are_the_eight_symmetries() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let want: Vec<u64> = Symmetry::ALL.iter().map(|s| s.apply8(x)).collect();
            assert_eq!(images(x).to_vec(), want);
        }
    }
}
