//! The [`Player`] trait, its [`Reply`], and the seeded [`RandomPlayer`].

use crate::Limits;
use othello_rules::{Move, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// What a player answers to [`Player::think`].
#[derive(Clone, Debug, PartialEq, Eq)]
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
        let moves = pos.moves();
        if moves.is_empty() {
            Move::Pass
        } else {
            moves[self.rng.random_range(0..moves.len())]
        }
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
    }
}
