//! Self-play games: seeded, from randomised openings with occasional random moves.
//!
//! Game `i` uses its own random stream, derived from the run's seed and `i`, so any game can be
//! replayed alone, games can be made in any order or on several machines (`--first`, or
//! another seed), and a resumed run makes exactly the games that are missing. Each game is a
//! line of the games file ([`crate::data`]) written as it finishes.
//!
//! The self-play engine is the hand-feature PVS at depth 2 by default; the pattern evaluation
//! (the embedded default weights, or any weights file) and a deeper depth (with a small
//! epsilon) make games of engine-quality play instead.

use crate::data::Game;
use crate::error::{TrainError, TrainResult};
use crate::jsonl::{self, OnBad};
use ahash::AHashSet;
use othello_eval::WeightedEval;
use othello_pattern::PatternEval;
use othello_rules::Position;
use othello_search::{Limits, SearchConfig, Searcher};
use othello_spec::SpecEval;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

/// The evaluation of the self-play searches (and of `labels --mode search`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum PlayEval {
    /// The hand-feature default (`WeightedEval::default()`).
    #[default]
    Hand,
    /// The embedded default pattern weights (`PatternEval::default()`).
    Pattern,
    /// The pattern evaluation with the weights of this file.
    Weights(String),
}

impl PlayEval {
    /// Its name in the command line and in the games file.
    pub fn name(&self) -> String {
        match self {
            PlayEval::Hand => "hand".into(),
            PlayEval::Pattern => "pattern".into(),
            PlayEval::Weights(path) => format!("pattern,weights={path}"),
        }
    }

    /// The evaluator (a weights file is loaded here).
    pub fn load(&self) -> TrainResult<SelfPlayEval> {
        Ok(match self {
            PlayEval::Hand => SpecEval::Weighted(WeightedEval::default()),
            PlayEval::Pattern => SpecEval::Pattern(Box::default(), None),
            PlayEval::Weights(path) => {
                let weights = PatternEval::from_path(path).map_err(|error| TrainError::Weights {
                    path: path.clone(),
                    error,
                })?;
                SpecEval::Pattern(Box::new(weights), None)
            }
        })
    }
}

/// A loaded evaluation of [`PlayEval`]: the spec layer's evaluation enum, which forwards every
/// `Evaluator` method (the leaf's legal moves, the cut table of selective search).
pub type SelfPlayEval = SpecEval;

/// Settings of the games step.
#[derive(Clone, Debug)]
pub struct GamesConfig {
    /// Games wanted in the file (numbered `first..first + games`).
    pub games: u32,
    /// Number of the first game (lets several machines make disjoint games).
    pub first: u32,
    /// The seed of every random choice.
    pub seed: u64,
    /// Search depth of the self-play moves.
    pub depth: u32,
    /// Chance of a uniformly random move at each turn after the opening.
    pub epsilon: f64,
    /// The random opening has `0..=random_plies` moves (chosen per game).
    pub random_plies: u32,
    /// The self-play evaluation.
    pub eval: PlayEval,
}

impl Default for GamesConfig {
    fn default() -> GamesConfig {
        GamesConfig {
            games: 100,
            first: 0,
            seed: 1,
            depth: 2,
            epsilon: 0.1,
            random_plies: 10,
            eval: PlayEval::Hand,
        }
    }
}

