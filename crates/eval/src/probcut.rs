//! The cut model of selective search (ProbCut, Buro 1995; multi-ProbCut, Buro 1997): how well
//! a shallow search predicts a deep one, so that a search can skip a node whose deep value a
//! cheap shallow search puts beyond the window with a given confidence.
//!
//! For a pair of depths (deep `d`, shallow `d'`) and a game phase (a bucket of numbers of
//! empty squares), a [`CutModel`] is the linear model `deep ≈ a·shallow + b` fitted by least
//! squares on sample positions, with `sigma` the standard deviation of its residual. A
//! [`CutTable`] holds the models of several pairs and phases; an evaluation that has one
//! offers it through [`Evaluator::cut_table`](crate::Evaluator::cut_table) (the values belong
//! to the evaluation: another evaluation predicts differently).
//!
//! The one conversion every caller uses: [`CutModel::fail_high_bound`] and
//! [`CutModel::fail_low_bound`] turn a window bound and a confidence `t` (in hundredths of
//! `sigma`) into the bound a shallow search must reach. All arithmetic is integer, so every
//! search is deterministic.
//!
//! # File format (version 1, little-endian)
//!
//! | bytes | field      | meaning                                                             |
//! |-------|------------|---------------------------------------------------------------------|
//! | 0..4  | `magic`    | `OCUT`                                                              |
//! | 4..6  | `version`  | `u16`, 1                                                            |
//! | 6     | `phases`   | `u8`, 1 to 61: empties `e` fall in phase `e * phases / 61`          |
//! | 7     | `pairs`    | `u8`, the number of depth pairs that follow                         |
//! | then  | each pair  | `deep: u8` (1 to 60), `shallow: u8` (below `deep`), then per phase  |
//! |       |            | `a: i32` (in 1/1024, 1 to 65536), `b: i32` (centi-discs, within     |
//! |       |            | ±10000), `sigma: i32` (centi-discs, 0 to 10000), `samples: u32`     |
//!
//! Pairs are sorted by `(deep, shallow)` without repeats; nothing follows the last one.
//! [`CutTable::from_bytes`] checks every field and never panics.
//!
//! ```
//! use othello_eval::probcut::{CutModel, CutTable};
//!
//! // deep = shallow + 0 with a residual of 2 discs, at every phase.
//! let model = CutModel { a: CutModel::ONE, b: 0, sigma: 200, samples: 100 };
//! let table = CutTable::new(1, vec![(6, 2, vec![model])]).unwrap();
//! // Beta 100, 1.5 sigma: the shallow search must reach 100 + 1.5 * 200 = 400.
//! assert_eq!(model.fail_high_bound(100, 150), 400);
//! assert_eq!(model.fail_low_bound(100, 150), -200);
//! assert_eq!(table.pairs_for(6).collect::<Vec<_>>(), [(2, &[model][..])]);
//! assert_eq!(CutTable::from_bytes(&table.to_bytes()).unwrap(), table);
//! ```

use std::fmt;

/// One phase's linear model of a deep search's value given a shallow one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CutModel {
    /// The slope, in 1/1024 ([`CutModel::ONE`] is 1.0); positive.
    pub a: i32,
    /// The intercept, in centi-discs.
    pub b: i32,
    /// The residual standard deviation, in centi-discs.
    pub sigma: i32,
    /// The number of sample positions it was fitted on (information only).
    pub samples: u32,
}

impl CutModel {
    /// The slope 1.0 in the units of [`CutModel::a`].
    pub const ONE: i32 = 1024;

    /// The smallest shallow value `s` for which `a·s + b - t·sigma >= beta`: a shallow search
    /// that reaches it predicts a deep value at or above `beta` with confidence `t`
    /// (hundredths of `sigma`: 150 is 1.5 standard deviations). Wide (i64) so that no
    /// confidence overflows; a huge `t` gives a bound beyond every score.
    #[inline]
    pub fn fail_high_bound(&self, beta: i32, t: u32) -> i64 {
        let num = (i64::from(beta) - i64::from(self.b)) * 100 + i64::from(t) * i64::from(self.sigma);
        div_ceil(num * i64::from(Self::ONE), 100 * i64::from(self.a.max(1)))
    }

