//! `othello`: the command-line workbench of the toolkit. It composes the library crates (rules,
//! evaluation, search, endgame solver, MCTS); it does not reimplement them.
//!
//! Exit codes: 0 success, 1 a failed check (such as a solve mismatch), 2 bad input (a malformed
//! board, an illegal move, an unknown option, a bad file), always with one line on stderr.
#![forbid(unsafe_code)]

mod bench;
mod engine;
mod error;
mod evalspec;
mod input;
mod nboard;
mod output;
mod perft;
mod play;
mod search_cmd;
mod show;
mod solve;
mod spec;
mod stats;

use clap::{Parser, Subcommand};
use error::{CliResult, input};

/// Othello engine toolkit: perft, benchmarks, search, solving, matches.
#[derive(Parser, Debug)]
#[command(name = "othello", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the game tree (published perft convention: a pass is a ply).
    Perft(perft::PerftArgs),
    /// Print a position: board, side to move, legal moves, disc counts.
    Show(show::ShowArgs),
    /// Run the fixed benchmark over the embedded position set (the node count is a signature).
    Bench(bench::BenchArgs),
    /// Search a position with an engine spec: one line per iteration, then the best move.
    Search(search_cmd::SearchArgs),
    /// Solve endgames exactly (a position, or an OBF file checked against its listed scores).
    Solve(solve::SolveArgs),
    /// Play a match between two engine specs.
    Play(play::PlayArgs),
    /// Speak the NBoard engine protocol (version 2) on stdin/stdout.
    Nboard(nboard::NboardArgs),
}

/// Checks a depth given on the command line: 0 to `max`.
pub fn check_depth(depth: i64, max: u32) -> CliResult<u32> {
    if depth < 0 || depth > max as i64 {
        return Err(input(format!("bad --depth {depth}: expected 0 to {max}")));
    }
    Ok(depth as u32)
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                print!("{e}");
                std::process::exit(0);
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                eprint!("{e}");
                std::process::exit(2);
            }
            // clap's message spans several lines (usage, hints): keep the first, which names
            // the problem.
            let text = e.render().to_string();
            let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("bad arguments");
            eprintln!("{}", first.trim_start_matches("error: ").trim());
            std::process::exit(2);
        }
    };
    let result = match &cli.command {
        Command::Perft(a) => perft::run(a),
        Command::Show(a) => show::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Search(a) => search_cmd::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Play(a) => play::run(a),
        Command::Nboard(a) => nboard::run(a),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(e.exit_code());
    }
}
