//! `explore`: measures model variants of the fit without writing a weights file. For the
//! exact phases only (the bootstrap is left out), each variant is fitted as `fit` does it
//! (ridge least squares by conjugate gradients per phase, on the non-held-out rows within
//! `margin` empties, optionally with the prior towards the previous phase) and scored in
//! floating point on the held-out games and on any number of test labels files (every label
//! of those counts). A variant may add small global features beside the patterns, each a table
//! of its own per phase, so their worth is measured before the evaluator pays for them.

use crate::data::Row;
use crate::fit_pattern::phase_empties;
use crate::lstsq::ridge_cg;
use othello_eval::stable_discs;
use othello_pattern::set::ternary_index;
use othello_pattern::{FEATURES, feature_indices, layout};
use othello_rules::movegen::legal_moves_both;
use othello_rules::{BoardSize, Square, Symmetry, neighbours};

/// The most squares an extra pattern may read (a table of `3^10` = 59 049 entries).
pub const MAX_PATTERN_SQUARES: usize = 10;

/// An extra pattern of a variant: squares read in their order, in base 3 as the pattern set's
/// tables are ([`ternary_index`]), on every distinct image of the ordered list under the eight
/// board symmetries. All images share one table of `3^len` entries (a pattern that a symmetry
/// maps onto itself in another order is read in both orders, which ties the mirrored entries).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtraPattern {
    /// The distinct images, the squares as given first; `len` squares of each are used.
    images: [[u8; MAX_PATTERN_SQUARES]; 8],
    /// How many of `images` are distinct.
    count: u8,
    len: u8,
}

impl ExtraPattern {
    /// Parses squares joined by `.`, such as `a1.b1.c1.a2.b2`: 1 to [`MAX_PATTERN_SQUARES`]
    /// distinct squares.
    pub fn parse(s: &str) -> Result<ExtraPattern, String> {
        let mut squares = [0u8; MAX_PATTERN_SQUARES];
        let mut len = 0;
        let mut seen = 0u64;
        for name in s.split('.') {
            let sq: Square = name
                .parse()
                .map_err(|_| format!("bad square {name:?} in pattern {s:?}"))?;
            if seen & sq.bit() != 0 {
                return Err(format!("square {name} twice in pattern {s:?}"));
            }
            if len == MAX_PATTERN_SQUARES {
                return Err(format!("pattern {s:?} has more than {MAX_PATTERN_SQUARES} squares"));
            }
            seen |= sq.bit();
            squares[len] = sq.index() as u8;
            len += 1;
        }
        let mut p = ExtraPattern {
            images: [[0; MAX_PATTERN_SQUARES]; 8],
            count: 0,
            len: len as u8,
        };
        for sym in Symmetry::ALL {
            let mut image = [0u8; MAX_PATTERN_SQUARES];
            for (i, &q) in squares[..len].iter().enumerate() {
                image[i] = sym.apply8(1u64 << q).trailing_zeros() as u8;
            }
            if !p.images[..p.count as usize].contains(&image) {
                p.images[p.count as usize] = image;
                p.count += 1;
            }
        }
        Ok(p)
    }

    /// The squares, in reading order.
    pub fn squares(&self) -> &[u8] {
        &self.images[0][..self.len as usize]
    }

    /// Entries of its table: `3^len`.
    pub fn entries(&self) -> u32 {
        3u32.pow(u32::from(self.len))
    }

    /// The distinct images of the ordered square list, in [`Symmetry::ALL`] order of their
    /// first appearance (found once, when the pattern is parsed).
    pub fn images(&self) -> impl Iterator<Item = &[u8]> + '_ {
        self.images[..self.count as usize]
            .iter()
            .map(|i| &i[..self.len as usize])
    }
}

