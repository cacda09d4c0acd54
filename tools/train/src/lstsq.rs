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
    let mut w = vec![0.0f64; n];
    // Which unknowns appear at all (the rest stay zero).
    let mut used = vec![false; n];
    for r in rows() {
        for &i in r {
            used[i as usize] = true;
        }
    }
    let apply = |v: &[f64], out: &mut [f64]| {
        out.iter_mut().for_each(|x| *x = 0.0);
        for r in rows() {
            let s: f64 = r.iter().map(|&i| v[i as usize]).sum();
            for &i in r {
                out[i as usize] += s;
            }
        }
        for (o, (x, &u)) in out.iter_mut().zip(v.iter().zip(&used)) {
            if u {
                *o += ridge * x;
            }
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
}