    /// The largest shallow value `s` for which `a·s + b + t·sigma <= alpha`: a shallow search
    /// that stays at or below it predicts a deep value at or below `alpha` with confidence `t`.
    #[inline]
    pub fn fail_low_bound(&self, alpha: i32, t: u32) -> i64 {
        let num = (i64::from(alpha) - i64::from(self.b)) * 100 - i64::from(t) * i64::from(self.sigma);
        div_floor(num * i64::from(Self::ONE), 100 * i64::from(self.a.max(1)))
    }

    /// The predicted deep value of a shallow value `s` (rounded toward minus infinity).
    pub fn predict(&self, s: i32) -> i64 {
        div_floor(i64::from(self.a) * i64::from(s), i64::from(Self::ONE)) + i64::from(self.b)
    }

    fn check(&self, deep: u8, shallow: u8, phase: usize) -> Result<(), CutTableError> {
        let bad = |field: &'static str, value: i64| CutTableError::BadField {
            field,
            deep,
            shallow,
            phase,
            value,
        };
        if !(1..=65536).contains(&self.a) {
            return Err(bad("a", self.a.into()));
        }
        if !(-10000..=10000).contains(&self.b) {
            return Err(bad("b", self.b.into()));
        }
        if !(0..=10000).contains(&self.sigma) {
            return Err(bad("sigma", self.sigma.into()));
        }
        Ok(())
    }
}

#[inline]
fn div_floor(n: i64, d: i64) -> i64 {
    let q = n / d;
    if (n % d != 0) && ((n < 0) != (d < 0)) { q - 1 } else { q }
}

#[inline]
fn div_ceil(n: i64, d: i64) -> i64 {
    -div_floor(-n, d)
}

/// One depth pair's models, one per phase.
#[derive(Clone, Debug, PartialEq, Eq)]
struct CutPair {
    deep: u8,
    shallow: u8,
    models: Vec<CutModel>,
}

/// The cut models of several depth pairs and phases (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutTable {
    phases: u8,
    /// Sorted by `(deep, shallow)`.
    pairs: Vec<CutPair>,
    /// For each deep depth 0..=64: the range of `pairs` to use and the shift added to their
    /// shallow depth (see [`CutTable::pairs_for`]).
    by_deep: Vec<(u16, u16, u8)>,
}

/// Why bytes are not a cut table, or why models do not make one. Each variant names the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CutTableError {
    /// The data ends inside a field.
    #[error("cut table truncated: it ends inside field '{0}'")]
    Truncated(&'static str),
    /// The first four bytes are not `OCUT`.
    #[error("not a cut table: bad magic {0:?} (expected \"OCUT\")")]
    BadMagic([u8; 4]),
    /// A version this code does not read.
    #[error("cut table version {0} is not supported (expected 1)")]
    UnsupportedVersion(u16),
    /// The phase count is not 1 to 61.
    #[error("bad field 'phases' {0}: expected 1 to 61")]
    BadPhases(u8),
    /// A pair's depths are out of range or out of order.
    #[error("bad depth pair (deep {deep}, shallow {shallow}) at pair {index}: {why}")]
    BadPair {
        /// The pair's position in the table.
        index: usize,
        /// Its deep depth.
        deep: u8,
        /// Its shallow depth.
        shallow: u8,
        /// What is wrong.
        why: &'static str,
    },
    /// A model's field is out of range.
    #[error("bad field '{field}' = {value} in pair (deep {deep}, shallow {shallow}), phase {phase}")]
    BadField {
        /// The field: `a`, `b` or `sigma`.
        field: &'static str,
        /// The pair's deep depth.
        deep: u8,
        /// The pair's shallow depth.
        shallow: u8,
        /// The phase.
        phase: usize,
        /// The value found.
        value: i64,
    },
    /// A pair has not one model per phase.
    #[error("pair (deep {deep}, shallow {shallow}) has {got} models for {phases} phases")]
    WrongModelCount {
        /// The pair's deep depth.
        deep: u8,
        /// The pair's shallow depth.
        shallow: u8,
        /// Models given.
        got: usize,
        /// Phases of the table.
        phases: u8,
    },
    /// More pairs than the format counts (255).
    #[error("too many depth pairs: {0} (at most 255)")]
    TooManyPairs(usize),
    /// Bytes after the last pair.
    #[error("cut table has {0} bytes after its last pair")]
    TrailingBytes(usize),
}

