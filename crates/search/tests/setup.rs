//! Where a game's setup work happens: `Searcher::new_game` allocates and clears the tables
//! (the search's and the endgame solver's), so that a timed move after it does neither. A
//! 16 MiB table's allocation or clearing is milliseconds of page faults and memory traffic,
//! which a match charges to the move that does it (the first move of each game, before).
//!
//! The tables are counted, not timed: a table type that counts its allocations and clears.

use othello_eval::Evaluator;
use othello_rules::{BoardSize, Move, Position};
use othello_search::{Limits, SearchConfig, Searcher, Selectivity};
use othello_table::{Bound, Entry, LocalTable, Table, TableStats};
use std::cell::Cell;
use std::time::Duration;

thread_local! {
    /// Tables allocated and tables cleared by this thread (each test runs on its own).
    static ALLOCATED: Cell<u32> = const { Cell::new(0) };
    static CLEARED: Cell<u32> = const { Cell::new(0) };
}

/// The counts so far, as (allocated, cleared), and both reset to zero.
fn take_counts() -> (u32, u32) {
    (ALLOCATED.replace(0), CLEARED.replace(0))
}

/// A [`LocalTable`] that counts its allocations and clears (one thread: the local table is not
/// shareable, so the search and the solver run on the caller's thread).
struct Counting(LocalTable);

impl Table for Counting {
    fn with_mib(mib: usize) -> Self {
        ALLOCATED.set(ALLOCATED.get() + 1);
        Counting(LocalTable::new(mib))
    }
    fn probe(&self, size: BoardSize, player: u64, opponent: u64) -> Option<Entry> {
        self.0.probe(size, player, opponent)
    }
    fn store(
        &self,
        size: BoardSize,
        player: u64,
        opponent: u64,
        depth: u8,
        score: i16,
        bound: Bound,
        best_move: Option<Move>,
    ) {
        self.0.store(size, player, opponent, depth, score, bound, best_move);
    }
    fn new_search(&self) {
        self.0.new_search();
    }
    fn generation(&self) -> u8 {
        self.0.generation()
    }
    fn clear(&self) {
        CLEARED.set(CLEARED.get() + 1);
        self.0.clear();
    }
    fn stats(&self) -> TableStats {
        self.0.stats()
    }
    fn reset_stats(&self) {
        self.0.reset_stats();
    }
    fn capacity(&self) -> usize {
        self.0.capacity()
    }
    fn mib(&self) -> usize {
        self.0.mib()
    }
}

/// Mobility: cheap, and enough for a search to fill its table.
struct Mobility;
impl Evaluator for Mobility {
    fn evaluate(&self, pos: &Position) -> i32 {
        (pos.legal_moves().count() as i32 - pos.opponent_moves().count() as i32) * 100
    }
}

/// The position after the first legal move, `plies` times (passes played).
fn after(plies: usize) -> Position {
    let mut pos = Position::start();
    for _ in 0..plies {
        pos = if pos.must_pass() {
            pos.pass_unchecked()
        } else {
            pos.play_unchecked(pos.moves()[0])
        };
    }
    assert!(!pos.is_game_over());
    pos
}

fn searcher() -> Searcher<Mobility, Counting> {
    // Small tables: the counts, not the sizes, are the point.
    Searcher::with_table_type(Mobility, SearchConfig::default().with_tt_mib(1))
}

/// A fixed time per move, as a match gives: the search is interruptible.
fn timed() -> Limits {
    Limits::move_time(Duration::from_millis(20))
}

#[test]
fn a_new_game_allocates_both_tables_and_the_timed_moves_after_it_touch_neither() {
    let mut s = searcher();
    s.new_game();
    assert_eq!(
        take_counts(),
        (2, 0),
        "the search's table and the solver's, allocated empty"
    );
    let midgame = after(8);
    let endgame = after(50);
    assert!(
        endgame.empty_count() <= s.config().endgame_empties,
        "the solver's position"
    );
    s.search(&midgame, &timed(), |_| {});
    s.search(&endgame, &timed(), |_| {});
    assert_eq!(take_counts(), (0, 0), "no table work in the timed moves");
    // The next game: both cleared, none allocated; its moves again do no table work.
    s.new_game();
    assert_eq!(take_counts(), (0, 2));
    s.search(&midgame, &timed(), |_| {});
    s.search(&endgame, &Limits::depth(60), |_| {});
    assert_eq!(take_counts(), (0, 0));
}

#[test]
fn without_a_new_game_the_first_search_allocates_once_and_clears_nothing() {
    let mut s = searcher();
    s.search(&after(8), &Limits::depth(4), |_| {});
    assert_eq!(take_counts(), (1, 0), "the fresh table is empty: no clear");
    s.search(&after(9), &Limits::depth(4), |_| {});
    assert_eq!(take_counts(), (0, 0));
}

#[test]
fn a_new_rule_clears_a_filled_table_but_not_an_empty_one() {
    let mut s = searcher();
    s.new_game();
    take_counts();
    s.search(&after(8), &Limits::depth(4), |_| {});
    // The table holds values of the first rule: a search under another clears it.
    s.config_mut().selectivity = Selectivity::Level(1);
    s.search(&after(8), &Limits::depth(4), |_| {});
    assert_eq!(take_counts(), (0, 1));
    // After a new game the table is empty: a change of rule needs no clear.
    s.new_game();
    take_counts();
    s.config_mut().selectivity = Selectivity::Off;
    s.search(&after(8), &Limits::depth(4), |_| {});
    assert_eq!(take_counts(), (0, 0));
}

#[test]
fn a_new_table_size_is_allocated_by_the_new_game() {
    let mut s = searcher();
    s.new_game();
    s.search(&after(8), &Limits::depth(4), |_| {});
    take_counts();
    s.config_mut().tt_mib = 2;
    s.new_game();
    // The search's table at its new size (the solver's is cleared: its size was set once).
    assert_eq!(take_counts(), (1, 1));
    s.search(&after(8), &timed(), |_| {});
    assert_eq!(take_counts(), (0, 0));
}

#[test]
fn the_player_layers_new_game_does_the_setup() {
    use othello_engine::Player;
    let mut s = searcher();
    Player::new_game(&mut s);
    assert_eq!(take_counts(), (2, 0));
    s.think(&after(8), &timed());
    assert_eq!(take_counts(), (0, 0));
}

#[test]
fn only_the_tables_a_configuration_uses_are_allocated() {
    // No endgame solver: the search's table alone.
    let mut s: Searcher<Mobility, Counting> =
        Searcher::with_table_type(Mobility, SearchConfig::default().with_tt_mib(1).with_endgame_empties(0));
    s.new_game();
    assert_eq!(take_counts(), (1, 0));
    // No search table (size 0): the solver's alone, and no search allocates one.
    let mut s: Searcher<Mobility, Counting> =
        Searcher::with_table_type(Mobility, SearchConfig::default().with_tt_mib(0));
    s.new_game();
    assert_eq!(take_counts(), (1, 0));
    s.search(&after(8), &timed(), |_| {});
    assert_eq!(take_counts(), (0, 0));
    // A search that does not prune uses neither.
    let config = SearchConfig::default()
        .with_tt_mib(1)
        .with_algorithm(othello_search::Algorithm::Negamax);
    let mut s: Searcher<Mobility, Counting> = Searcher::with_table_type(Mobility, config);
    s.new_game();
    s.search(&after(8), &Limits::depth(3), |_| {});
    assert_eq!(take_counts(), (0, 0));
}
