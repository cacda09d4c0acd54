//! The [`Player`] trait, its [`Reply`] (with [`MctsFigures`] for tree searches), the
//! [`Progress`] a player reports while it thinks, and the seeded [`RandomPlayer`].

use crate::{Limits, Selectivity};
use othello_rules::{Move, Position};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::time::{Duration, Instant};

/// What a player answers to [`Player::think`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Reply {
    /// The move to play: always legal; [`Move::Pass`] when the side to move must pass or the
    /// game is over.
    pub best_move: Move,
    /// The player's score of the position in centi-discs from the side to move, if it has
    /// one (a search does; Monte Carlo tree search and the random player do not).
    pub score: Option<i32>,
    /// Whether `score` is the exact game-theoretic value.
    pub exact: bool,
    /// The depth reached, in discs placed (0 when the player does not search by depth).
    pub depth: u32,
    /// The player's node count for this move, all threads together (see
    /// [`Limits`] and `docs/conventions.md` for what a node is).
    pub nodes: u64,
    /// Wall-clock time spent.
    pub time: Duration,
    /// The expected line, starting with `best_move` (empty when the player has none).
    pub pv: Vec<Move>,
    /// Every root move with its score (centi-discs, side to move), best first, when the
    /// player scored them all (the searcher with `multi_pv` on); empty otherwise.
    pub root_moves: Vec<(Move, i32)>,
    /// The figures of a Monte Carlo tree search (playouts, the chosen move's visits and mean
    /// result); `None` for other players.
    pub mcts: Option<MctsFigures>,
    /// The selectivity the answer was searched at ([`Selectivity::Off`] for a full-width or
    /// exact search, and for players that do not prune by a cut model).
    pub selectivity: Selectivity,
    /// Whether the move came from an opening book (then `score` is the book's value and
    /// nothing was searched).
    pub book: bool,
}

/// What a Monte Carlo tree search knows about its choice, in a [`Reply`]. Its node count (the
/// iterations) is [`Reply::nodes`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct MctsFigures {
    /// Random playouts run for this move (iterations that reached a finished game in the tree
    /// are scored without one).
    pub playouts: u64,
    /// Visits of the chosen move at the root (all trees).
    pub visits: u64,
    /// Visits of all root moves together (all trees; reused visits included).
    pub root_visits: u64,
    /// The chosen move's mean result for the side to move: win 1, draw 1/2, loss 0.
    pub mean_result: f64,
}

impl MctsFigures {
    /// The figures of one search.
    pub fn new(playouts: u64, visits: u64, root_visits: u64, mean_result: f64) -> MctsFigures {
        MctsFigures {
            playouts,
            visits,
            root_visits,
            mean_result,
        }
    }

    /// The chosen move's share of the root visits, in (0, 1]; `None` when the root has no
    /// visit (a forced move answered without search, or a stop before the first iteration).
    pub fn visit_share(&self) -> Option<f64> {
        (self.root_visits > 0).then(|| self.visits as f64 / self.root_visits as f64)
    }
}

/// One completed step of a player's thinking, reported to [`Player::think_with`]'s callback:
/// for an iterative-deepening search, one per completed iteration, deepest last.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Progress {
    /// The depth completed, in discs placed.
    pub depth: u32,
    /// The score at that depth in centi-discs from the side to move.
    pub score: i32,
    /// Whether `score` is the exact game-theoretic value.
    pub exact: bool,
    /// Nodes so far in this move (all threads).
    pub nodes: u64,
    /// Time since the player started thinking.
    pub time: Duration,
    /// The expected line at that depth, starting with the best move.
    pub pv: Vec<Move>,
    /// The selectivity the step was searched at ([`Selectivity::Off`] when full-width).
    pub selectivity: Selectivity,
}

impl Progress {
    /// A step at `depth` with its score (no nodes, no time, no line).
    pub fn new(depth: u32, score: i32, exact: bool) -> Progress {
        Progress {
            depth,
            score,
            exact,
            nodes: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
            selectivity: Selectivity::Off,
        }
    }