/// The magic of the file format.
const MAGIC: [u8; 4] = *b"OCUT";
/// The format version written and read.
pub const CUT_TABLE_VERSION: u16 = 1;
/// Bytes of one model in the file.
const MODEL_BYTES: usize = 16;

impl CutTable {
    /// A table with `phases` phases and the pairs `(deep, shallow, models)`, one model per
    /// phase; the pairs may come in any order.
    ///
    /// # Errors
    /// A phase count outside 1..=61, a pair with `deep` outside 1..=60 or `shallow >= deep`, a
    /// repeated pair, a wrong number of models, or a model field out of range (see the module
    /// docs).
    pub fn new(phases: u8, pairs: Vec<(u8, u8, Vec<CutModel>)>) -> Result<CutTable, CutTableError> {
        if !(1..=61).contains(&phases) {
            return Err(CutTableError::BadPhases(phases));
        }
        if pairs.len() > 255 {
            return Err(CutTableError::TooManyPairs(pairs.len()));
        }
        let mut pairs: Vec<CutPair> = pairs
            .into_iter()
            .map(|(deep, shallow, models)| CutPair { deep, shallow, models })
            .collect();
        pairs.sort_by_key(|p| (p.deep, p.shallow));
        for (index, p) in pairs.iter().enumerate() {
            let bad = |why| CutTableError::BadPair {
                index,
                deep: p.deep,
                shallow: p.shallow,
                why,
            };
            if !(1..=60).contains(&p.deep) {
                return Err(bad("deep must be 1 to 60"));
            }
            if p.shallow >= p.deep {
                return Err(bad("shallow must be below deep"));
            }
            if index > 0 && (pairs[index - 1].deep, pairs[index - 1].shallow) == (p.deep, p.shallow) {
                return Err(bad("repeated pair"));
            }
            if p.models.len() != usize::from(phases) {
                return Err(CutTableError::WrongModelCount {
                    deep: p.deep,
                    shallow: p.shallow,
                    got: p.models.len(),
                    phases,
                });
            }
            for (phase, m) in p.models.iter().enumerate() {
                m.check(p.deep, p.shallow, phase)?;
            }
        }
        let by_deep = index_by_deep(&pairs);
        Ok(CutTable { phases, pairs, by_deep })
    }

    /// The number of phases.
    pub fn phases(&self) -> u8 {
        self.phases
    }

    /// The phase of a position with `empties` empty squares: `empties * phases / 61`.
    #[inline]
    pub fn phase(&self, empties: u32) -> usize {
        (empties.min(60) as usize * usize::from(self.phases)) / 61
    }

