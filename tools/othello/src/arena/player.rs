//! The players of a match: in-process engines built from specs (the searcher, MCTS, the random
//! player) and external NBoard processes ([`ExternalPlayer`], which also reports failures and
//! is told the game's history and times), both driven through `othello_engine::Player`, and a
//! person at the terminal ([`Human`]), who may also take a move back or quit.

use super::clock::Clock;
use super::external::ExternalPlayer;
use super::human::Human;
use crate::error::CliResult;
use othello_engine::{Limits, Player, Reply, TimeLimit};
use othello_rules::{Move, Position};
use othello_spec::{Engine, Spec};
use std::time::Duration;

/// Why a player gave no usable answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process exited or closed its output.
    Crashed(String),
    /// No answer before the deadline.
    Hung(Duration),
    /// An answer the runner could not read.
    Garbage(String),
    /// Output that is not text (not UTF-8).
    NotText {
        /// The engine's name.
        engine: String,
        /// The bytes from the first one that is not UTF-8 (at most 8).
        start: Vec<u8>,
    },
    /// A move that is not legal.
    Illegal(Move),
    /// A pass while a move was available.
    PassWithMove,
    /// The run was interrupted while the player was asked (the game is abandoned).
    Interrupted,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Crashed(why) => write!(f, "engine crashed: {why}"),
            Failure::Hung(t) => write!(f, "no answer within {:.3} s", t.as_secs_f64()),
            Failure::Garbage(line) => write!(f, "unreadable answer '{line}'"),
            Failure::NotText { engine, start } => {
                let hex: Vec<String> = start.iter().map(|b| format!("{b:02x}")).collect();
                write!(
                    f,
                    "bad output from engine {engine}: not text (not UTF-8: bytes {})",
                    hex.join(" ")
                )
            }
            Failure::Illegal(mv) => write!(f, "illegal move {mv}"),
            Failure::PassWithMove => f.write_str("passed with a legal move"),
            Failure::Interrupted => f.write_str("interrupted"),
        }
    }
}

/// A player seated in a match.
pub enum Seat {
    /// A player of this program, run in the worker's thread.
    InProcess {
        /// The spec, as the name in records.
        name: String,
        /// The player.
        player: Box<dyn Player + Send>,
        /// The spec's limits, defaults included (a clock is added per move).
        base: Limits,
        /// Whether the spec set its own depth, nodes or time (else a clock replaces the
        /// default depth or iteration count).
        own: bool,
    },
    /// An external NBoard engine.
    External(Box<ExternalPlayer>),
    /// A person at the terminal.
    Human(Box<Human>),
}

/// What a player answers when asked for its move.
#[derive(Clone, Debug, PartialEq)]
pub enum Turn {
    /// A move, and the time limit an in-process player worked under (for the overshoot
    /// figures).
    Move(Reply, Option<TimeLimit>),
    /// Take back the human's last move and what followed it (only when
    /// [`TurnInfo::can_undo`]).
    Undo,
    /// The human's time ran out while the runner waited for the move.
    TimeUp,
    /// Leave the game unfinished (the reason: `quit`, the end of the input).
    Quit(String),
}

/// What the runner tells the player whose turn it is.
#[derive(Clone, Copy, Debug)]
pub struct TurnInfo<'a> {
    /// The mover's clock.
    pub clock: &'a Clock,
    /// The opponent's clock (shown to a human).
    pub opponent_clock: &'a Clock,
    /// Time an in-process player keeps in hand (see [`Clock::limits`]).
    pub overhead: Duration,
    /// The runner's flag margin: a human's wait ends at the time allowed plus it.
    pub margin: Duration,
    /// Whether the mover has a move of its own in the game to take back.
    pub can_undo: bool,
}

impl Seat {
    /// The in-process player of a spec.
    ///
    /// # Errors
    /// Bad input naming the problem.
    pub fn in_process(text: &str) -> CliResult<Seat> {
        let spec: Spec = text.parse()?;
        // A spec without its own limits searches to a default depth; under a clock that cap
        // is lifted so the time manager decides.
        let own = spec.sets_limits();
        let (player, base) = Engine::from_spec(spec)?.into_player();
        Ok(Seat::InProcess {
            name: text.to_string(),
            player,
            base,
            own,
        })
    }

    /// The name in records.
    pub fn name(&self) -> String {
        match self {
            Seat::InProcess { name, .. } => name.clone(),
            Seat::External(e) => e.name(),
            Seat::Human(h) => h.name(),
        }
    }

    /// Prepares a new game from `root` after the opening `moves`, timed by `time_control`
    /// (GGF `TI` text).
    ///
    /// # Errors
    /// An external engine that does not answer.
    pub fn new_game(&mut self, root: Position, moves: &[Move], time_control: Option<&str>) -> Result<(), Failure> {
        match self {
            Seat::InProcess { player, .. } => {
                // The game's setup before its clock starts: `new_game` allocates and clears
                // the searcher's tables (the search's and the endgame solver's, 16 MiB each by
                // default), and a depth-1 search runs what a player sets up on its first search
                // (the process's first evaluation, a player that allocates lazily), then a
                // clean start. So no timed move pays for setup.
                player.new_game();
                player.think(&root, &Limits::depth(1).with_nodes(1));
                player.new_game();
                Ok(())
            }
            Seat::External(e) => e.start_game(root, moves, time_control),
            Seat::Human(h) => {
                h.new_game(root, moves);
                Ok(())
            }
        }
    }

    /// The answer in `pos` of the player whose turn `turn` describes: an engine's move (an
    /// in-process player is told its clock less the overhead, see [`Clock::limits`]), or a
    /// human's move, undo or quit.
    ///
    /// # Errors
    /// An external engine's failure (the runner checks legality for every player).
    pub fn think(&mut self, pos: &Position, turn: &TurnInfo<'_>) -> Result<Turn, Failure> {
        let (clock, overhead) = (turn.clock, turn.overhead);
        match self {
            Seat::InProcess { player, base, own, .. } => {
                let mut spec_limits = base.clone();
                if !*own && clock.is_timed() {
                    spec_limits.depth = None;
                    spec_limits.nodes = None;
                }
                let limits = clock.limits(spec_limits, overhead);
                let given = limits.time_limit(pos.empty_count());
                Ok(Turn::Move(player.think(pos, &limits), given))
            }
            Seat::External(e) => {
                // An external engine sees its true clock and keeps its own overhead.
                let limits = clock.limits(Limits::none(), Duration::ZERO);
                let reply = e.think(pos, &limits);
                match e.take_failure() {
                    Some(f) => Err(f),
                    None => Ok(Turn::Move(reply, None)),
                }
            }
            Seat::Human(h) => Ok(h.turn(pos, turn)),
        }
    }

    /// Tells the player a move was played, and how long it took.
    pub fn observe(&mut self, mv: Move, time: Duration) {
        match self {
            Seat::InProcess { player, .. } => player.observe(mv),
            Seat::External(e) => e.observe_timed(mv, Some(time)),
            Seat::Human(h) => h.observe(mv, time),
        }
    }

    /// Starts an external engine again after a failure.
    pub fn restart(&mut self) {
        if let Seat::External(e) = self {
            e.restart();
        }
    }
}