    /// Sets the node count.
    #[must_use]
    pub fn with_nodes(mut self, nodes: u64) -> Progress {
        self.nodes = nodes;
        self
    }

    /// Sets the time.
    #[must_use]
    pub fn with_time(mut self, time: Duration) -> Progress {
        self.time = time;
        self
    }

    /// Sets the line.
    #[must_use]
    pub fn with_pv(mut self, pv: Vec<Move>) -> Progress {
        self.pv = pv;
        self
    }

    /// Sets the selectivity.
    #[must_use]
    pub fn with_selectivity(mut self, selectivity: Selectivity) -> Progress {
        self.selectivity = selectivity;
        self
    }
}

impl Reply {
    /// A reply with only a move (no score, depth 0, no nodes, no time, no line).
    pub fn new(best_move: Move) -> Reply {
        Reply {
            best_move,
            score: None,
            exact: false,
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
            root_moves: Vec::new(),
            mcts: None,
            selectivity: Selectivity::Off,
            book: false,
        }
    }

    /// Sets the score (centi-discs) and whether it is exact.
    #[must_use]
    pub fn with_score(mut self, score: i32, exact: bool) -> Reply {
        self.score = Some(score);
        self.exact = exact;
        self
    }

    /// Sets the depth.
    #[must_use]
    pub fn with_depth(mut self, depth: u32) -> Reply {
        self.depth = depth;
        self
    }

    /// Sets the node count.
    #[must_use]
    pub fn with_nodes(mut self, nodes: u64) -> Reply {
        self.nodes = nodes;
        self
    }

    /// Sets the time.
    #[must_use]
    pub fn with_time(mut self, time: Duration) -> Reply {
        self.time = time;
        self
    }

    /// Sets the principal variation.
    #[must_use]
    pub fn with_pv(mut self, pv: Vec<Move>) -> Reply {
        self.pv = pv;
        self
    }

    /// Sets the selectivity.
    #[must_use]
    pub fn with_selectivity(mut self, selectivity: Selectivity) -> Reply {
        self.selectivity = selectivity;
        self
    }

    /// Sets the scored root moves, best first.
    #[must_use]
    pub fn with_root_moves(mut self, root_moves: Vec<(Move, i32)>) -> Reply {
        self.root_moves = root_moves;
        self
    }

    /// Marks the move as one from an opening book.
    #[must_use]
    pub fn with_book(mut self, book: bool) -> Reply {
        self.book = book;
        self
    }

    /// Sets the figures of a Monte Carlo tree search.
    #[must_use]
    pub fn with_mcts(mut self, figures: MctsFigures) -> Reply {
        self.mcts = Some(figures);
        self
    }
}

/// A player: anything that chooses moves under [`Limits`]. The alpha-beta `Searcher`
/// (`othello-search`) and `Mcts` (`othello-mcts`) implement it, as does [`RandomPlayer`];
/// a match runner drives any of them through this trait alone.
///
/// **Stopping.** `think` blocks the calling thread; to stop it early, put a flag in
/// [`Limits::stop`] and raise it from another thread: the player then returns its best move
/// so far (a legal move in every case).
///
/// ```
/// use othello_engine::{Limits, Player, RandomPlayer};
/// use othello_rules::{Color, Position};
///
/// let mut a = RandomPlayer::new(1);
/// let mut b = RandomPlayer::new(2);
/// let mut pos = Position::start();
/// a.new_game();
/// b.new_game();
/// while !pos.is_game_over() {
///     let player: &mut dyn Player = if pos.side_to_move() == Color::Black { &mut a } else { &mut b };
///     let reply = player.think(&pos, &Limits::none());
///     a.observe(reply.best_move);
///     b.observe(reply.best_move);
///     pos = pos.play(reply.best_move).expect("players answer legal moves");
/// }
/// let (black, white) = pos.disc_counts();
/// assert_eq!(black + white + pos.empty_count(), 64);
/// ```
pub trait Player {
    /// A short name for logs and tables (e.g. `pvs`, `mcts`, `random`).
    fn name(&self) -> String;

    /// Forgets everything learned in the previous game (tables, trees, history).
    fn new_game(&mut self);

