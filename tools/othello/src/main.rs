//! `othello`: the command-line workbench of the toolkit. It composes the library crates (rules,
//! evaluation, search, endgame solver, MCTS); it does not reimplement them.
//!
//! Exit codes: 0 success, 1 a failed check (such as a solve mismatch), 2 bad input (a malformed
//! board, an illegal move, an unknown option, a bad file), with a short error on stderr: one line
//! naming the problem, plus clap's `tip:` line when it gives one (so a usage error can take two).
#![forbid(unsafe_code)]

use clap::Parser;
use othello_cli::cli::{Cli, Command};
use othello_cli::{bench, book_cmd, nboard, perft, play, search_cmd, show, solve};

/// The lines of a clap error this command prints: the first (it names the problem, with the
/// names that follow it when it ends with a colon, such as the missing arguments) and clap's
/// first `tip:` line when it has one (a similar option, or how to pass a value that starts
/// with `-`).
fn clap_error_lines(rendered: &str) -> Vec<String> {
    let mut lines = rendered.lines().filter(|l| !l.trim().is_empty());
    let Some(first) = lines.next() else {
        return vec!["error: bad arguments".to_string()];
    };
    let mut first = first.trim().to_string();
    let rest: Vec<&str> = lines.collect();
    if first.ends_with(':') {
        let names: Vec<&str> = rest
            .iter()
            .take_while(|l| l.starts_with("  ") && !l.trim_start().starts_with("tip:"))
            .map(|l| l.trim())
            .collect();
        first = format!("{first} {}", names.join(", "));
    }
    let mut out = vec![first];
    if let Some(tip) = rest.iter().find(|l| l.trim_start().starts_with("tip:")) {
        out.push(tip.trim().to_string());
    }
    out
}

/// The message for a negative number given to a flag that takes a count or a size (clap's own
/// says "invalid digit found in string"), in the form of the commands' range errors.
fn negative_value(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if !matches!(e.kind(), ErrorKind::ValueValidation | ErrorKind::InvalidValue) {
        return None;
    }
    let value = match e.get(ContextKind::InvalidValue)? {
        ContextValue::String(v) => v.clone(),
        _ => return None,
    };
    let arg = match e.get(ContextKind::InvalidArg)? {
        ContextValue::String(a) => a.split_whitespace().next()?.to_string(),
        _ => return None,
    };
    let negative = value
        .strip_prefix('-')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    negative.then(|| format!("error: bad {arg} {value}: negative, expected a count or a size"))
}

fn main() {
    let args = othello_cli::input::protect_positions(std::env::args_os());
    let cli = match Cli::try_parse_from(args) {
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
            if let Some(line) = negative_value(&e) {
                eprintln!("{line}");
                std::process::exit(2);
            }
            // clap's message spans several lines (usage, hints): keep the line naming the
            // problem and the tip.
            for line in clap_error_lines(&e.render().to_string()) {
                eprintln!("{line}");
            }
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
        Command::Stats(a) => play::run_stats(a),
        Command::Nboard(a) => nboard::run(a),
        Command::Book(a) => book_cmd::run(a),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(e.exit_code());
    }
}
