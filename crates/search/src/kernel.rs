//! The hot recursion compiled once per move-generation back end.
//!
//! The rules crate's [`movegen::legal_moves`] and [`movegen::flips`] choose their back end at
//! each call: a load and a few compares, then a call into a function compiled with the back
//! end's target features, which cannot be inlined into code compiled without them. The search
//! calls them several times per node. So, as the endgame solver and perft do, the recursion
//! (alpha-beta and quiescence, with the move picker's mobility keys) is written once, generic
//! over a [`Kernel`], and each x86 back end gets its own copy compiled with its features, in
//! which the move generation and flips inline ([`search_with`] picks the copy once per call
//! from the root). Every copy searches the same tree: the kernels compute the same functions.
//!
//! - [`Portable`]: the portable code (any CPU, and `OTHELLO_BACKEND=portable`);
//! - `Avx2`, `Bmi2`, `Avx512`: the functions of each back end, as in the endgame solver
//!   (AVX2 moves with the AVX2 or `pext` flip, AVX-512 moves and flips);
//! - [`Dispatch`]: the rules crate's dispatching functions, for the public
//!   [`MovePicker`](crate::ordering::MovePicker) API.

use crate::worker::Worker;
use othello_eval::Evaluator;
use othello_rules::movegen::{self, Backend};
use othello_table::Table;

/// The move generation of one back end.
pub(crate) trait MoveGen: Copy {
    /// [`movegen::legal_moves`] with this back end.
    fn legal_moves(p: u64, o: u64) -> u64;
    /// [`movegen::flips`] with this back end.
    fn flips(p: u64, o: u64, sq: u32) -> u64;
}