    /// Chooses a move in `pos` within `limits`. Never changes `pos`; always returns a legal
    /// move ([`Move::Pass`] when the side to move has no square, and when the game is over).
    fn think(&mut self, pos: &Position, limits: &Limits) -> Reply;

    /// [`Player::think`], calling `on_progress` after each completed step (for an
    /// iterative-deepening search: each completed iteration, in increasing depth) so that a
    /// caller can show the thinking as it goes. The default thinks and reports nothing; the
    /// searcher (`othello-search`) reports its iterations. A player's answer is the same with
    /// or without a callback.
    fn think_with(&mut self, pos: &Position, limits: &Limits, on_progress: &mut dyn FnMut(&Progress)) -> Reply {
        let _ = on_progress;
        self.think(pos, limits)
    }

    /// Tells the player that `mv` was played in the game (by either side), for players that
    /// keep state between moves (tree reuse). The default does nothing.
    fn observe(&mut self, mv: Move) {
        let _ = mv;
    }
}

impl<P: Player + ?Sized> Player for Box<P> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn new_game(&mut self) {
        (**self).new_game();
    }
    fn think(&mut self, pos: &Position, limits: &Limits) -> Reply {
        (**self).think(pos, limits)
    }
    fn think_with(&mut self, pos: &Position, limits: &Limits, on_progress: &mut dyn FnMut(&Progress)) -> Reply {
        (**self).think_with(pos, limits, on_progress)
    }
    fn observe(&mut self, mv: Move) {
        (**self).observe(mv);
    }
}

/// The baseline: a uniformly random legal move from a seeded generator (`rand`'s `SmallRng`).
/// The same seed gives the same moves for the same positions. [`Player::new_game`] does not
/// restart the sequence, so the games of a match differ while the whole match is reproducible
/// from the seed (call [`RandomPlayer::new`] again to restart).
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    seed: u64,
    rng: SmallRng,
}

