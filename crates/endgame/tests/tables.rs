//! The solver's table type ([`Solver::with_table_type`]): the lock-free single-thread
//! [`LocalTable`] solves exactly as the default [`TranspositionTable`] (the same scores, moves,
//! principal variations, node counts and table traffic on one thread), and a table that cannot
//! be shared solves on one thread whatever the configured thread count.

use othello_endgame::{SolveMode, Solver, SolverConfig, Techniques, ffo};
use othello_rules::random::play_random_until;
use othello_rules::{BoardSize, Move, Position};
use othello_table::{LocalTable, Table, TranspositionTable};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::cell::Cell;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::ThreadId;

/// A position reached by random play from the start of `size`, with at most `empties` empty
/// squares (fewer if the game ended first).
fn random_position(rng: &mut SmallRng, size: BoardSize, empties: u32) -> Position {
    play_random_until(&Position::start_of(size), rng, |p| p.empty_count() <= empties)
}

/// A cheap ordering evaluation (disc difference in centi-discs): enough to switch on the
/// evaluation ordering and the selective pre-solve from 18 empty squares.
fn discs(p: &Position) -> i32 {
    100 * (p.player().0.count_ones() as i32 - p.opponent().0.count_ones() as i32)
}

/// Everything a solve reports but its time.
fn key(s: &othello_endgame::Solution) -> (Move, i32, u64, Vec<Move>) {
    (s.best_move, s.score, s.nodes, s.pv.clone())
}

/// Runs every public search call on both solvers (the move listing only with `all_moves`: it
/// costs a solve per move) and asserts equal answers, node counts and table counters.
fn same_answers<A: Table, B: Table>(a: &mut Solver<A>, b: &mut Solver<B>, pos: &Position, all_moves: bool, what: &str) {
    for mode in [SolveMode::Exact, SolveMode::WinLossDraw] {
        let (x, y) = (a.solve(pos, mode), b.solve(pos, mode));
        assert_eq!(key(&x), key(&y), "{what} {mode:?} {pos}");
        assert_eq!(a.last_nodes(), b.last_nodes(), "{what} {mode:?} {pos}");
    }
    if all_moves {
        assert_eq!(
            a.score_moves(pos, SolveMode::Exact),
            b.score_moves(pos, SolveMode::Exact),
            "{what} {pos}"
        );
        assert_eq!(a.last_nodes(), b.last_nodes(), "{what} score_moves {pos}");
    }
    for (alpha, beta) in [(-1, 0), (0, 1), (-6, 6)] {
        assert_eq!(
            a.solve_window(pos, alpha, beta),
            b.solve_window(pos, alpha, beta),
            "{what} ({alpha}, {beta}) {pos}"
        );
        assert_eq!(a.last_nodes(), b.last_nodes(), "{what} ({alpha}, {beta}) {pos}");
    }
    assert_eq!(a.table_stats(), b.table_stats(), "{what} {pos}");
}

#[test]
fn local_and_shared_tables_solve_alike_on_one_thread() {
    // The same buckets and replacement on both tables: one thread gives the same trees, so
    // the same node counts, and the same table traffic, across solves that reuse the table.
    let configs = [
        (
            "built-in ordering",
            SolverConfig::default().with_tt_mib(2).with_threads(1),
        ),
        (
            "evaluation ordering",
            SolverConfig::default()
                .with_tt_mib(2)
                .with_threads(1)
                .with_ordering(discs),
        ),
    ];
    for (what, config) in configs {
        let mut local: Solver<LocalTable> = Solver::with_table_type(config.clone());
        let mut shared = Solver::new(config.clone());
        // The generic constructor with the default table is the default solver.
        let mut generic: Solver<TranspositionTable> = Solver::with_table_type(config.clone());
        let mut plain = Solver::new(config);
        for (n, obf) in ffo::positions().into_iter().take(8) {
            same_answers(&mut local, &mut shared, &obf.position, true, what);
            assert_eq!(
                Some(local.solve(&obf.position, SolveMode::Exact).score),
                obf.best_score(),
                "{what} FFO #{n}"
            );
            shared.solve(&obf.position, SolveMode::Exact);
        }
        assert!(local.table_stats().stores > 0, "{what}: the local table is used");
        let mut rng = SmallRng::seed_from_u64(31);
        for i in 0..24 {
            let size = [BoardSize::Eight, BoardSize::Six, BoardSize::Four][i % 3];
            let empties = rng.random_range(6..=14).min(size.squares() - 4);
            let pos = random_position(&mut rng, size, empties);
            same_answers(&mut local, &mut shared, &pos, true, what);
            same_answers(&mut generic, &mut plain, &pos, true, what);
        }
        // A forced pass at the root, and the selective pre-solve (18 empty squares and more,
        // evaluation ordering only).
        let pass = (0..)
            .map(|_| {
                let empties = rng.random_range(6..=12);
                random_position(&mut rng, BoardSize::Six, empties)
            })
            .find(Position::must_pass)
            .unwrap();
        same_answers(&mut local, &mut shared, &pass, true, what);
        let deep = random_position(&mut rng, BoardSize::Eight, 18);
        same_answers(&mut local, &mut shared, &deep, false, what);
        // A new game empties both tables alike.
        local.new_game();
        shared.new_game();
        same_answers(&mut local, &mut shared, &deep, false, what);
    }
}

