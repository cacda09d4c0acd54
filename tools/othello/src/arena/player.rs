//! The players of a match, both driven through `othello_engine::Player`: in-process engines
//! built from specs (the searcher, MCTS, the random player) and external NBoard processes
//! ([`ExternalPlayer`], which also reports failures and is told the game's history and times).

use super::clock::Clock;
use super::external::ExternalPlayer;
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
                // A depth-1 search before the clock starts, so that the first timed move does
                // not pay for allocating the player's tables (tens of milliseconds for the
                // default 64 MiB table: half of a 75 ms move), then a clean start.
                player.new_game();
                player.think(&root, &Limits::depth(1).with_nodes(1));
                player.new_game();
                Ok(())
            }
            Seat::External(e) => e.start_game(root, moves, time_control),
        }
    }

    /// The move in `pos` with `clock` for this side (an in-process player is told the clock
    /// less `overhead`, see [`Clock::limits`]), and the time limit an in-process player worked
    /// under (for the overshoot figures).
    ///
    /// # Errors
    /// An external engine's failure (the runner checks legality for every player).
    pub fn think(
        &mut self,
        pos: &Position,
        clock: &Clock,
        overhead: Duration,
    ) -> Result<(Reply, Option<TimeLimit>), Failure> {
        match self {
            Seat::InProcess { player, base, own, .. } => {
                let mut spec_limits = base.clone();
                if !*own && clock.is_timed() {
                    spec_limits.depth = None;
                    spec_limits.nodes = None;
                }
                let limits = clock.limits(spec_limits, overhead);
                let given = limits.time_limit(pos.empty_count());
                Ok((player.think(pos, &limits), given))
            }
            Seat::External(e) => {
                // An external engine sees its true clock and keeps its own overhead.
                let limits = clock.limits(Limits::none(), Duration::ZERO);
                let reply = e.think(pos, &limits);
                match e.take_failure() {
                    Some(f) => Err(f),
                    None => Ok((reply, None)),
                }
            }
        }
    }

    /// Tells the player a move was played, and how long it took.
    pub fn observe(&mut self, mv: Move, time: Duration) {
        match self {
            Seat::InProcess { player, .. } => player.observe(mv),
            Seat::External(e) => e.observe_timed(mv, Some(time)),
        }
    }

    /// Starts an external engine again after a failure.
    pub fn restart(&mut self) {
        if let Seat::External(e) = self {
            e.restart();
        }
    }
}
