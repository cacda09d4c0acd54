//! Linear least squares with a ridge term, two ways: dense normal equations solved by Gaussian
//! elimination with partial pivoting ([`NormalEquations`], for the hand-feature model's dozen
//! unknowns), and conjugate gradients on sparse 0/1 rows ([`ridge_cg`], for the pattern
//! tables' hundreds of thousands of unknowns).
//!
//! The systems here are tiny (two columns per feature, at most 14), so the normal equations
//! in `f64` are accurate enough: the features are small integers and the ridge term keeps the
//! matrix well conditioned when two columns are nearly collinear (a narrow range of empties
//! makes `f * e / 60` and `f * (1 - e / 60)` close to proportional).

/// Accumulates `X^T X` and `X^T y` one row at a time.
#[derive(Clone, Debug)]
pub struct NormalEquations {
    n: usize,
    xtx: Vec<f64>,
    xty: Vec<f64>,
    rows: usize,
}

impl NormalEquations {
    /// An empty system with `n` unknowns.
    pub fn new(n: usize) -> NormalEquations {
        NormalEquations {
            n,
            xtx: vec![0.0; n * n],
            xty: vec![0.0; n],
            rows: 0,
        }
    }

    /// Adds the observation `x . w = y`.
    pub fn add(&mut self, x: &[f64], y: f64) {
        debug_assert_eq!(x.len(), self.n);
        for i in 0..self.n {
            if x[i] == 0.0 {
                continue;
            }
            for j in 0..self.n {
                self.xtx[i * self.n + j] += x[i] * x[j];
            }
            self.xty[i] += x[i] * y;
        }
        self.rows += 1;
    }

    /// The number of observations added.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The `w` minimising `|Xw - y|^2 + ridge * |w|^2`, or `None` if the system is singular
    /// (with `ridge > 0` it never is).
    pub fn solve(&self, ridge: f64) -> Option<Vec<f64>> {
        let mut a = self.xtx.clone();
        for i in 0..self.n {
            a[i * self.n + i] += ridge;
        }
        gauss(a, self.xty.clone(), self.n)
    }
}

/// Solves `A x = b` (`A` is `n x n`, row-major) by Gaussian elimination with partial pivoting.
/// `None` when a pivot vanishes (relative to the largest entry).
pub fn gauss(mut a: Vec<f64>, mut b: Vec<f64>, n: usize) -> Option<Vec<f64>> {
    let scale = a.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(f64::MIN_POSITIVE);
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i * n + col].abs().total_cmp(&a[j * n + col].abs()))?;
        if a[pivot * n + col].abs() <= scale * 1e-13 {
            return None;
        }
        if pivot != col {
            for k in 0..n {
                a.swap(pivot * n + k, col * n + k);
            }
            b.swap(pivot, col);
        }
        for row in col + 1..n {
            let f = a[row * n + col] / a[col * n + col];
            if f == 0.0 {
                continue;
            }
            for k in col..n {
                a[row * n + k] -= f * a[col * n + k];
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let mut s = b[row];
        for k in row + 1..n {
            s -= a[row * n + k] * x[k];
        }
        x[row] = s / a[row * n + row];
    }
    Some(x)
}

/// Ridge least squares by conjugate gradients: `n` unknowns, each row a set of indices (each
/// feature of value 1) given by `rows` (called once per iteration, in the same order as
/// `targets`), minimising the squared error plus `ridge` times the squared weights. Unknowns
/// that no row uses stay zero. The solver of the pattern fit and of `explore`.
pub fn ridge_cg<'a, I: Iterator<Item = &'a [u32]>>(
    n: usize,
    rows: impl Fn() -> I,
    targets: impl IntoIterator<Item = f64>,
    ridge: f64,
    iterations: usize,
) -> Vec<f64> {
    ridge_cg_counted(n, rows, targets, ridge, 0.0, iterations)
}