/// A global feature that a variant may add to the patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    /// Potential mobility: empties next to an opponent disc (side to move), and next to a
    /// disc of the side to move (opponent): two tables of 64.
    PotentialMobility,
    /// Frontier: discs next to an empty square, per side: two tables of 65.
    Frontier,
    /// Quadrants with an odd number of empties (0-4): a table of 5.
    QuadrantParity,
    /// Connected empty regions (8-neighbourhood) of odd size, at most 15: a table of 16.
    RegionParity,
    /// Stable discs (as the hand-feature stability finds them) per side: two tables of 65.
    Stable,
    /// Discs of the side to move (0-64): a table of 65.
    Discs,
    /// The pair (own moves, opponent moves), each capped at 15: a table of 256.
    MobilityPair,
    /// Corner moves of each side (0-2 each, capped): a table of 9.
    CornerMoves,
    /// Odd empty regions by who can play in them (side to move can / only the opponent can /
    /// neither), each count capped at 3: a table of 64.
    RegionAccess,
    /// Odd quadrants by who can play in them: (side to move can, only the opponent can),
    /// 0-4 each: a table of 25.
    QuadrantAccess,
    /// The pair of potential mobilities, each capped at 31: a table of 1024.
    PotentialPair,
    /// An extra pattern (`pat:a1.b1.c1...`): one table shared by its images.
    Pattern(ExtraPattern),
}

impl Extra {
    /// Parses a feature name, or `pat:` and an extra pattern's squares ([`ExtraPattern::parse`]).
    pub fn parse(s: &str) -> Result<Extra, String> {
        if let Some(squares) = s.strip_prefix("pat:") {
            return ExtraPattern::parse(squares).map(Extra::Pattern);
        }
        Ok(match s {
            "pmob" => Extra::PotentialMobility,
            "frontier" => Extra::Frontier,
            "qpar" => Extra::QuadrantParity,
            "rpar" => Extra::RegionParity,
            "stable" => Extra::Stable,
            "discs" => Extra::Discs,
            "mobpair" => Extra::MobilityPair,
            "cmob" => Extra::CornerMoves,
            "rpar2" => Extra::RegionAccess,
            "qpar2" => Extra::QuadrantAccess,
            "pmob2" => Extra::PotentialPair,
            _ => return Err(format!("unknown feature {s:?}")),
        })
    }

    /// Sizes of its tables.
    fn tables(self) -> Vec<u32> {
        match self {
            Extra::Pattern(p) => vec![p.entries()],
            Extra::PotentialMobility => vec![64, 64],
            Extra::Frontier | Extra::Stable => vec![65, 65],
            Extra::QuadrantParity => vec![5],
            Extra::RegionParity => vec![16],
            Extra::Discs => vec![65],
            Extra::MobilityPair => vec![256],
            Extra::CornerMoves => vec![9],
            Extra::RegionAccess => vec![64],
            Extra::QuadrantAccess => vec![25],
            Extra::PotentialPair => vec![1024],
        }
    }

    /// The table (an index into [`Extra::tables`]) of each value that [`Extra::values`] pushes:
    /// one value per table, except for a pattern, whose images all go to its one table.
    fn slots(self) -> Vec<usize> {
        match self {
            Extra::Pattern(p) => vec![0; p.images().count()],
            e => (0..e.tables().len()).collect(),
        }
    }