    /// Every pair `(deep, shallow)` of the table with its models, sorted.
    pub fn pairs(&self) -> impl Iterator<Item = (u32, u32, &[CutModel])> + '_ {
        self.pairs
            .iter()
            .map(|p| (u32::from(p.deep), u32::from(p.shallow), &p.models[..]))
    }

    /// The shallow depths (increasing) and models to try for a node searched `deep` deep. The
    /// table's own pairs of that deep depth when it has some; beyond its deepest pairs, those
    /// of the deepest depth of the same parity, with their shallow depths shifted by the
    /// difference (the error of a pair depends mostly on the gap between its depths); none
    /// below its shallowest deep depth.
    #[inline]
    pub fn pairs_for(&self, deep: u32) -> impl Iterator<Item = (u32, &[CutModel])> + '_ {
        let (start, end, shift) = self.by_deep.get(deep as usize).copied().unwrap_or((0, 0, 0));
        let shift = u32::from(shift);
        self.pairs[usize::from(start)..usize::from(end)]
            .iter()
            .map(move |p| (u32::from(p.shallow) + shift, &p.models[..]))
    }

    /// The model of the pair `(deep, shallow)` (as [`CutTable::pairs_for`] extends the table)
    /// at `empties` empty squares.
    pub fn model(&self, deep: u32, shallow: u32, empties: u32) -> Option<CutModel> {
        let phase = self.phase(empties);
        self.pairs_for(deep).find(|&(s, _)| s == shallow).map(|(_, m)| m[phase])
    }

    /// This table with the pairs of `other` added: a table extended by pairs fitted later (the
    /// deeper pairs of a longer sample search, say), its own pairs unchanged.
    ///
    /// # Errors
    /// A pair in both tables ([`CutTableError::BadPair`], "repeated pair"), or `other` with
    /// another phase count ([`CutTableError::WrongModelCount`]).
    pub fn merged(&self, other: &CutTable) -> Result<CutTable, CutTableError> {
        let pairs = self
            .pairs
            .iter()
            .chain(&other.pairs)
            .map(|p| (p.deep, p.shallow, p.models.clone()))
            .collect();
        CutTable::new(self.phases, pairs)
    }

    /// The file form (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 + self.pairs.len() * (2 + MODEL_BYTES * usize::from(self.phases)));
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&CUT_TABLE_VERSION.to_le_bytes());
        out.push(self.phases);
        out.push(self.pairs.len() as u8);
        for p in &self.pairs {
            out.push(p.deep);
            out.push(p.shallow);
            for m in &p.models {
                out.extend_from_slice(&m.a.to_le_bytes());
                out.extend_from_slice(&m.b.to_le_bytes());
                out.extend_from_slice(&m.sigma.to_le_bytes());
                out.extend_from_slice(&m.samples.to_le_bytes());
            }
        }
        out
    }

    /// Reads the file form.
    ///
    /// # Errors
    /// A [`CutTableError`] naming the first bad field; never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<CutTable, CutTableError> {
        let mut r = Reader { bytes, at: 0 };
        let magic: [u8; 4] = r.take("magic", 4)?.try_into().expect("four bytes");
        if magic != MAGIC {
            return Err(CutTableError::BadMagic(magic));
        }
        let version = u16::from_le_bytes(r.take("version", 2)?.try_into().expect("two bytes"));
        if version != CUT_TABLE_VERSION {
            return Err(CutTableError::UnsupportedVersion(version));
        }
        let phases = r.take("phases", 1)?[0];
        if !(1..=61).contains(&phases) {
            return Err(CutTableError::BadPhases(phases));
        }
        let count = r.take("pairs", 1)?[0];
        let mut pairs = Vec::with_capacity(usize::from(count));
        for _ in 0..count {
            let deep = r.take("deep", 1)?[0];
            let shallow = r.take("shallow", 1)?[0];
            let mut models = Vec::with_capacity(usize::from(phases));
            for _ in 0..phases {
                models.push(CutModel {
                    a: r.i32("a")?,
                    b: r.i32("b")?,
                    sigma: r.i32("sigma")?,
                    samples: r.i32("samples")? as u32,
                });
            }
            pairs.push((deep, shallow, models));
        }
        if r.at != bytes.len() {
            return Err(CutTableError::TrailingBytes(bytes.len() - r.at));
        }
        // The file must already be sorted: `new` would accept any order.
        for (index, w) in pairs.windows(2).enumerate() {
            if (w[0].0, w[0].1) > (w[1].0, w[1].1) {
                return Err(CutTableError::BadPair {
                    index: index + 1,
                    deep: w[1].0,
                    shallow: w[1].1,
                    why: "pairs out of order",
                });
            }
        }
        CutTable::new(phases, pairs)
    }
}