/// [`ridge_cg`] with a ridge that grows with the data: unknown `i`, used by `u_i` rows, has
/// the ridge term `ridge + per_use * u_i`. Fitting a difference from prior weights, this pulls
/// each weight towards its prior as if the prior came from `per_use` times as many rows of
/// the same kind (a diagonal stand-in for the data the prior was fitted on).
pub fn ridge_cg_counted<'a, I: Iterator<Item = &'a [u32]>>(
    n: usize,
    rows: impl Fn() -> I,
    targets: impl IntoIterator<Item = f64>,
    ridge: f64,
    per_use: f64,
    iterations: usize,
) -> Vec<f64> {
    let mut w = vec![0.0f64; n];
    // How many rows use each unknown (those no row uses stay zero).
    let mut uses = vec![0u32; n];
    for r in rows() {
        for &i in r {
            uses[i as usize] += 1;
        }
    }
    let diag: Vec<f64> = uses
        .iter()
        .map(|&u| if u > 0 { ridge + per_use * f64::from(u) } else { 0.0 })
        .collect();
    let apply = |v: &[f64], out: &mut [f64]| {
        out.iter_mut().for_each(|x| *x = 0.0);
        for r in rows() {
            let s: f64 = r.iter().map(|&i| v[i as usize]).sum();
            for &i in r {
                out[i as usize] += s;
            }
        }
        for (o, (x, &d)) in out.iter_mut().zip(v.iter().zip(&diag)) {
            *o += d * x;
        }
    };
    // b = X^T y
    let mut b = vec![0.0; n];
    for (r, t) in rows().zip(targets) {
        for &i in r {
            b[i as usize] += t;
        }
    }
    let mut res = b;
    let mut p = res.clone();
    let mut ap = vec![0.0; n];
    let mut rr: f64 = res.iter().map(|x| x * x).sum();
    let rr0 = rr;
    for _ in 0..iterations {
        if rr <= rr0 * 1e-14 {
            break;
        }
        apply(&p, &mut ap);
        let pap: f64 = p.iter().zip(&ap).map(|(a, b)| a * b).sum();
        if pap <= 0.0 {
            break;
        }
        let alpha = rr / pap;
        for i in 0..n {
            w[i] += alpha * p[i];
            res[i] -= alpha * ap[i];
        }
        let rr_new: f64 = res.iter().map(|x| x * x).sum();
        let beta = rr_new / rr;
        for i in 0..n {
            p[i] = res[i] + beta * p[i];
        }
        rr = rr_new;
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn recovers_known_weights_exactly() {
        let mut rng = SmallRng::seed_from_u64(1);
        for n in [1, 3, 8, 14] {
            let w: Vec<f64> = (0..n).map(|_| rng.random_range(-500.0..500.0)).collect();
            let mut ne = NormalEquations::new(n);
            for _ in 0..(20 * n + 10) {
                // Integer features like the real ones, scaled by a phase column.
                let e = rng.random_range(0..=60) as f64 / 60.0;
                let x: Vec<f64> = (0..n)
                    .map(|i| {
                        let f = rng.random_range(-20..=20) as f64;
                        if i % 2 == 0 { f * e } else { f * (1.0 - e) }
                    })
                    .collect();
                let y = x.iter().zip(&w).map(|(a, b)| a * b).sum();
                ne.add(&x, y);
            }
            let got = ne.solve(0.0).expect("full rank");
            for (g, e) in got.iter().zip(&w) {
                assert!((g - e).abs() < 1e-6, "n={n}: {g} vs {e}");
            }
        }
    }

    #[test]
    fn ridge_shrinks_and_singular_is_reported() {
        let mut ne = NormalEquations::new(2);
        // Two identical columns: singular without ridge, split evenly with it.
        for v in 1..10 {
            let v = v as f64;
            ne.add(&[v, v], 4.0 * v);
        }
        assert!(ne.solve(0.0).is_none());
        let w = ne.solve(1e-6).expect("ridge makes it regular");
        assert!((w[0] - 2.0).abs() < 1e-6 && (w[1] - 2.0).abs() < 1e-6, "{w:?}");
        assert_eq!(ne.rows(), 9);
    }

    #[test]
    fn gauss_needs_pivoting() {
        // A zero in the first pivot position.
        let x = gauss(vec![0.0, 1.0, 1.0, 0.0], vec![3.0, 5.0], 2).expect("regular");
        assert_eq!(x, vec![5.0, 3.0]);
    }

    /// The ridge per unknown is `ridge + per_use * uses`: independent unknowns (one per row
    /// kind) come out at `sum of targets / (uses + ridge + per_use * uses)`; an unused unknown
    /// stays zero; `per_use` 0 is `ridge_cg`.
    #[test]
    fn counted_ridge_grows_with_the_uses() {
        // Unknown 0 in 40 rows (targets 1..=40), unknown 1 in 3 rows (targets 7), 2 in none.
        let mut rows: Vec<[u32; 1]> = (0..40).map(|_| [0]).collect();
        rows.extend((0..3).map(|_| [1]));
        let targets: Vec<f64> = (1..=40).map(f64::from).chain([7.0; 3]).collect();
        let sum0: f64 = (1..=40).map(f64::from).sum();
        for (ridge, per_use) in [(0.0, 0.0), (2.0, 0.0), (0.0, 3.0), (5.0, 0.5)] {
            let w = ridge_cg_counted(
                3,
                || rows.iter().map(|r| &r[..]),
                targets.iter().copied(),
                ridge,
                per_use,
                20,
            );
            let want0 = sum0 / (40.0 + ridge + per_use * 40.0);
            let want1 = 21.0 / (3.0 + ridge + per_use * 3.0);
            assert!(
                (w[0] - want0).abs() < 1e-9,
                "{ridge} {per_use}: {} against {want0}",
                w[0]
            );
            assert!(
                (w[1] - want1).abs() < 1e-9,
                "{ridge} {per_use}: {} against {want1}",
                w[1]
            );
            assert_eq!(w[2], 0.0);
            if per_use == 0.0 {
                let plain = ridge_cg(3, || rows.iter().map(|r| &r[..]), targets.iter().copied(), ridge, 20);
                assert_eq!(w, plain);
            }
        }
    }
}