/// The threads an ordering evaluation was called from since the last [`Recorder::clear`]:
/// every search context of a solve with an ordering evaluation calls it, so these are the
/// threads that solved. Each thread inserts itself once per epoch (a thread-local mark), so
/// the lock is not taken on every call.
#[derive(Default)]
struct Recorder {
    threads: Mutex<HashSet<ThreadId>>,
    epoch: AtomicU64,
}

thread_local! {
    /// The epoch (plus one) in which this thread last recorded itself.
    static RECORDED: Cell<u64> = const { Cell::new(0) };
}

impl Recorder {
    fn clear(&self) {
        self.threads.lock().unwrap().clear();
        self.epoch.fetch_add(1, Ordering::SeqCst);
    }

    fn seen(&self) -> HashSet<ThreadId> {
        self.threads.lock().unwrap().clone()
    }

    /// An ordering evaluation (as [`discs`]) that records its threads here.
    fn eval(self: &Arc<Recorder>) -> impl Fn(&Position) -> i32 + Send + Sync + 'static {
        let me = self.clone();
        move |p: &Position| {
            let epoch = me.epoch.load(Ordering::Relaxed) + 1;
            if RECORDED.get() != epoch {
                RECORDED.set(epoch);
                me.threads.lock().unwrap().insert(std::thread::current().id());
            }
            discs(p)
        }
    }
}

#[test]
fn a_table_that_cannot_be_shared_solves_on_one_thread() {
    assert!(LocalTable::with_mib(1).as_shared().is_none());
    assert!(TranspositionTable::with_mib(1).as_shared().is_some());
    let seen = Arc::new(Recorder::default());
    let config = |threads| {
        SolverConfig::default()
            .with_tt_mib(8)
            .with_threads(threads)
            .with_ordering(seen.eval())
    };
    let mut one: Solver<LocalTable> = Solver::with_table_type(config(1));
    let mut two: Solver<LocalTable> = Solver::with_table_type(config(2));
    let mut three: Solver<LocalTable> = Solver::with_table_type_and_techniques(config(3), Techniques::default());
    let me = std::thread::current().id();
    // FFO #21-#23 (15, 17 and 18 empty squares: the evaluation ordering, at 18 the
    // pre-solve).
    for (n, obf) in ffo::positions().into_iter().skip(20).take(3) {
        let pos = obf.position;
        seen.clear();
        let a = one.solve(&pos, SolveMode::Exact);
        let b = two.solve(&pos, SolveMode::Exact);
        let c = three.solve(&pos, SolveMode::Exact);
        assert_eq!(Some(a.score), obf.best_score(), "FFO #{n}");
        // One thread: the single-threaded tree exactly (helper threads would add nodes).
        assert_eq!(key(&b), key(&a), "FFO #{n}, two threads asked");
        assert_eq!(key(&c), key(&a), "FFO #{n}, three threads asked");
        if pos.empty_count() < 18 {
            let listed = one.score_moves(&pos, SolveMode::Exact);
            let nodes = one.last_nodes();
            assert_eq!(two.score_moves(&pos, SolveMode::Exact), listed, "FFO #{n}");
            assert_eq!(two.last_nodes(), nodes, "FFO #{n}");
            assert_eq!(listed.len(), obf.scores.len(), "FFO #{n}");
            assert_eq!(listed[0].1, a.score, "FFO #{n}");
        }
        // Every call of the evaluation came from this thread.
        assert_eq!(seen.seen(), HashSet::from([me]), "FFO #{n}");
    }
    // The same configuration on the shareable default table does run helper threads (the
    // recording sees other threads than this one), with the same scores. (Two solves of some
    // hundred milliseconds each: a helper searches nothing only if it starts after the main
    // thread is done.)
    let mut shared = Solver::new(config(2));
    seen.clear();
    for n in [22, 23] {
        let obf = ffo::position(n).unwrap();
        let s = shared.solve(&obf.position, SolveMode::Exact);
        assert_eq!(Some(s.score), obf.best_score(), "FFO #{n}");
    }
    let threads = seen.seen();
    assert!(threads.contains(&me) && threads.len() > 1, "{threads:?}");
    // Its move listing runs on spawned threads (the moves shared among them), the local
    // table's (above) on the calling thread.
    seen.clear();
    let obf = ffo::position(21).unwrap();
    let listed = shared.score_moves(&obf.position, SolveMode::Exact);
    let threads = seen.seen();
    assert!(!threads.is_empty() && !threads.contains(&me), "{threads:?}");
    assert_eq!(listed, one.score_moves(&obf.position, SolveMode::Exact));
}