/// The random stream of game `index` under `seed` (splitmix-style mixing).
fn game_rng(seed: u64, index: u32) -> SmallRng {
    let mut z = seed ^ (u64::from(index)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    SmallRng::seed_from_u64(z ^ (z >> 31))
}

/// Plays game `index`.
pub fn play_game(config: &GamesConfig, index: u32, searcher: &mut Searcher<SelfPlayEval>) -> Game {
    let mut rng = game_rng(config.seed, index);
    searcher.new_game();
    let mut pos = Position::start();
    let mut moves = Vec::with_capacity(64);
    let opening = rng.random_range(0..=config.random_plies);
    let mut ply = 0;
    while !pos.is_game_over() {
        let legal = pos.moves();
        let random = ply < opening || rng.random_bool(config.epsilon);
        let mv = if legal.len() == 1 {
            legal[0]
        } else if random {
            legal[rng.random_range(0..legal.len())]
        } else {
            searcher.search(&pos, &Limits::depth(config.depth), |_| {}).best_move
        };
        pos = pos.play_unchecked(mv);
        moves.push(mv);
        ply += 1;
    }
    Game {
        game: index,
        seed: Some(config.seed),
        moves,
    }
}

/// A searcher with the evaluation `eval`, no endgame solving, full width (self-play, search
/// labels: so that the games and labels do not depend on the search's default selectivity;
/// full-width values do not depend on skipped depths either, and `search_label`, which reads
/// the iterations themselves, runs every depth).
pub fn searcher(eval: &PlayEval) -> TrainResult<Searcher<SelfPlayEval>> {
    Ok(searcher_of(eval.load()?))
}

/// [`searcher`] with an evaluation already loaded.
pub fn searcher_of(eval: SelfPlayEval) -> Searcher<SelfPlayEval> {
    Searcher::new(
        eval,
        SearchConfig::default()
            .with_tt_mib(4)
            .with_endgame_empties(0)
            .with_selectivity(othello_search::Selectivity::Off),
    )
}

/// How the moves of `config`'s games are chosen, as recorded in each line.
pub fn player(config: &GamesConfig) -> String {
    format!(
        "pvs:depth={},eval={} epsilon={} random_plies={}",
        config.depth,
        config.eval.name(),
        config.epsilon,
        config.random_plies
    )
}

/// Parses one game of an `othello play --jsonl` file (its `game` number, the `opening` move
/// sequence, then the `moves`, `pass` for a pass) and checks it as [`Game::from_line`] does.
/// Returns the game (with `seed` as its seed: a game is known by its number and seed, so two
/// matches imported with different seeds concatenate without clashes) and who played black and
/// white. An opening given as a position (OBF) has no moves from the start position: refused.
pub fn from_play_line(line: &str, seed: u64) -> Result<(Game, String), crate::error::LineError> {
    use crate::error::LineError;
    let v: serde_json::Value = serde_json::from_str(line).map_err(|e| LineError::Json(e.to_string()))?;
    let game = v["game"].as_u64().ok_or(LineError::Field("game"))?;
    let opening = v["opening"].as_str().ok_or(LineError::Field("opening"))?;
    let moves = v["moves"].as_array().ok_or(LineError::Field("moves"))?;
    let mut text = String::from(opening);
    for m in moves {
        let m = m.as_str().ok_or(LineError::Field("moves"))?;
        text.push_str(if m == "pass" { "PS" } else { m });
    }
    let names = format!(
        "{} vs {}",
        v["black"].as_str().unwrap_or("?"),
        v["white"].as_str().unwrap_or("?")
    );
    let line = json!({"game": game, "seed": seed, "moves": text}).to_string();
    let game = Game::from_line(&line).map_err(|e| match e {
        LineError::Moves(m) => LineError::Moves(format!("{m} (an opening must be a move sequence from the start)")),
        e => e,
    })?;
    Ok((game, names))
}

/// Converts the games of an `othello play --jsonl` file into a games file (overwritten), so
/// that `labels` and `errors` can measure an evaluation on the positions of a match, and `fit`
/// can train on them. Every game gets `seed` as its seed (see [`from_play_line`]). Returns how
/// many games were written.
pub fn import_play(play_path: &str, out_path: &str, seed: u64, on_bad: OnBad) -> TrainResult<usize> {
    let games = jsonl::read(play_path, false, on_bad, |l| from_play_line(l, seed).map(Some))?.0;
    let mut text = String::new();
    for (g, names) in &games {
        text.push_str(&g.to_line(names));
        text.push('\n');
    }
    std::fs::write(out_path, text).map_err(|source| TrainError::Write {
        path: out_path.to_string(),
        source,
    })?;
    Ok(games.len())
}

/// Reads a games file.
pub fn read(path: &str, missing_ok: bool, on_bad: OnBad) -> TrainResult<Vec<Game>> {
    Ok(jsonl::read(path, missing_ok, on_bad, Game::parse)?.0)
}

/// Makes the games of `config` missing from `path` and appends them. Returns how many were made.
pub fn run(config: &GamesConfig, path: &str, on_bad: OnBad, mut progress: impl FnMut(u32)) -> TrainResult<u32> {
    if config.first.checked_add(config.games).is_none() {
        return Err(TrainError::Input("bad --first/--games: game numbers overflow".into()));
    }
    let mut searcher = searcher(&config.eval)?;
    // Cut a line left partial by an interruption first, then see what is done.
    let mut out = jsonl::append(path)?;
    let done: AHashSet<(u32, Option<u64>)> = read(path, true, on_bad)?.iter().map(|g| (g.game, g.seed)).collect();
    let player = player(config);
    let mut made = 0;
    for index in config.first..config.first + config.games {
        if done.contains(&(index, Some(config.seed))) {
            continue;
        }
        let game = play_game(config, index, &mut searcher);
        jsonl::write_line(&mut out, path, &game.to_line(&player))?;
        made += 1;
        progress(made);
    }
    Ok(made)
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_rules::Move;

    /// The self-play evaluation is the one asked for: with the same seed and no random moves
    /// after the opening, pattern games are replayed exactly, differ from the hand-feature ones,
    /// and every move after the opening is the searcher's choice with that evaluation.
    #[test]
    fn self_play_uses_the_chosen_evaluation() {
        let config = |eval| GamesConfig {
            games: 1,
            depth: 2,
            epsilon: 0.0,
            random_plies: 4,
            eval,
            ..GamesConfig::default()
        };
        let (hand, pattern) = (config(PlayEval::Hand), config(PlayEval::Pattern));
        let mut differ = false;
        for index in 0..6 {
            let h = play_game(&hand, index, &mut searcher(&PlayEval::Hand).unwrap());
            let p = play_game(&pattern, index, &mut searcher(&PlayEval::Pattern).unwrap());
            assert_eq!(
                p,
                play_game(&pattern, index, &mut searcher(&PlayEval::Pattern).unwrap())
            );
            differ |= h.moves != p.moves;
            // Replay the pattern game: after its random opening (the stream's first draw),
            // each choice among several legal moves is the pattern search's.
            let opening = game_rng(pattern.seed, index).random_range(0..=pattern.random_plies) as usize;
            let mut searcher = searcher(&PlayEval::Pattern).unwrap();
            let mut pos = Position::start();
            for (ply, &mv) in p.moves.iter().enumerate() {
                if ply >= opening && pos.moves().len() > 1 {
                    let best = searcher.search(&pos, &Limits::depth(2), |_| {}).best_move;
                    assert_eq!(best, mv, "game {index} ply {ply}");
                }
                pos = pos.play_unchecked(mv);
            }
        }
        assert!(differ, "pattern and hand self-play gave the same games");
        assert_eq!(player(&pattern), "pvs:depth=2,eval=pattern epsilon=0 random_plies=4");
    }

    /// A match game imports as the same moves (opening, moves, passes), read back unchanged;
    /// an unfinished game, an OBF opening and a bad move are refused.
    #[test]
    fn imports_match_games() {
        // A game with a pass after its first four moves, so the import reads one.
        let mut searcher = searcher(&PlayEval::Hand).unwrap();
        let game = (0..200)
            .map(|i| play_game(&GamesConfig::default(), i, &mut searcher))
            .find(|g| g.moves[4..].contains(&Move::Pass))
            .expect("a game with a pass");
        let names: Vec<String> = game.moves.iter().map(|m| m.to_string()).collect();
        let opening: String = names[..4].concat();
        let rest: Vec<String> = game.moves[4..]
            .iter()
            .zip(&names[4..])
            .map(|(&m, name)| {
                if m == Move::Pass {
                    "pass".to_string()
                } else {
                    name.clone()
                }
            })
            .collect();
        let line = json!({"game": 9, "opening": opening, "moves": rest, "black": "a", "white": "b"}).to_string();
        let (imported, who) = from_play_line(&line, 0).unwrap();
        assert_eq!(imported.moves, game.moves);
        assert_eq!(imported.game, 9);
        assert_eq!(imported.seed, Some(0));
        // Another seed: the same game under another identity, which survives a round trip.
        let (other, _) = from_play_line(&line, 77).unwrap();
        assert_eq!((other.game, other.seed, &other.moves), (9, Some(77), &imported.moves));
        assert_eq!(Game::from_line(&other.to_line(&who)).unwrap(), other);
        assert_eq!(who, "a vs b");
        assert_eq!(Game::from_line(&imported.to_line(&who)).unwrap(), imported);
        let unfinished = json!({"game": 1, "opening": opening, "moves": &rest[..10]}).to_string();
        assert!(from_play_line(&unfinished, 0).unwrap_err() == crate::error::LineError::Unfinished);
        let obf = json!({"game": 1, "opening": "--------XO------ X", "moves": []}).to_string();
        assert!(from_play_line(&obf, 0).is_err());
        let bad = json!({"game": 1, "opening": "a1", "moves": []}).to_string();
        assert!(matches!(
            from_play_line(&bad, 0).unwrap_err(),
            crate::error::LineError::Moves(_)
        ));

        // Two matches numbered alike, imported with their own seeds, concatenate as two games.
        let dir = crate::tests::Dir::new("import");
        let (play, out) = (dir.path("play.jsonl"), dir.path("games.jsonl"));
        std::fs::write(&play, format!("{line}\n")).unwrap();
        let mut games = Vec::new();
        for seed in [3, 5] {
            assert_eq!(import_play(&play, &out, seed, OnBad::Fatal).unwrap(), 1);
            games.extend(read(&out, false, OnBad::Fatal).unwrap());
        }
        let ids: Vec<_> = games.iter().map(|g| (g.game, g.seed)).collect();
        assert_eq!(ids, [(9, Some(3)), (9, Some(5))]);
        assert!(games.iter().all(|g| g.moves == game.moves));
    }
}