/// A back end's move generation and the entry points of the recursion compiled with its
/// target features.
pub(crate) trait Kernel: MoveGen {
    /// [`Worker::search_body`] with this kernel, compiled with its features.
    fn search<E: Evaluator, T: Table>(
        w: &mut Worker<'_, E, T>,
        p: u64,
        o: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32;
    /// [`Worker::quiesce_body`] with this kernel, compiled with its features.
    fn quiesce<E: Evaluator, T: Table>(
        w: &mut Worker<'_, E, T>,
        p: u64,
        o: u64,
        plies: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32;
}

/// The rules crate's dispatching functions (for the public move picker).
#[derive(Clone, Copy)]
pub(crate) struct Dispatch;

impl MoveGen for Dispatch {
    #[inline(always)]
    fn legal_moves(p: u64, o: u64) -> u64 {
        movegen::legal_moves(p, o)
    }
    #[inline(always)]
    fn flips(p: u64, o: u64, sq: u32) -> u64 {
        movegen::flips(p, o, sq)
    }
}

/// The portable back end.
#[derive(Clone, Copy)]
pub(crate) struct Portable;

impl MoveGen for Portable {
    #[inline(always)]
    fn legal_moves(p: u64, o: u64) -> u64 {
        movegen::portable::legal_moves(p, o)
    }
    #[inline(always)]
    fn flips(p: u64, o: u64, sq: u32) -> u64 {
        movegen::portable::flips(p, o, sq)
    }
}

impl Kernel for Portable {
    #[inline(never)]
    fn search<E: Evaluator, T: Table>(
        w: &mut Worker<'_, E, T>,
        p: u64,
        o: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        w.search_body::<Portable>(p, o, depth, alpha, beta, ply)
    }
    #[inline(never)]
    fn quiesce<E: Evaluator, T: Table>(
        w: &mut Worker<'_, E, T>,
        p: u64,
        o: u64,
        plies: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        w.quiesce_body::<Portable>(p, o, plies, ply, alpha, beta)
    }
}

/// One x86 kernel: its name, target features, move generation and flip. The recursion's entry
/// points carry the features; `search_with` enters them only for a back end that
/// [`Backend::supported`] confirmed, and they call only themselves and each other.
#[cfg(target_arch = "x86_64")]
macro_rules! x86_kernel {
    ($name:ident, $features:literal, $search:ident, $quiesce:ident, $moves:path, $flips:path) => {
        #[derive(Clone, Copy)]
        struct $name;

        #[target_feature(enable = $features)]
        fn $search<E: Evaluator, T: Table>(
            w: &mut Worker<'_, E, T>,
            p: u64,
            o: u64,
            depth: u32,
            alpha: i32,
            beta: i32,
            ply: usize,
        ) -> i32 {
            w.search_body::<$name>(p, o, depth, alpha, beta, ply)
        }

        #[target_feature(enable = $features)]
        fn $quiesce<E: Evaluator, T: Table>(
            w: &mut Worker<'_, E, T>,
            p: u64,
            o: u64,
            plies: u32,
            ply: usize,
            alpha: i32,
            beta: i32,
        ) -> i32 {
            w.quiesce_body::<$name>(p, o, plies, ply, alpha, beta)
        }

        impl MoveGen for $name {
            #[inline(always)]
            fn legal_moves(p: u64, o: u64) -> u64 {
                // SAFETY: the kernel (private to this module) runs only inside its own entry
                // points, entered by `search_with` after `Backend::supported` confirmed their
                // features, which include the move generator's.
                unsafe { $moves(p, o) }
            }
            #[inline(always)]
            fn flips(p: u64, o: u64, sq: u32) -> u64 {
                // SAFETY: as for `legal_moves`.
                unsafe { $flips(p, o, sq) }
            }
        }

        impl Kernel for $name {
            #[inline(always)]
            fn search<E: Evaluator, T: Table>(
                w: &mut Worker<'_, E, T>,
                p: u64,
                o: u64,
                depth: u32,
                alpha: i32,
                beta: i32,
                ply: usize,
            ) -> i32 {
                // SAFETY: entered from `search_with` for a supported back end, or from this
                // kernel's own recursion.
                unsafe { $search(w, p, o, depth, alpha, beta, ply) }
            }
            #[inline(always)]
            fn quiesce<E: Evaluator, T: Table>(
                w: &mut Worker<'_, E, T>,
                p: u64,
                o: u64,
                plies: u32,
                ply: usize,
                alpha: i32,
                beta: i32,
            ) -> i32 {
                // SAFETY: as for `search`.
                unsafe { $quiesce(w, p, o, plies, ply, alpha, beta) }
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
x86_kernel!(
    Avx2,
    "avx2,bmi1,lzcnt,popcnt",
    search_avx2,
    quiesce_avx2,
    movegen::x86::legal_moves_avx2,
    movegen::x86::flips_avx2
);

#[cfg(target_arch = "x86_64")]
x86_kernel!(
    Bmi2,
    "avx2,bmi1,bmi2,lzcnt,popcnt",
    search_bmi2,
    quiesce_bmi2,
    movegen::x86::legal_moves_avx2,
    movegen::x86::flips_pext
);

#[cfg(target_arch = "x86_64")]
x86_kernel!(
    Avx512,
    "avx512f,avx512vl,avx512cd,avx2,bmi1,bmi2,lzcnt,popcnt",
    search_avx512,
    quiesce_avx512,
    movegen::x86::legal_moves_avx512,
    movegen::x86::flips_avx512
);

/// The search of `(p, o)` (see [`Worker::search_body`]) with the copy of `backend`, which must
/// be supported by the CPU (else the portable copy runs).
#[allow(clippy::too_many_arguments, reason = "the hot recursion passes its state explicitly")]
#[inline]
pub(crate) fn search_with<E: Evaluator, T: Table>(
    backend: Backend,
    w: &mut Worker<'_, E, T>,
    p: u64,
    o: u64,
    depth: u32,
    alpha: i32,
    beta: i32,
    ply: usize,
) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if backend.supported() {
        match backend {
            Backend::Avx2 => return Avx2::search(w, p, o, depth, alpha, beta, ply),
            Backend::Bmi2 => return Bmi2::search(w, p, o, depth, alpha, beta, ply),
            Backend::Avx512 => return Avx512::search(w, p, o, depth, alpha, beta, ply),
            Backend::Portable => {}
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = backend;
    Portable::search(w, p, o, depth, alpha, beta, ply)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristics::Heuristics;
    use crate::limits::Clock;
    use crate::score::INFINITY;
    use crate::{Limits, SearchConfig};
    use othello_eval::WeightedEval;
    use othello_rules::Position;
    use othello_table::TranspositionTable;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Value, nodes and quiescence nodes of a fresh search of `pos` with the copy of `backend`.
    fn run(backend: Backend, pos: &Position, depth: u32, window: (i32, i32), config: &SearchConfig) -> [u64; 4] {
        let eval = WeightedEval::default();
        let table = TranspositionTable::new(1);
        let clock = Clock::new(&Limits::none(), pos.empty_count());
        let mut w = Worker::new(
            &eval,
            Some(&table),
            &clock,
            config,
            pos,
            Heuristics::default(),
            u64::MAX,
        );
        let (p, o) = (pos.player().0, pos.opponent().0);
        let s = search_with(backend, &mut w, p, o, depth, window.0, window.1, 0);
        [s as u64, w.stats.nodes, w.stats.quiescence_nodes, w.stats.beta_cutoffs]
    }

    /// Every copy of the recursion (each back end the CPU supports) returns the same value
    /// after the same tree as the portable one, with and without quiescence, in open and null
    /// windows, on positions from random play at every stage of the game.
    #[test]
    fn every_copy_searches_the_same_tree() {
        let mut rng = SmallRng::seed_from_u64(0x6b65_726e);
        let backends: Vec<Backend> = Backend::ALL.into_iter().filter(|b| b.supported()).collect();
        let (mut checked, mut quiescence_nodes) = (0, 0);
        for game in 0..24 {
            let plies = 4 + game * 2 + rng.random_range(0..4);
            let pos = othello_rules::random::play_random(&Position::start(), plies, &mut rng);
            if pos.is_game_over() {
                continue;
            }
            let quiescence = game % 2 == 1;
            let config = SearchConfig::default().with_quiescence(quiescence);
            let depth = 1 + game as u32 % 5;
            let a = rng.random_range(-400..400);
            for window in [(-INFINITY, INFINITY), (a, a + 1)] {
                let want = run(Backend::Portable, &pos, depth, window, &config);
                assert!(want[1] > 1, "{pos}");
                quiescence_nodes += want[2];
                for &b in &backends {
                    assert_eq!(
                        run(b, &pos, depth, window, &config),
                        want,
                        "{pos} {b:?} depth {depth} {window:?}"
                    );
                }
                checked += 1;
            }
        }
        assert!(checked >= 40 && quiescence_nodes > 0, "{checked} {quiescence_nodes}");
    }
}
