//! Step 2, labels: the positions of the games with few enough empties, scored exactly by the
//! endgame solver.
//!
//! A label is a JSON line:
//! `{"game":7,"ply":41,"empties":19,"position":"<board> <side>","score":-6,"method":"exact","nodes":123456}`
//! (`score` in discs for the side to move, empties to the winner, fractional for search labels; `method` says how the label
//! was made: `exact` is `Solver::solve` in exact mode; the fit's bootstrap writes
//! `search:depth=D` labels to a file of its own). A position is labelled once, however many games
//! reach it. A resumed run skips every position already labelled, so an interrupted run loses
//! at most the solve in progress, and never writes a label twice.

use crate::error::TrainResult;
use crate::games::{self, Game};
use crate::jsonl::{self, OnBad};
use ahash::AHashSet;
use othello_endgame::{SolveMode, Solver, SolverConfig};
use othello_rules::{Color, Position};
use serde_json::json;

/// Settings of the labels step.
#[derive(Clone, Debug)]
pub struct LabelsConfig {
    /// Fewest empties labelled.
    pub min_empties: u32,
    /// Most empties labelled (solving time grows about 3x per empty).
    pub max_empties: u32,
    /// Stop after this many games have been visited (`None`: all of them).
    pub max_games: Option<usize>,
    /// Visit only the games whose number is a multiple of this (1: all).
    pub every: u32,
    /// Solver table size in MiB.
    pub tt_mib: usize,
}

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// The game it comes from (the held-out split is by game).
    pub game: u32,
    /// The position.
    pub pos: Position,
    /// Its score in centi-discs for the side to move (exact labels are whole discs).
    pub centi: i32,
    /// How the label was made (`exact`, `search:depth=D`).
    pub method: String,
}

/// The key of a position for de-duplication (discs and side to move).
pub fn key(pos: &Position) -> (u64, u64, bool) {
    (pos.player().0, pos.opponent().0, pos.side_to_move() == Color::Black)
}

impl Label {
    /// The JSON Lines form; `ply` and `nodes` are recorded for reference.
    pub fn to_line(&self, ply: usize, nodes: u64) -> String {
        let score = if self.centi % 100 == 0 {
            json!(self.centi / 100)
        } else {
            json!(f64::from(self.centi) / 100.0)
        };
        json!({"game": self.game, "ply": ply, "empties": self.pos.empty_count(),
            "position": self.pos.to_string(), "score": score, "method": self.method,
            "nodes": nodes})
        .to_string()
    }

    /// Parses and checks one line.
    pub fn from_line(line: &str) -> Result<Label, String> {
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
        let game = v["game"].as_u64().ok_or("missing or bad 'game'")?;
        let game = u32::try_from(game).map_err(|_| "'game' too large")?;
        let text = v["position"].as_str().ok_or("missing or bad 'position'")?;
        let pos: Position = text.parse().map_err(|e| format!("bad position: {e}"))?;
        if pos.size() != othello_rules::BoardSize::Eight {
            return Err("not an 8x8 position".into());
        }
        let score = v["score"].as_f64().ok_or("missing or bad 'score'")?;
        if score.is_nan() || score.abs() > 64.0 {
            return Err(format!("score {score} out of range"));
        }
        let method = v["method"].as_str().ok_or("missing or bad 'method'")?.to_string();
        if let Some(e) = v["empties"].as_u64()
            && e != u64::from(pos.empty_count())
        {
            return Err(format!(
                "'empties' {e} does not match the position ({})",
                pos.empty_count()
            ));
        }
        Ok(Label {
            game,
            pos,
            centi: (score * 100.0).round() as i32,
            method,
        })
    }
}

/// Reads a labels file.
pub fn read(path: &str, missing_ok: bool, on_bad: OnBad) -> TrainResult<Vec<Label>> {
    Ok(jsonl::read(path, missing_ok, on_bad, Label::from_line)?.0)
}

/// What a labels run did.
#[derive(Clone, Copy, Debug, Default)]
pub struct LabelStats {
    /// Positions solved by this run.
    pub solved: usize,
    /// Solver nodes of this run.
    pub nodes: u64,
    /// Games visited.
    pub games: usize,
}

/// Labels the positions of the games in `games_path` that `labels_path` lacks, appending.
pub fn run(
    config: &LabelsConfig,
    games_path: &str,
    labels_path: &str,
    on_bad: OnBad,
    mut progress: impl FnMut(&LabelStats),
) -> TrainResult<LabelStats> {
    let mut games: Vec<Game> = games::read(games_path, false, on_bad)?;
    games.sort_by_key(|g| g.game);
    let mut done: AHashSet<(u64, u64, bool)> = read(labels_path, true, on_bad)?.iter().map(|l| key(&l.pos)).collect();
    let mut out = jsonl::append(labels_path)?;
    let mut solver = Solver::new(
        SolverConfig::default()
            .with_tt_mib(config.tt_mib.max(1))
            .with_threads(1),
    );
    let mut stats = LabelStats::default();
    let every = config.every.max(1);
    for game in games
        .iter()
        .filter(|g| g.game % every == 0)
        .take(config.max_games.unwrap_or(usize::MAX))
    {
        let positions = game.positions();
        // Latest positions first: their results are in the table when the earlier (larger)
        // positions of the same game reach them.
        for (ply, pos) in positions.iter().enumerate().rev() {
            let e = pos.empty_count();
            if e < config.min_empties || e > config.max_empties || !done.insert(key(pos)) {
                continue;
            }
            let s = solver.solve(pos, SolveMode::Exact);
            let label = Label {
                game: game.game,
                pos: *pos,
                centi: s.score * 100,
                method: "exact".into(),
            };
            jsonl::write_line(&mut out, labels_path, &label.to_line(ply, s.nodes))?;
            stats.solved += 1;
            stats.nodes += s.nodes;
        }
        stats.games += 1;
        progress(&stats);
    }
    Ok(stats)
}