    /// The entry of each of its tables for a position.
    fn values(self, p: u64, o: u64, out: &mut Vec<u32>) {
        let empty = !(p | o);
        match self {
            Extra::Pattern(pattern) => {
                for image in pattern.images() {
                    out.push(ternary_index(image.iter().map(|&q| u32::from(q)), p, o));
                }
            }
            Extra::PotentialMobility => {
                out.push((empty & neighbours(o)).count_ones().min(63));
                out.push((empty & neighbours(p)).count_ones().min(63));
            }
            Extra::Frontier => {
                out.push((p & neighbours(empty)).count_ones());
                out.push((o & neighbours(empty)).count_ones());
            }
            Extra::QuadrantParity => {
                let q = [0x0f0f_0f0fu64, 0xf0f0_f0f0, 0x0f0f_0f0f << 32, 0xf0f0_f0f0 << 32];
                out.push(q.iter().filter(|&&m| (empty & m).count_ones() % 2 == 1).count() as u32);
            }
            Extra::RegionParity => {
                let odd = regions(empty).filter(|r| r.count_ones() % 2 == 1).count() as u32;
                out.push(odd.min(15));
            }
            Extra::PotentialPair => {
                let a = (empty & neighbours(o)).count_ones().min(31);
                let b = (empty & neighbours(p)).count_ones().min(31);
                out.push(a * 32 + b);
            }
            Extra::QuadrantAccess => {
                let (m, t) = legal_moves_both(p, o);
                let q = [0x0f0f_0f0fu64, 0xf0f0_f0f0, 0x0f0f_0f0f << 32, 0xf0f0_f0f0 << 32];
                let (mut a, mut b) = (0, 0);
                for mask in q.iter().filter(|&&m| (empty & m).count_ones() % 2 == 1) {
                    if m & mask != 0 {
                        a += 1;
                    } else if t & mask != 0 {
                        b += 1;
                    }
                }
                out.push(a * 5 + b);
            }
            Extra::RegionAccess => {
                let (m, t) = legal_moves_both(p, o);
                let mut c = [0u32; 3];
                for r in regions(empty).filter(|r| r.count_ones() % 2 == 1) {
                    let k = if r & m != 0 {
                        0
                    } else if r & t != 0 {
                        1
                    } else {
                        2
                    };
                    c[k] += 1;
                }
                out.push(c[0].min(3) * 16 + c[1].min(3) * 4 + c[2].min(3));
            }
            Extra::Stable => {
                let s = stable_discs(p, o, BoardSize::Eight);
                out.push((s & p).count_ones());
                out.push((s & o).count_ones());
            }
            Extra::Discs => out.push(p.count_ones()),
            Extra::MobilityPair => {
                let (m, t) = legal_moves_both(p, o);
                out.push(m.count_ones().min(15) * 16 + t.count_ones().min(15));
            }
            Extra::CornerMoves => {
                let c = 0x8100_0000_0000_0081u64;
                let (m, t) = legal_moves_both(p, o);
                out.push((m & c).count_ones().min(2) * 3 + (t & c).count_ones().min(2));
            }
        }
    }
}

/// The connected (8-neighbourhood) regions of `empty`.
fn regions(empty: u64) -> impl Iterator<Item = u64> {
    let mut left = empty;
    std::iter::from_fn(move || {
        if left == 0 {
            return None;
        }
        let mut r = left & left.wrapping_neg();
        loop {
            let g = (r | neighbours(r)) & empty;
            if g == r {
                break;
            }
            r = g;
        }
        left &= !r;
        Some(r)
    })
}

/// One variant of the model.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Phases (1 to 61).
    pub phases: u32,
    /// Margin in empties.
    pub margin: u32,
    /// Ridge on the pattern weights.
    pub ridge: f64,
    /// CG iterations.
    pub iterations: usize,
    /// Prior towards the previous phase.
    pub prior: bool,
    /// Global features added.
    pub extras: Vec<Extra>,
    /// Fit only the phases that start at or below this many empties.
    pub max_empties: u32,
}

impl Variant {
    /// Parses `phases=15,margin=1,ridge=30,iter=150,prior=1,extra=pmob+qpar,max=20`.
    pub fn parse(s: &str) -> Result<Variant, String> {
        let mut v = Variant {
            phases: 15,
            margin: 1,
            ridge: 30.0,
            iterations: 150,
            prior: true,
            extras: Vec::new(),
            max_empties: 20,
        };
        for kv in s.split(',').filter(|x| !x.is_empty()) {
            let (k, val) = kv.split_once('=').ok_or(format!("bad variant part {kv:?}"))?;
            let bad = || format!("bad value in {kv:?}");
            match k {
                "phases" => v.phases = val.parse().map_err(|_| bad())?,
                "margin" => v.margin = val.parse().map_err(|_| bad())?,
                "ridge" => v.ridge = val.parse().map_err(|_| bad())?,
                "iter" => v.iterations = val.parse().map_err(|_| bad())?,
                "prior" => v.prior = val == "1",
                "max" => v.max_empties = val.parse().map_err(|_| bad())?,
                "extra" => {
                    v.extras = val
                        .split('+')
                        .filter(|x| !x.is_empty())
                        .map(Extra::parse)
                        .collect::<Result<_, _>>()?
                }
                _ => return Err(format!("unknown variant key {k:?}")),
            }
        }
        if !(1..=61).contains(&v.phases) {
            return Err(format!("bad phases {}", v.phases));
        }
        Ok(v)
    }
}

