//! The command line's definition: the clap [`Cli`] type with one [`Command`] per subcommand.
//! The binary parses it; the tests walk it (every subcommand, flag and alias must appear in
//! docs/cli.md).
//!
//! ```
//! use clap::CommandFactory;
//! use othello_cli::cli::Cli;
//!
//! let command = Cli::command();
//! assert!(command.get_subcommands().any(|s| s.get_name() == "perft"));
//! ```

use crate::{bench, nboard, perft, play, search_cmd, show, solve};
use clap::{Parser, Subcommand};

/// Othello engine toolkit: perft, show, benchmarks, search, solving, matches, match
/// statistics, the NBoard protocol.
#[derive(Parser, Debug)]
#[command(name = "othello", version = crate::build_info::VERSION, about, propagate_version = true)]
pub struct Cli {
    /// The subcommand to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the game tree (published perft convention: a pass is a ply).
    #[command(allow_negative_numbers = true)]
    Perft(perft::PerftArgs),
    /// Print a position: board, side to move, legal moves, disc counts.
    #[command(allow_negative_numbers = true)]
    Show(show::ShowArgs),
    /// Run the fixed benchmark over the embedded position set (the node count is a signature).
    #[command(allow_negative_numbers = true)]
    Bench(bench::BenchArgs),
    /// Search a position with an engine spec: one line per iteration, then the best move.
    #[command(allow_negative_numbers = true)]
    Search(search_cmd::SearchArgs),
    /// Solve endgames exactly (a position, or an OBF file checked against its listed scores).
    #[command(allow_negative_numbers = true)]
    Solve(solve::SolveArgs),
    /// Play a match between two engine specs.
    #[command(allow_negative_numbers = true)]
    Play(Box<play::PlayArgs>),
    /// Elo, LOS and the SPRT of given pentanomial counts (e.g. merged from `play --pairs` runs).
    #[command(allow_negative_numbers = true)]
    Stats(play::StatsArgs),
    /// Speak the NBoard engine protocol (version 2) on stdin/stdout.
    #[command(allow_negative_numbers = true)]
    Nboard(nboard::NboardArgs),
}