/// The index of [`CutTable::by_deep`].
fn index_by_deep(pairs: &[CutPair]) -> Vec<(u16, u16, u8)> {
    let range = |deep: u8| {
        let start = pairs.iter().position(|p| p.deep == deep);
        start.map(|s| {
            (
                s as u16,
                (s + pairs[s..].iter().take_while(|p| p.deep == deep).count()) as u16,
            )
        })
    };
    let max = pairs.iter().map(|p| p.deep).max().unwrap_or(0);
    (0..=64u8)
        .map(|d| {
            if let Some((s, e)) = range(d) {
                return (s, e, 0);
            }
            if d <= max {
                return (0, 0, 0);
            }
            // The deepest fitted depth of the same parity, shallow depths shifted.
            let source = (1..=max).rev().find(|&f| (d - f) % 2 == 0 && range(f).is_some());
            source
                .and_then(|f| range(f).map(|(s, e)| (s, e, d - f)))
                .unwrap_or_default()
        })
        .collect()
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, field: &'static str, n: usize) -> Result<&'a [u8], CutTableError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(CutTableError::Truncated(field))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn i32(&mut self, field: &'static str) -> Result<i32, CutTableError> {
        Ok(i32::from_le_bytes(self.take(field, 4)?.try_into().expect("four bytes")))
    }
}