/// The rows of one set of labels: pattern indices (canonical), targets, empties.
pub struct Rows {
    /// `FEATURES` indices per row.
    pub idx: Vec<u32>,
    /// Target in centi-discs.
    pub target: Vec<f64>,
    /// Empties.
    pub empties: Vec<u32>,
    /// Held out (or a test set row).
    pub test: Vec<bool>,
    /// The bitboards (player, opponent).
    pub boards: Vec<(u64, u64)>,
}

impl Rows {
    /// The rows of a fit's rows ([`crate::data::rows`]); `all_test`: every row is a test row
    /// (a test file), else the rows' own split.
    pub fn new(labels: &[Row], all_test: bool) -> Rows {
        let canonical = &layout().canonical;
        let mut r = Rows {
            idx: Vec::with_capacity(labels.len() * FEATURES),
            target: Vec::with_capacity(labels.len()),
            empties: Vec::with_capacity(labels.len()),
            test: Vec::with_capacity(labels.len()),
            boards: Vec::with_capacity(labels.len()),
        };
        for l in labels {
            r.idx
                .extend(feature_indices(&l.pos).iter().map(|&i| canonical[i as usize]));
            r.target.push(l.target);
            r.empties.push(l.pos.empty_count());
            r.test.push(all_test || l.test);
            r.boards.push((l.pos.player().0, l.pos.opponent().0));
        }
        r
    }

    fn len(&self) -> usize {
        self.target.len()
    }

    /// The extra indices (absolute, after the pattern weights) of every row, `k` per row.
    fn extras(&self, extras: &[Extra]) -> (Vec<u32>, usize, usize) {
        let per = layout().per_phase as u32;
        let sizes: Vec<u32> = extras.iter().flat_map(|e| e.tables()).collect();
        let bases: Vec<u32> = sizes
            .iter()
            .scan(per, |base, &s| {
                let b = *base;
                *base += s;
                Some(b)
            })
            .collect();
        // The table of each value, counting the tables of every extra in order.
        let mut slots = Vec::new();
        let mut first = 0;
        for e in extras {
            slots.extend(e.slots().into_iter().map(|s| first + s));
            first += e.tables().len();
        }
        let k = slots.len();
        let total: u32 = sizes.iter().sum();
        let mut out = Vec::with_capacity(self.len() * k);
        let mut vals = Vec::with_capacity(k);
        for &(p, o) in &self.boards {
            vals.clear();
            for e in extras {
                e.values(p, o, &mut vals);
            }
            debug_assert_eq!(vals.len(), k);
            for (&v, &t) in vals.iter().zip(&slots) {
                // Every feature caps its own counts (`values`), so a value past its table is a
                // bug, not a count to clamp.
                assert!(v < sizes[t], "{:?}: {v} past a table of {}", extras, sizes[t]);
                out.push(bases[t] + v);
            }
        }
        (out, k, per as usize + total as usize)
    }
}

/// Squared error sums per empties (0-60): (n, sum of squared errors in discs^2).
pub type ByEmpties = Vec<(usize, f64)>;