impl RandomPlayer {
    /// A random player with this seed.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            seed,
            rng: SmallRng::seed_from_u64(seed),
        }
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The next random move in `pos` (a pass when there is no square, also at the end).
    pub fn choose(&mut self, pos: &Position) -> Move {
        othello_rules::random::random_move(pos, &mut self.rng).unwrap_or(Move::Pass)
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    /// Nothing to forget: the random sequence continues (see the type docs).
    fn new_game(&mut self) {}

    fn think(&mut self, pos: &Position, _limits: &Limits) -> Reply {
        let start = Instant::now();
        let mv = self.choose(pos);
        Reply::new(mv).with_time(start.elapsed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(p: &mut RandomPlayer) -> Vec<Move> {
        p.new_game();
        let mut pos = Position::start();
        let mut moves = Vec::new();
        while !pos.is_game_over() {
            let r = p.think(&pos, &Limits::none());
            assert!(pos.is_legal(r.best_move));
            assert_eq!((r.score, r.depth, r.nodes), (None, 0, 0));
            moves.push(r.best_move);
            pos = pos.play_unchecked(r.best_move);
        }
        moves
    }

    #[test]
    fn random_player_is_reproducible_and_seed_dependent() {
        let mut a = RandomPlayer::new(7);
        let first = game(&mut a);
        let second = game(&mut a);
        assert_ne!(second, first, "new_game continues the sequence");
        let mut b = RandomPlayer::new(7);
        assert_eq!((game(&mut b), game(&mut b)), (first.clone(), second));
        assert_ne!(game(&mut RandomPlayer::new(8)), first);
        assert_eq!(a.seed(), 7);
        assert_eq!(a.name(), "random");
    }

    #[test]
    fn random_player_passes_when_it_must_and_at_the_end() {
        // Black has no move, white has: black must pass.
        let pos: Position = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO- X"
            .parse()
            .unwrap();
        let mut p = RandomPlayer::new(0);
        if pos.must_pass() {
            assert_eq!(p.think(&pos, &Limits::none()).best_move, Move::Pass);
        }
        let over: Position = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O"
            .parse()
            .unwrap();
        assert!(over.is_game_over());
        assert_eq!(p.think(&over, &Limits::none()).best_move, Move::Pass);
    }

    /// Records what it is told.
    #[derive(Default)]
    struct Recorder {
        games: u32,
        seen: Vec<Move>,
    }

    impl Player for Recorder {
        fn name(&self) -> String {
            "recorder".into()
        }
        fn new_game(&mut self) {
            self.games += 1;
        }
        fn think(&mut self, pos: &Position, _: &Limits) -> Reply {
            Reply::new(pos.moves()[0]).with_nodes(self.seen.len() as u64)
        }
        fn think_with(&mut self, pos: &Position, limits: &Limits, on_progress: &mut dyn FnMut(&Progress)) -> Reply {
            on_progress(&Progress::new(7, 0, false));
            self.think(pos, limits)
        }
        fn observe(&mut self, mv: Move) {
            self.seen.push(mv);
        }
    }

    #[test]
    fn a_boxed_player_forwards_every_method() {
        let mut boxed: Box<Recorder> = Box::default();
        let f5: Move = "f5".parse().unwrap();
        assert_eq!(Player::name(&boxed), "recorder");
        Player::new_game(&mut boxed);
        Player::observe(&mut boxed, f5);
        let r = Player::think(&mut boxed, &Position::start(), &Limits::none());
        assert_eq!((boxed.games, boxed.seen.clone(), r.nodes), (1, vec![f5], 1));
        let mut depths = Vec::new();
        let r = Player::think_with(&mut boxed, &Position::start(), &Limits::none(), &mut |p| {
            depths.push(p.depth)
        });
        assert_eq!((depths, r.nodes), (vec![7], 1));
        // The default `think_with` answers as `think` and reports nothing.
        let mut calls = 0;
        let a = RandomPlayer::new(5).think_with(&Position::start(), &Limits::none(), &mut |_| calls += 1);
        let b = RandomPlayer::new(5).think(&Position::start(), &Limits::none());
        assert_eq!((a.best_move, calls), (b.best_move, 0));
        // The default `observe` ignores the move (a random player has no state to update).
        let mut p = RandomPlayer::new(3);
        let before = p.clone().choose(&Position::start());
        p.observe(f5);
        assert_eq!(p.choose(&Position::start()), before);
    }

    #[test]
    fn reply_builders_set_each_field() {
        let r = Reply::new(Move::Pass)
            .with_score(-300, true)
            .with_depth(4)
            .with_nodes(99)
            .with_time(Duration::from_millis(3))
            .with_pv(vec![Move::Pass]);
        assert_eq!((r.score, r.exact, r.depth, r.nodes), (Some(-300), true, 4, 99));
        assert_eq!((r.time, r.pv.len()), (Duration::from_millis(3), 1));
        assert_eq!((r.root_moves.len(), r.mcts, r.book), (0, None, false));
        assert!(Reply::new(Move::Pass).with_book(true).book);
        let f5: Move = "f5".parse().unwrap();
        let r = Reply::new(f5)
            .with_root_moves(vec![(f5, 10), (Move::Pass, -20)])
            .with_mcts(MctsFigures::new(90, 30, 120, 0.75));
        assert_eq!(r.root_moves, vec![(f5, 10), (Move::Pass, -20)]);
        let m = r.mcts.unwrap();
        assert_eq!(
            (m.playouts, m.visits, m.root_visits, m.mean_result),
            (90, 30, 120, 0.75)
        );
        assert_eq!(m.visit_share(), Some(0.25));
        assert_eq!(MctsFigures::new(0, 0, 0, 0.5).visit_share(), None);
    }

    #[test]
    fn progress_builders_set_each_field() {
        let p = Progress::new(6, -40, true)
            .with_nodes(1234)
            .with_time(Duration::from_millis(8))
            .with_pv(vec![Move::Pass]);
        assert_eq!((p.depth, p.score, p.exact, p.nodes), (6, -40, true, 1234));
        assert_eq!((p.time, p.pv), (Duration::from_millis(8), vec![Move::Pass]));
        let q = Progress::new(2, 5, false);
        assert_eq!((q.nodes, q.time, q.pv.len(), q.exact), (0, Duration::ZERO, 0, false));
    }
}