impl fmt::Display for CutTable {
    /// One line per pair: its depths and each phase's `a b sigma (samples)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in &self.pairs {
            write!(f, "{:>2} <- {:>2}:", p.deep, p.shallow)?;
            for m in &p.models {
                write!(
                    f,
                    " [{:.2} {:+} {} ({})]",
                    f64::from(m.a) / f64::from(CutModel::ONE),
                    m.b,
                    m.sigma,
                    m.samples
                )?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    fn model(a: i32, b: i32, sigma: i32) -> CutModel {
        CutModel {
            a,
            b,
            sigma,
            samples: 7,
        }
    }

    fn sample_table() -> CutTable {
        let m = |k: i32| vec![model(1000 + k, k, 300 + k), model(1100, -k, 250)];
        CutTable::new(
            2,
            vec![(8, 4, m(1)), (3, 1, m(2)), (8, 2, m(3)), (9, 5, m(4)), (4, 2, m(5))],
        )
        .unwrap()
    }

    #[test]
    fn merged_adds_pairs_and_refuses_repeats_and_other_phases() {
        let t = sample_table();
        let m = |k: i32| vec![model(1000 + k, k, 300 + k), model(1100, -k, 250)];
        let deeper = CutTable::new(2, vec![(12, 6, m(7)), (11, 5, m(6))]).unwrap();
        let both = t.merged(&deeper).unwrap();
        let order: Vec<(u32, u32)> = both.pairs().map(|(d, s, _)| (d, s)).collect();
        assert_eq!(order, [(3, 1), (4, 2), (8, 2), (8, 4), (9, 5), (11, 5), (12, 6)]);
        assert_eq!(both.model(12, 6, 40), Some(m(7)[1]));
        assert_eq!(both.model(9, 5, 10), t.model(9, 5, 10));
        // Beyond the new deepest pairs, the extension starts from them.
        assert_eq!(both.pairs_for(14).map(|(s, _)| s).collect::<Vec<_>>(), [8]);
        assert_eq!(t.pairs_for(14).map(|(s, _)| s).collect::<Vec<_>>(), [8, 10]);
        let again = CutTable::new(2, vec![(9, 5, m(1))]).unwrap();
        assert!(matches!(
            t.merged(&again),
            Err(CutTableError::BadPair {
                deep: 9,
                shallow: 5,
                ..
            })
        ));
        let one_phase = CutTable::new(1, vec![(12, 6, vec![model(1000, 0, 300)])]).unwrap();
        assert!(matches!(
            t.merged(&one_phase),
            Err(CutTableError::WrongModelCount { got: 1, phases: 2, .. })
        ));
    }

    /// The bounds are the extreme integers satisfying the inequalities they stand for, on
    /// random models, windows and confidences (checked against a float formula's neighbours).
    #[test]
    fn bounds_are_the_extreme_integers() {
        let mut rng = SmallRng::seed_from_u64(1);
        for _ in 0..20000 {
            let m = model(
                rng.random_range(1..4000),
                rng.random_range(-10000..=10000),
                rng.random_range(0..=10000),
            );
            let beta = rng.random_range(-32000..=32000);
            let t = rng.random_range(0..500);
            // a·s/1024 + b - t·sigma/100 >= beta  <=>  a·s·100 >= (beta - b)·1024·100 + t·sigma·1024.
            let holds_high = |s: i64| {
                i64::from(m.a) * s * 100
                    >= (i64::from(beta) - i64::from(m.b)) * 102_400 + i64::from(t) * i64::from(m.sigma) * 1024
            };
            let h = m.fail_high_bound(beta, t);
            assert!(holds_high(h) && !holds_high(h - 1), "{m:?} {beta} {t} {h}");
            let holds_low = |s: i64| {
                i64::from(m.a) * s * 100
                    <= (i64::from(beta) - i64::from(m.b)) * 102_400 - i64::from(t) * i64::from(m.sigma) * 1024
            };
            let l = m.fail_low_bound(beta, t);
            assert!(holds_low(l) && !holds_low(l + 1), "{m:?} {beta} {t} {l}");
            // No confidence crosses the other bound: high - low grows with t.
            assert!(h >= l);
        }
        // A huge confidence puts both bounds beyond every score, without overflow.
        let m = model(1, -10000, 10000);
        assert!(m.fail_high_bound(i32::MAX, u32::MAX) > i64::from(i32::MAX));
        assert!(m.fail_low_bound(i32::MIN, u32::MAX) < i64::from(i32::MIN));
        let m = model(65536, 10000, 1);
        assert!(m.fail_high_bound(-32000, u32::MAX) > 40_000);
        assert!(m.fail_low_bound(32000, u32::MAX) < -40_000);
        // Identity model, zero confidence: the bounds are the window.
        let id = model(1024, 0, 500);
        assert_eq!((id.fail_high_bound(37, 0), id.fail_low_bound(-12, 0)), (37, -12));
        assert_eq!((id.predict(-3), model(512, 5, 0).predict(-3)), (-3, 3));
    }

    #[test]
    fn round_trips_and_sorts() {
        let t = sample_table();
        let order: Vec<(u32, u32)> = t.pairs().map(|(d, s, _)| (d, s)).collect();
        assert_eq!(order, [(3, 1), (4, 2), (8, 2), (8, 4), (9, 5)]);
        let bytes = t.to_bytes();
        assert_eq!(bytes.len(), 8 + 5 * (2 + 2 * MODEL_BYTES));
        assert_eq!(CutTable::from_bytes(&bytes).unwrap(), t);
        assert_eq!(t.phase(0), 0);
        assert_eq!(t.phase(30), 0);
        assert_eq!(t.phase(31), 1);
        assert_eq!(t.phase(60), 1);
        assert_eq!(t.phase(64), 1);
        assert!(t.to_string().contains(" 8 <-  4: [0.98 +1 301 (7)]"), "{t}");
    }

    #[test]
    fn pairs_for_extends_by_parity() {
        let t = sample_table();
        let shallow = |d: u32| t.pairs_for(d).map(|(s, _)| s).collect::<Vec<_>>();
        assert_eq!(shallow(1), [0u32; 0]);
        assert_eq!(shallow(2), [0u32; 0]);
        assert_eq!(shallow(3), [1]);
        assert_eq!(shallow(5), [0u32; 0], "inside the table's range, no pair");
        assert_eq!(shallow(8), [2, 4]);
        assert_eq!(shallow(10), [4, 6]);
        assert_eq!(shallow(11), [7]);
        assert_eq!(shallow(64), [58, 60]);
        assert_eq!(shallow(65), [0u32; 0], "beyond any game");
        assert_eq!(t.model(10, 6, 40), Some(model(1100, -1, 250)));
        assert_eq!(t.model(10, 6, 10), Some(model(1001, 1, 301)));
        assert_eq!(t.model(10, 5, 10), None);
    }

    #[test]
    fn new_refuses_bad_tables() {
        let ok = vec![model(1024, 0, 100)];
        assert_eq!(CutTable::new(0, vec![]), Err(CutTableError::BadPhases(0)));
        assert_eq!(CutTable::new(62, vec![]), Err(CutTableError::BadPhases(62)));
        assert!(matches!(
            CutTable::new(1, vec![(4, 4, ok.clone())]),
            Err(CutTableError::BadPair { .. })
        ));
        assert!(matches!(
            CutTable::new(1, vec![(61, 4, ok.clone())]),
            Err(CutTableError::BadPair { .. })
        ));
        assert!(matches!(
            CutTable::new(1, vec![(6, 2, ok.clone()), (6, 2, ok.clone())]),
            Err(CutTableError::BadPair {
                why: "repeated pair",
                ..
            })
        ));
        assert!(matches!(
            CutTable::new(2, vec![(6, 2, ok.clone())]),
            Err(CutTableError::WrongModelCount { got: 1, phases: 2, .. })
        ));
        for (m, field) in [
            (model(0, 0, 1), "a"),
            (model(65537, 0, 1), "a"),
            (model(1, 10001, 1), "b"),
            (model(1, 0, -1), "sigma"),
            (model(1, 0, 10001), "sigma"),
        ] {
            let e = CutTable::new(1, vec![(6, 2, vec![m])]).unwrap_err();
            assert!(
                matches!(e, CutTableError::BadField { field: f, .. } if f == field),
                "{e}"
            );
        }
        assert!(CutTable::new(1, vec![]).is_ok());
    }

    /// Every truncation, every single-byte change and random bytes: an error or a valid table,
    /// never a panic; the errors name the field.
    #[test]
    fn from_bytes_never_panics() {
        let bytes = sample_table().to_bytes();
        for n in 0..bytes.len() {
            assert!(CutTable::from_bytes(&bytes[..n]).is_err(), "truncated at {n}");
        }
        assert_eq!(
            CutTable::from_bytes(&bytes[..5]),
            Err(CutTableError::Truncated("version"))
        );
        assert_eq!(
            CutTable::from_bytes(&bytes[..9]),
            Err(CutTableError::Truncated("shallow"))
        );
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(CutTable::from_bytes(&longer), Err(CutTableError::TrailingBytes(1)));
        let mut v2 = bytes.clone();
        v2[4] = 2;
        assert_eq!(CutTable::from_bytes(&v2), Err(CutTableError::UnsupportedVersion(2)));
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert!(matches!(CutTable::from_bytes(&magic), Err(CutTableError::BadMagic(_))));
        // Swap the first two pairs: out of order.
        let pair = 2 + 2 * MODEL_BYTES;
        let mut swapped = bytes.clone();
        let (a, b) = (bytes[8..8 + pair].to_vec(), bytes[8 + pair..8 + 2 * pair].to_vec());
        swapped[8..8 + pair].copy_from_slice(&b);
        swapped[8 + pair..8 + 2 * pair].copy_from_slice(&a);
        assert!(matches!(
            CutTable::from_bytes(&swapped),
            Err(CutTableError::BadPair {
                why: "pairs out of order",
                ..
            })
        ));
        for i in 0..bytes.len() {
            for x in [1u8, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[i] ^= x;
                let _ = CutTable::from_bytes(&b);
            }
        }
        let mut rng = SmallRng::seed_from_u64(2);
        for _ in 0..2000 {
            let mut b: Vec<u8> = (0..rng.random_range(0..200)).map(|_| rng.random()).collect();
            if b.len() >= 6 && rng.random_bool(0.5) {
                b[..4].copy_from_slice(&MAGIC);
                b[4..6].copy_from_slice(&1u16.to_le_bytes());
            }
            let _ = CutTable::from_bytes(&b);
        }
    }
}