/// Fits a variant; returns the squared errors by empties for the held-out rows of `train`
/// and for each of `tests`.
pub fn run(v: &Variant, train: &Rows, tests: &[&Rows], mut log: impl FnMut(&str)) -> Vec<ByEmpties> {
    let (tx, k, n) = train.extras(&v.extras);
    let test_x: Vec<(Vec<u32>, usize, usize)> = tests.iter().map(|t| t.extras(&v.extras)).collect();
    let per = layout().per_phase;
    let canonical = &layout().canonical;
    let mut results: Vec<ByEmpties> = vec![vec![(0, 0.0); 61]; tests.len() + 1];
    let mut previous = vec![0.0f64; n];
    let row_idx = |rows: &Rows, x: &[u32], i: usize| -> Vec<u32> {
        let mut v: Vec<u32> = rows.idx[i * FEATURES..(i + 1) * FEATURES].to_vec();
        v.extend_from_slice(&x[i * k..(i + 1) * k]);
        v
    };
    for p in 0..v.phases {
        let empties = phase_empties(p, v.phases);
        let (lo, hi) = (empties[0], *empties.last().expect("a phase has empties"));
        if lo > v.max_empties {
            break;
        }
        let (lo_m, hi_m) = (lo.saturating_sub(v.margin), hi + v.margin);
        let sel: Vec<usize> = (0..train.len())
            .filter(|&i| !train.test[i] && (lo_m..=hi_m).contains(&train.empties[i]))
            .collect();
        let width = FEATURES + k;
        let mut xs = Vec::with_capacity(sel.len() * width);
        let mut ys = Vec::with_capacity(sel.len());
        let prior = if v.prior { previous.clone() } else { vec![0.0; n] };
        for &i in &sel {
            let r = row_idx(train, &tx, i);
            let pred: f64 = r.iter().map(|&j| prior[j as usize]).sum();
            ys.push(train.target[i] - pred);
            xs.extend(r);
        }
        let w = ridge_cg(n, || xs.chunks_exact(width), ys.iter().copied(), v.ridge, v.iterations);
        // Tied pattern entries take their representative's value; the extras are their own.
        let mut full: Vec<f64> = (0..n)
            .map(|j| {
                let c = if j < per { canonical[j] as usize } else { j };
                w[c] + prior[c]
            })
            .collect();
        // Quantise as the file does (centi-discs, i16).
        for x in &mut full {
            *x = x.round().clamp(-32768.0, 32767.0);
        }
        let score = |rows: &Rows, x: &[u32], out: &mut ByEmpties| {
            for i in 0..rows.len() {
                if !rows.test[i] || !(lo..=hi).contains(&rows.empties[i]) {
                    continue;
                }
                let pred: f64 = row_idx(rows, x, i).iter().map(|&j| full[j as usize]).sum();
                let d = (pred - rows.target[i]) / 100.0;
                let e = &mut out[rows.empties[i] as usize];
                e.0 += 1;
                e.1 += d * d;
            }
        };
        score(train, &tx, &mut results[0]);
        for (j, t) in tests.iter().enumerate() {
            let (x, _, _) = &test_x[j];
            score(t, x, &mut results[j + 1]);
        }
        let band = |r: &ByEmpties| {
            let (n, s) = (lo..=hi).fold((0, 0.0), |a, e| (a.0 + r[e as usize].0, a.1 + r[e as usize].1));
            (s / n.max(1) as f64).sqrt()
        };
        log(&format!(
            "  phase {p} ({lo}-{hi}): {} train rows, held-out RMS {:.3}{}",
            sel.len(),
            band(&results[0]),
            (1..results.len())
                .map(|j| format!(", test {j} {:.3}", band(&results[j])))
                .collect::<String>()
        ));
        previous = full;
    }
    results
}

