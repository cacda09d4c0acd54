//! `labels`: labels of the games' positions (exact, pv, result, search).

use super::common::{Common, bad, empties_range, play_eval};
use othello_search::Selectivity;
use othello_train::TrainResult;
use othello_train::labelling::{self, LabelsConfig, Mode};
use std::time::Instant;

/// Options of `labels`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The games file (from `games` or `import`).
    #[arg(long)]
    games: String,
    /// Output file (JSON Lines); positions already in it (or their twins) are not labelled again.
    #[arg(long)]
    out: String,
    /// `exact`: solve every position in range; `pv`: solve the position at --solve-empties and
    /// label the positions of its principal variation too (exact); `result`: solve at
    /// --solve-empties, label the earlier positions by that result; `search`: a --depth search.
    #[arg(long, default_value = "exact")]
    mode: String,
    /// Fewest empties labelled.
    #[arg(long, default_value_t = 1)]
    min_empties: u32,
    /// Most empties labelled (exact: the solving time grows about 3x per empty) [default: 20
    /// for exact, 60 otherwise].
    #[arg(long)]
    max_empties: Option<u32>,
    /// `pv`, `result`: the empties of the position solved in each game (22-26 is cheap).
    #[arg(long, default_value_t = 24)]
    solve_empties: u32,
    /// `search`: the search depth.
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// `search`: label with the mean of the values of this many consecutive depths ending at
    /// --depth, from the one search's iterations (2 cancels the evaluation's odd/even swing).
    #[arg(long, default_value_t = 1)]
    mean_of: u32,
    /// `search`: the selectivity, `off` (full width) or a level 0-4 of `othello_search::Selectivity`
    /// (selective search needs pattern weights with a cut table; the label records the level)
    #[arg(long, default_value = "off")]
    selectivity: Selectivity,
    /// `search`: the evaluation, `hand` or `pattern` (the embedded weights, or --weights).
    #[arg(long, default_value = "pattern")]
    eval: String,
    /// `search`: a pattern weights file.
    #[arg(long)]
    weights: Option<String>,
    /// Visit at most this many games (in game order).
    #[arg(long)]
    max_games: Option<usize>,
    /// Visit only the games whose number is a multiple of this (e.g. the held-out games).
    #[arg(long, default_value_t = 1)]
    every: u32,
    /// Solver table size in MiB.
    #[arg(long, default_value_t = 64)]
    tt: usize,
    /// The solver's move ordering far from the leaves: `pattern` (the embedded pattern
    /// evaluation, as `othello solve --eval auto`; fewer nodes from about 16 empties) or
    /// `none` (its built-in mobility ordering). The labels are the same.
    #[arg(long, default_value = "pattern")]
    ordering: String,
    #[command(flatten)]
    common: Common,
}

/// Runs `labels`.
pub fn run(a: &Args) -> TrainResult<()> {
    let mode = match a.mode.as_str() {
        "exact" => Mode::Exact,
        "pv" => Mode::Pv {
            solve_empties: a.solve_empties,
        },
        "result" => Mode::Result {
            solve_empties: a.solve_empties,
        },
        "search" => {
            if !(1..=30).contains(&a.depth) {
                return Err(bad(format!("bad --depth {}: expected 1 to 30", a.depth)));
            }
            if !(1..=a.depth).contains(&a.mean_of) {
                return Err(bad(format!(
                    "bad --mean-of {}: expected 1 to --depth ({})",
                    a.mean_of, a.depth
                )));
            }
            Mode::Search {
                depth: a.depth,
                mean_of: a.mean_of,
                eval: play_eval(&a.eval, a.weights.as_ref())?,
                selectivity: a.selectivity,
            }
        }
        other => {
            return Err(bad(format!(
                "bad --mode {other:?}: expected exact, pv, result or search"
            )));
        }
    };
    let max_empties = a.max_empties.unwrap_or(if mode == Mode::Exact { 20 } else { 60 });
    empties_range(a.min_empties, max_empties)?;
    if a.solve_empties > 60 {
        return Err(bad(format!(
            "bad --solve-empties {}: expected at most 60",
            a.solve_empties
        )));
    }
    let config = LabelsConfig {
        mode,
        min_empties: a.min_empties,
        max_empties,
        max_games: a.max_games,
        every: a.every,
        tt_mib: a.tt,
        ordering: match a.ordering.as_str() {
            "pattern" => true,
            "none" => false,
            other => return Err(bad(format!("bad --ordering {other:?}: expected pattern or none"))),
        },
    };
    let t = Instant::now();
    let s = labelling::run(&config, &a.games, &a.out, a.common.on_bad(), |s| {
        if !a.common.quiet && s.games % 20 == 0 {
            eprintln!(
                "labels: {} games, {} labels, {} solves, {:.2e} nodes, {:.1} s",
                s.games,
                s.labels,
                s.solves,
                s.nodes as f64,
                t.elapsed().as_secs_f64()
            );
        }
    })?;
    eprintln!(
        "labels: {} games visited, {} labels written, {} solves or searches, {:.2e} nodes, {:.1} s",
        s.games,
        s.labels,
        s.solves,
        s.nodes as f64,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