/// RMS in discs over empties `lo..=hi`.
pub fn band_rms(r: &ByEmpties, lo: usize, hi: usize) -> (usize, f64) {
    let (n, s) = r[lo..=hi].iter().fold((0, 0.0), |a, e| (a.0 + e.0, a.1 + e.1));
    (n, (s / n.max(1) as f64).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_rules::random::random_game;
    use othello_rules::reference::Grid;
    use othello_rules::{Bitboard, Color, Position};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// The eight neighbours of a cell that are on the board.
    fn around(c: i32, r: i32) -> impl Iterator<Item = (i32, i32)> {
        (-1..=1)
            .flat_map(move |dc| (-1..=1).map(move |dr| (c + dc, r + dr)))
            .filter(move |&(x, y)| (x, y) != (c, r) && (0..8).contains(&x) && (0..8).contains(&y))
    }

    /// A slow reading of every global feature, cell by cell on coordinates: each is written from
    /// its definition in [`Extra`], with the legal moves of the rules crate's reference and the
    /// regions by a flood fill over cells. Stability has no cheap definition to check against
    /// (the eval crate tests it against play); its two counts are taken from `stable_discs`.
    fn reference_values(e: Extra, p: u64, o: u64) -> Vec<u32> {
        // The side to move as black, its opponent as white.
        let pos = Position::from_side_relative(Bitboard(p), Bitboard(o), Color::Black, BoardSize::Eight)
            .expect("disjoint boards");
        let grid = Grid::from_position(&pos);
        // 0 empty, 1 the side to move, 2 the opponent.
        let cell = |c: i32, r: i32| match grid.cells[(8 * r + c) as usize] {
            Some(Color::Black) => 1u32,
            Some(Color::White) => 2,
            None => 0,
        };
        let all: Vec<(i32, i32)> = (0..8).flat_map(|r| (0..8).map(move |c| (c, r))).collect();
        let next_to = |c: i32, r: i32, v: u32| around(c, r).any(|(x, y)| cell(x, y) == v);
        let count = |f: &dyn Fn(i32, i32) -> bool| all.iter().filter(|&&(c, r)| f(c, r)).count() as u32;
        let own_moves = grid.moves_for(Color::Black);
        let their_moves = grid.moves_for(Color::White);
        let quadrant = |c: i32, r: i32| (c / 4 + 2 * (r / 4)) as usize;
        // Regions: the cells of each connected group of empty cells.
        let mut region = vec![usize::MAX; 64];
        let mut regions: Vec<Vec<(i32, i32)>> = Vec::new();
        for &(c, r) in &all {
            if cell(c, r) != 0 || region[(8 * r + c) as usize] != usize::MAX {
                continue;
            }
            let id = regions.len();
            let mut cells = vec![(c, r)];
            region[(8 * r + c) as usize] = id;
            let mut i = 0;
            while i < cells.len() {
                let (x, y) = cells[i];
                for (u, v) in around(x, y) {
                    if cell(u, v) == 0 && region[(8 * v + u) as usize] == usize::MAX {
                        region[(8 * v + u) as usize] = id;
                        cells.push((u, v));
                    }
                }
                i += 1;
            }
            regions.push(cells);
        }
        let odd_regions: Vec<&Vec<(i32, i32)>> = regions.iter().filter(|r| r.len() % 2 == 1).collect();
        let odd_quadrants: Vec<usize> = (0..4)
            .filter(|&q| count(&|c, r| cell(c, r) == 0 && quadrant(c, r) == q) % 2 == 1)
            .collect();
        let pmob = (
            count(&|c, r| cell(c, r) == 0 && next_to(c, r, 2)),
            count(&|c, r| cell(c, r) == 0 && next_to(c, r, 1)),
        );
        let corners = |moves: &[(i32, i32)]| {
            moves
                .iter()
                .filter(|&&(c, r)| (c == 0 || c == 7) && (r == 0 || r == 7))
                .count() as u32
        };
        match e {
            Extra::PotentialMobility => vec![pmob.0.min(63), pmob.1.min(63)],
            Extra::PotentialPair => vec![pmob.0.min(31) * 32 + pmob.1.min(31)],
            Extra::Frontier => vec![
                count(&|c, r| cell(c, r) == 1 && next_to(c, r, 0)),
                count(&|c, r| cell(c, r) == 2 && next_to(c, r, 0)),
            ],
            Extra::QuadrantParity => vec![odd_quadrants.len() as u32],
            Extra::QuadrantAccess => {
                let (mut a, mut b) = (0, 0);
                for &q in &odd_quadrants {
                    if own_moves.iter().any(|&(c, r)| quadrant(c, r) == q) {
                        a += 1;
                    } else if their_moves.iter().any(|&(c, r)| quadrant(c, r) == q) {
                        b += 1;
                    }
                }
                vec![a * 5 + b]
            }
            Extra::RegionParity => vec![(odd_regions.len() as u32).min(15)],
            Extra::RegionAccess => {
                let mut k = [0u32; 3];
                for r in &odd_regions {
                    let i = if own_moves.iter().any(|m| r.contains(m)) {
                        0
                    } else if their_moves.iter().any(|m| r.contains(m)) {
                        1
                    } else {
                        2
                    };
                    k[i] += 1;
                }
                vec![k[0].min(3) * 16 + k[1].min(3) * 4 + k[2].min(3)]
            }
            Extra::Stable => {
                let s = stable_discs(p, o, BoardSize::Eight);
                vec![(s & p).count_ones(), (s & o).count_ones()]
            }
            Extra::Discs => vec![count(&|c, r| cell(c, r) == 1)],
            Extra::MobilityPair => {
                vec![(own_moves.len() as u32).min(15) * 16 + (their_moves.len() as u32).min(15)]
            }
            Extra::CornerMoves => vec![corners(&own_moves).min(2) * 3 + corners(&their_moves).min(2)],
            Extra::Pattern(pattern) => pattern
                .images()
                .map(|image| {
                    image
                        .iter()
                        .rev()
                        .fold(0, |idx, &q| idx * 3 + cell(i32::from(q % 8), i32::from(q / 8)))
                })
                .collect(),
        }
    }

    /// Every extra feature equals its slow reading, within its tables, on the positions of
    /// random games and on random boards (which reach the caps: many small regions, many
    /// moves), and the counts that matter are seen both below and at their caps.
    #[test]
    fn extra_features_match_a_slow_reference() {
        let names = [
            "pmob",
            "frontier",
            "qpar",
            "rpar",
            "stable",
            "discs",
            "mobpair",
            "cmob",
            "rpar2",
            "qpar2",
            "pmob2",
            "pat:a1.b2.c3.b1.a2",
            "pat:d4.e4.d5.e5",
        ];
        let extras: Vec<Extra> = names.iter().map(|n| Extra::parse(n).unwrap()).collect();
        let mut rng = SmallRng::seed_from_u64(27);
        let mut boards = Vec::new();
        for _ in 0..60 {
            for pos in random_game(&Position::start(), &mut rng) {
                boards.push((pos.player().0, pos.opponent().0));
            }
        }
        for _ in 0..3000 {
            // Each square empty, own or the opponent's, with a density of empties that varies.
            let empty_share = rng.random_range(0.05..0.9);
            let (mut p, mut o) = (0u64, 0u64);
            for q in 0..64 {
                if rng.random_bool(empty_share) {
                    continue;
                }
                if rng.random_bool(0.5) {
                    p |= 1 << q;
                } else {
                    o |= 1 << q;
                }
            }
            boards.push((p, o));
        }
        // Sixteen single empty cells two apart, more odd regions than the tables count.
        let lattice = (0..64)
            .filter(|q| q % 2 == 0 && (q / 8) % 2 == 0)
            .fold(0u64, |m, q| m | 1 << q);
        for _ in 0..300 {
            let p = rng.random::<u64>() & !lattice;
            boards.push((p, !lattice & !p));
        }
        let mut seen: Vec<Vec<std::collections::BTreeSet<u32>>> = extras
            .iter()
            .map(|e| vec![Default::default(); e.tables().len()])
            .collect();
        for &(p, o) in &boards {
            for (e, seen) in extras.iter().zip(&mut seen) {
                let mut fast = Vec::new();
                e.values(p, o, &mut fast);
                assert_eq!(fast, reference_values(*e, p, o), "{e:?} on {p:#x} {o:#x}");
                let (tables, slots) = (e.tables(), e.slots());
                assert_eq!(slots.len(), fast.len(), "{e:?}");
                for (&v, &t) in fast.iter().zip(&slots) {
                    assert!(v < tables[t], "{e:?}: {v} past {}", tables[t]);
                    seen[t].insert(v);
                }
            }
        }
        let seen_of = |name: &str| &seen[names.iter().position(|n| *n == name).unwrap()];
        // The caps are reached: 15 odd regions, three of each access kind, 15 moves a side, two
        // corner moves a side, every quadrant odd.
        assert!(seen_of("rpar")[0].contains(&15));
        let access = &seen_of("rpar2")[0];
        assert!(
            access.iter().any(|v| v / 16 == 3)
                && access.iter().any(|v| v / 4 % 4 == 3)
                && access.iter().any(|v| v % 4 == 3),
            "{access:?}"
        );
        assert!(seen_of("mobpair")[0].contains(&255));
        assert!(seen_of("cmob")[0].contains(&8));
        assert!(seen_of("qpar")[0].contains(&4) && seen_of("qpar")[0].contains(&0));
        assert!(seen_of("pmob2")[0].iter().any(|v| v / 32 == 31));
        // Most values of the small tables occur.
        assert!(seen_of("qpar2")[0].len() >= 12, "{:?}", seen_of("qpar2"));
        assert!(seen_of("discs")[0].len() >= 40, "{:?}", seen_of("discs"));
        assert!(seen_of("stable")[0].len() >= 20 && seen_of("stable")[1].len() >= 20);
    }

    /// The variant text form, and the odd regions of a constructed board: two (a single empty
    /// corner and a group of three on the other side).
    #[test]
    fn variants_parse_and_features_count() {
        let v = Variant::parse("phases=30,margin=2,ridge=5,iter=7,prior=0,max=12,extra=pmob+qpar2").unwrap();
        assert_eq!(
            (v.phases, v.margin, v.iterations, v.prior, v.max_empties),
            (30, 2, 7, false, 12)
        );
        assert_eq!(v.extras, [Extra::PotentialMobility, Extra::QuadrantAccess]);
        assert!(Variant::parse("phases=0").is_err());
        assert!(Variant::parse("extra=nope").is_err());
        assert!(Variant::parse("colour=3").is_err());
        let empty = 1u64 | 0b111 << 61;
        let o = !empty;
        let mut out = Vec::new();
        Extra::RegionParity.values(0, o, &mut out);
        assert_eq!(out, [2]);
        assert_eq!(regions(empty).count(), 2);
    }

    /// Extra patterns: parsing and its errors, the distinct images, the base-3 reading of each
    /// image and where a row's values land among the tables.
    #[test]
    fn extra_patterns_read_every_image_into_one_table() {
        let v = Variant::parse("extra=pmob+pat:a1.b1").unwrap();
        let Extra::Pattern(pair) = v.extras[1] else {
            panic!("{:?}", v.extras)
        };
        assert_eq!(pair.squares(), [0, 1]);
        assert_eq!(pair.entries(), 9);
        for bad in [
            "pat:",
            "pat:a1.a1",
            "pat:a1.z9",
            "pat:a1.b1.c1.d1.e1.f1.g1.h1.a2.b2.c2",
            "pat:a1,b1",
        ] {
            assert!(Variant::parse(&format!("extra={bad}")).is_err(), "{bad}");
        }
        let ten = ExtraPattern::parse("a1.b1.c1.d1.e1.f1.g1.h1.a2.b2").unwrap();
        assert_eq!((ten.entries(), ten.images().count()), (59_049, 8));
        assert_eq!(ten.squares(), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        // An edge pair has eight images; a diagonal pair four (the transpose keeps it).
        assert_eq!(pair.images().count(), 8);
        let diagonal = ExtraPattern::parse("a1.b2").unwrap();
        let mut images: Vec<&[u8]> = diagonal.images().collect();
        images.sort();
        // a1 b2, h1 g2, a8 b7, h8 g7.
        assert_eq!(images, [&[0, 9][..], &[7, 14], &[56, 49], &[63, 54]]);
        // The side to move on a1 and h7, the opponent on b1 and h8: a1.b1 reads 1 + 3 * 2; its
        // transpose a1.a2 reads 1; h8.h7 reads 2 + 3 * 1; h8.g8 reads 2; the rest 0.
        let (p, o) = (1u64 | 1 << 55, 2u64 | 1 << 63);
        let mut out = Vec::new();
        Extra::Pattern(pair).values(p, o, &mut out);
        out.sort();
        assert_eq!(out, [0, 0, 0, 0, 1, 2, 5, 7]);
        // Rows: the two potential-mobility tables, then the pattern's, every image into the
        // same one.
        let rows = Rows {
            idx: Vec::new(),
            target: vec![0.0],
            empties: vec![61],
            test: vec![true],
            boards: vec![(p, o)],
        };
        let (x, k, n) = rows.extras(&v.extras);
        let per = layout().per_phase as u32;
        assert_eq!((k, n), (10, per as usize + 128 + 9));
        let mut mobility = Vec::new();
        Extra::PotentialMobility.values(p, o, &mut mobility);
        assert_eq!(x[..2], [per + mobility[0], per + 64 + mobility[1]]);
        let mut pattern: Vec<u32> = x[2..].iter().map(|&i| i - per - 128).collect();
        pattern.sort();
        assert_eq!(pattern, [0, 0, 0, 0, 1, 2, 5, 7]);
    }
}
