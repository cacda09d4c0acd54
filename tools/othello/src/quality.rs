//! `othello search FILE.obf`: an engine's moves scored against exact values. Every position of
//! an OBF file is searched afresh with the engine's limits (a new game each: a search's move
//! does not depend on what came before it in the file, under depth and node limits; a random or
//! MCTS player's draws continue from one position to the next), and the move chosen is
//! charged what the file says it loses: the best listed score minus the move's, in discs and in
//! game points (a move that turns a win into a draw costs half a point, into a loss one). A
//! line that lists no scores is searched and reported, not scored; a line that lists some must
//! list every legal move (`othello solve --all-moves` writes such lines). The FFO files list
//! every move.

use crate::error::{CliResult, input};
use crate::mistakes::Cost;
use crate::output::Output;
use crate::perft::round_ms;
use crate::search_cmd::discs;
use othello_engine::{Limits, Player, Reply};
use othello_rules::{Move, ObfLine};
use othello_spec::Engine;
use serde_json::{Value, json};
use std::time::Duration;

/// The scores of the moves chosen, per number of empty squares.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Quality {
    /// `by_empties[e]`: the moves chosen in scored positions of `e` empty squares.
    pub by_empties: Vec<Cost>,
    /// `searched_by_empties[e]`: the searches of positions of `e` empty squares (scored or
    /// not).
    pub searched_by_empties: Vec<Searched>,
    /// Nodes of every search.
    pub nodes: u64,
}

/// The searches of the positions of one number of empties (or of all).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Searched {
    /// Positions searched.
    pub positions: u64,
    /// Answers that were exact (solved, or searched to the end).
    pub exact: u64,
    /// The searches' time.
    pub time: Duration,
}

impl Searched {
    fn mean_time(&self) -> Duration {
        self.time / self.positions.max(1) as u32
    }
}

/// One position's result: the move chosen and, in a scored line, its listed score and the best.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scored {
    /// The move the engine chose.
    pub chosen: Move,
    /// `(the chosen move's listed score, the best listed score)`, in a scored line.
    pub listed: Option<(i32, i32)>,
    /// Whether the engine's answer was exact.
    pub exact: bool,
}

/// Checks that every line either lists nothing or lists every legal move once.
///
/// # Errors
/// Bad input naming the file, the line's number among the positions and what is missing.
pub fn check_lines(name: &str, lines: &[ObfLine]) -> CliResult {
    for (i, line) in lines.iter().enumerate() {
        if !line.scores.is_empty() && !line.lists_every_move() {
            return Err(input(format!(
                "{name} position {}: lists {} scores for {} legal moves; scoring the engine's move needs every move's score, each once (`othello solve --all-moves` writes them)",
                i + 1,
                line.scores.len(),
                line.position.moves().len()
            )));
        }
    }
    Ok(())
}

/// Scores the move `chosen` in `line`; `exact` says whether the answer was exact.
pub fn score(line: &ObfLine, chosen: Move, exact: bool) -> Scored {
    let listed = line
        .best_score()
        .and_then(|best| line.score_of(chosen).map(|s| (s, best)));
    Scored { chosen, listed, exact }
}

impl Quality {
    /// An empty tally.
    pub fn new() -> Quality {
        Quality {
            by_empties: vec![Cost::default(); 65],
            searched_by_empties: vec![Searched::default(); 65],
            ..Quality::default()
        }
    }

    /// Counts one searched position of `empties` empty squares.
    pub fn add(&mut self, empties: u32, scored: &Scored, nodes: u64, time: Duration) {
        let e = empties as usize;
        self.nodes += nodes;
        let searched = &mut self.searched_by_empties[e];
        searched.positions += 1;
        searched.exact += u64::from(scored.exact);
        searched.time += time;
        if let Some((played, best)) = scored.listed {
            self.by_empties[e].charge(best, played);
        }
    }

    /// Positions searched.
    pub fn positions(&self) -> u64 {
        self.searched().positions
    }

    /// Positions searched that list no scores (not charged): those searched less those scored.
    pub fn unscored(&self) -> u64 {
        self.positions() - self.total().moves
    }

    /// The numbers of empties with a searched position, most first, with their moves' cost
    /// and their searches.
    fn rows(&self) -> impl Iterator<Item = (usize, &Cost, &Searched)> {
        self.searched_by_empties
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, s)| s.positions > 0)
            .map(|(e, s)| (e, &self.by_empties[e], s))
    }

    /// The cost of every scored move.
    pub fn total(&self) -> Cost {
        let mut total = Cost::default();
        for c in &self.by_empties {
            total.add(c);
        }
        total
    }

    /// Every search.
    pub fn searched(&self) -> Searched {
        let mut total = Searched::default();
        for s in &self.searched_by_empties {
            total.positions += s.positions;
            total.exact += s.exact;
            total.time += s.time;
        }
        total
    }

    /// The summary's table: one line per number of empties, most first, then the total: the
    /// scored moves, those that lost discs (`wrong`), the game points and discs they lost, the
    /// discs lost a move, the exact answers (of all positions searched) and the mean time of a
    /// search.
    pub fn text(&self) -> String {
        let (positions, unscored) = (self.positions(), self.unscored());
        let mut s = format!(
            "{positions} positions, {} scored{}\nempties  moves wrong points  discs  discs/move  exact  ms/move",
            positions - unscored,
            if unscored > 0 {
                format!(" ({unscored} list no scores)")
            } else {
                String::new()
            }
        );
        let row = |c: &Cost, searched: &Searched| {
            let per_move = if c.moves > 0 {
                format!("{:.3}", c.discs as f64 / c.moves as f64)
            } else {
                "-".to_string()
            };
            format!(
                "{:>5} {:>5} {:>6.1} {:>6}  {per_move:>10}  {:>5}  {:>7.1}",
                c.moves,
                c.mistakes,
                c.half_points as f64 / 2.0,
                c.discs,
                searched.exact,
                searched.mean_time().as_secs_f64() * 1e3
            )
        };
        for (e, cost, searched) in self.rows() {
            s += &format!("\n{e:>7}  {}", row(cost, searched));
        }
        s += &format!("\n  total  {}", row(&self.total(), &self.searched()));
        s
    }

    /// The JSON object (`quality`): `positions`, `unscored`, `nodes`, the total's `moves`,
    /// `mistakes`, `points_lost`, `discs_lost`, `exact` (answers, scored or not) and `time_ms`
    /// (the mean), and `by_empties` (one object per number of empties with a searched position,
    /// most first, the same keys with `empties` and `positions`).
    pub fn json(&self) -> Value {
        let rows: Vec<Value> = self
            .rows()
            .map(|(e, cost, searched)| {
                let mut v = cost.json();
                v["empties"] = json!(e);
                v["positions"] = json!(searched.positions);
                v["exact"] = json!(searched.exact);
                v["time_ms"] = json!(round_ms(searched.mean_time().as_secs_f64() * 1e3));
                v
            })
            .collect();
        let mut v = self.total().json();
        v["positions"] = json!(self.positions());
        v["unscored"] = json!(self.unscored());
        v["nodes"] = json!(self.nodes);
        let all = self.searched();
        v["exact"] = json!(all.exact);
        v["time_ms"] = json!(round_ms(all.mean_time().as_secs_f64() * 1e3));
        v["by_empties"] = json!(rows);
        json!({ "quality": v })
    }
}

/// Searches every position of `lines` with `engine` (a new game each) and scores its moves,
/// calling `each` with every position's index, reply and score.
///
/// # Errors
/// Bad input: a line that lists only some moves ([`check_lines`]), or a board size the engine
/// does not play; both found before any search.
pub fn search_all(
    engine: &mut Engine,
    limits: &Limits,
    name: &str,
    lines: &[ObfLine],
    mut each: impl FnMut(usize, &Reply, &Scored),
) -> CliResult<Quality> {
    check_lines(name, lines)?;
    for line in lines {
        engine.check_size(line.position.size())?;
    }
    let mut quality = Quality::new();
    for (i, line) in lines.iter().enumerate() {
        engine.new_game();
        let reply = engine.think(&line.position, limits);
        let scored = score(line, reply.best_move, reply.exact);
        quality.add(line.position.empty_count(), &scored, reply.nodes, reply.time);
        each(i, &reply, &scored);
    }
    Ok(quality)
}

/// [`search_all`], printing a line per position and then the summary ([`Quality::text`] or
/// [`Quality::json`]).
///
/// # Errors
/// As [`search_all`].
pub fn run(engine: &mut Engine, limits: &Limits, name: &str, lines: &[ObfLine], json_out: bool) -> CliResult {
    let out = Output::new(json_out);
    let quality = search_all(engine, limits, name, lines, |i, reply, scored| {
        let pos = lines[i].position;
        let ms = reply.time.as_secs_f64() * 1e3;
        out.line(
            || {
                let mut s = format!("#{:<4} {pos}  move {:<4}", i + 1, reply.best_move.to_string());
                if let Some(score) = reply.score {
                    s += &format!(
                        " score {:+7.2} depth {:>2}{}",
                        discs(score),
                        reply.depth,
                        if reply.exact { "*" } else { " " }
                    );
                }
                if reply.book {
                    s += " book";
                }
                s += &format!(" time {ms:>8.1} ms");
                match scored.listed {
                    Some((played, best)) => s += &format!("  listed {played:+3} best {best:+3} loss {}", best - played),
                    None => s += "  listed -",
                }
                s
            },
            || {
                let mut v = json!({"n": i + 1, "position": pos.to_string(), "best_move": reply.best_move.to_string(),
                    "score": reply.score.map(discs), "depth": reply.score.map(|_| reply.depth), "exact": reply.exact,
                    "nodes": reply.nodes, "time_ms": round_ms(ms), "book": reply.book, "listed": null, "best": null, "loss": null});
                if let Some((played, best)) = scored.listed {
                    v["listed"] = json!(played);
                    v["best"] = json!(best);
                    v["loss"] = json!(best - played);
                }
                v
            },
        );
    })?;
    out.line(|| quality.text(), || quality.json());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact_at::tests::{negamax, random_game};
    use othello_rules::{BoardSize, Position};

    /// Every move of `pos` with its exact score by the slow reference.
    fn reference_line(pos: Position) -> ObfLine {
        let scores = pos
            .moves()
            .into_iter()
            .map(|m| (m, -negamax(&pos.play_unchecked(m))))
            .collect();
        ObfLine { position: pos, scores }
    }

    fn engine(spec: &str) -> Engine {
        Engine::from_spec(spec.parse().unwrap()).unwrap()
    }

    /// Positions of random 4x4 and 6x6 games, every move scored by plain negamax, searched by
    /// a random player and a shallow search: the moves chosen are those of the same engine on
    /// each position alone, and every count equals one made by hand from the reference.
    #[test]
    fn the_tally_matches_a_reference_on_small_boards() {
        for (size, max_empties, specs) in [
            (BoardSize::Four, 12, ["random:seed=5", "pvs:depth=1,eval=default"]),
            (BoardSize::Six, 10, ["random:seed=9", "pvs:depth=2,eval=default"]),
        ] {
            let mut lines = Vec::new();
            for seed in 0..12 {
                let (_, positions) = random_game(Position::start_of(size), seed);
                lines.extend(
                    positions
                        .into_iter()
                        .filter(|p| p.empty_count() <= max_empties && (seed % 3 != 0 || !p.is_game_over()))
                        .map(reference_line),
                );
            }
            // Two lines that list nothing: searched, not scored.
            let unscored = [0, lines.len() / 2];
            for &i in &unscored {
                lines[i].scores.clear();
            }
            for spec in specs {
                let mut e = engine(spec);
                let limits = e.limits();
                let mut chosen = Vec::new();
                let mut exact = [0u64; 65];
                let q = search_all(&mut e, &limits, "test", &lines, |i, reply, scored| {
                    assert_eq!((reply.best_move, reply.exact), (scored.chosen, scored.exact));
                    exact[lines[i].position.empty_count() as usize] += u64::from(reply.exact);
                    chosen.push((i, scored.clone()));
                })
                .unwrap();
                assert_eq!(chosen.len(), lines.len());
                let (mut moves, mut wrong, mut half, mut discs) = ([0u64; 65], [0u64; 65], [0u64; 65], [0u64; 65]);
                let points = |v: i32| {
                    if v > 0 {
                        2
                    } else if v == 0 {
                        1
                    } else {
                        0
                    }
                };
                for (i, scored) in &chosen {
                    let line = &lines[*i];
                    // A search gives each position alone the same move (a new game each).
                    if spec.starts_with("pvs") {
                        let mut alone = engine(spec);
                        alone.new_game();
                        assert_eq!(
                            alone.think(&line.position, &limits).best_move,
                            scored.chosen,
                            "{spec} #{i}"
                        );
                    }
                    if unscored.contains(i) || line.position.is_game_over() {
                        assert_eq!(scored.listed, None);
                        continue;
                    }
                    let best = negamax(&line.position);
                    let played = -negamax(&line.position.play_unchecked(scored.chosen));
                    assert_eq!(scored.listed, Some((played, best)));
                    let e = line.position.empty_count() as usize;
                    moves[e] += 1;
                    wrong[e] += u64::from(played < best);
                    half[e] += points(best) - points(played);
                    discs[e] += (best - played) as u64;
                }
                assert_eq!(q.positions(), lines.len() as u64);
                // The two cleared lines and the finished games (no move to list).
                let empty = lines.iter().filter(|l| l.scores.is_empty()).count() as u64;
                assert!(empty >= 2 && lines.iter().any(|l| l.position.is_game_over()));
                assert_eq!(q.unscored(), empty, "{spec}");
                assert_eq!(q.searched_by_empties.iter().map(|s| s.exact).collect::<Vec<_>>(), exact);
                if spec.starts_with("pvs") {
                    assert!(exact.iter().sum::<u64>() > 0, "{spec}: a search to the end is exact");
                }
                for e in 0..65 {
                    let c = q.by_empties[e];
                    assert_eq!(
                        (c.moves, c.mistakes, c.half_points, c.discs),
                        (moves[e], wrong[e], half[e], discs[e]),
                        "{spec} {e}"
                    );
                }
                assert!(moves.iter().sum::<u64>() > 50, "{spec}");
                if spec.starts_with("random") {
                    assert!(
                        wrong.iter().sum::<u64>() > 5 && half.iter().sum::<u64>() > 0,
                        "{spec}: a random player errs"
                    );
                }
                let json = q.json();
                assert_eq!(json["quality"]["moves"], moves.iter().sum::<u64>());
                assert_eq!(json["quality"]["discs_lost"], discs.iter().sum::<u64>());
                assert_eq!(json["quality"]["positions"], lines.len());
            }
        }
    }

    /// The text and JSON of a tally made by hand: two rows, most empties first, and the total.
    #[test]
    fn text_and_json_of_a_known_tally() {
        let mut q = Quality::new();
        let (a, b) = ("a1".parse().unwrap(), "b1".parse().unwrap());
        let ms = Duration::from_millis;
        let scored = |chosen, listed, exact| Scored { chosen, listed, exact };
        q.add(20, &scored(a, Some((2, 2)), true), 100, ms(10));
        q.add(20, &scored(b, Some((-2, 4)), false), 200, ms(30));
        q.add(22, &scored(a, Some((0, 6)), false), 300, ms(50));
        q.add(22, &scored(b, None, true), 400, ms(70));
        // A count with no scored move: no discs a move to show.
        q.add(30, &scored(b, None, false), 0, ms(0));
        assert_eq!(
            q.text(),
            "5 positions, 3 scored (2 list no scores)\n\
             empties  moves wrong points  discs  discs/move  exact  ms/move\n\
             \x20    30      0     0    0.0      0           -      0      0.0\n\
             \x20    22      1     1    0.5      6       6.000      1     60.0\n\
             \x20    20      2     1    1.0      6       3.000      1     20.0\n\
             \x20 total      3     2    1.5     12       4.000      2     32.0"
        );
        let v = q.json();
        assert_eq!(
            v,
            json!({"quality": {"moves": 3, "mistakes": 2, "points_lost": 1.5, "discs_lost": 12, "positions": 5,
                "unscored": 2, "nodes": 1000, "exact": 2, "time_ms": 32.0, "by_empties": [
                {"moves": 0, "mistakes": 0, "points_lost": 0.0, "discs_lost": 0, "empties": 30, "positions": 1, "exact": 0, "time_ms": 0.0},
                {"moves": 1, "mistakes": 1, "points_lost": 0.5, "discs_lost": 6, "empties": 22, "positions": 2, "exact": 1, "time_ms": 60.0},
                {"moves": 2, "mistakes": 1, "points_lost": 1.0, "discs_lost": 6, "empties": 20, "positions": 2, "exact": 1, "time_ms": 20.0}]}})
        );
    }

    /// A line that lists some moves but not all, or one twice, is refused before any search,
    /// naming the position; a line that lists none is accepted.
    #[test]
    fn partial_lists_are_refused() {
        let start = Position::start();
        let full = reference_line(Position::start_of(BoardSize::Four));
        let none = ObfLine {
            position: start,
            scores: Vec::new(),
        };
        assert!(check_lines("f.obf", &[full.clone(), none.clone()]).is_ok());
        let mut partial = full.clone();
        partial.scores.pop();
        let e = check_lines("f.obf", &[none.clone(), partial]).unwrap_err().to_string();
        assert!(
            e.starts_with("f.obf position 2: lists 3 scores for 4 legal moves"),
            "{e}"
        );
        let mut twice = full.clone();
        twice.scores[0] = twice.scores[1];
        assert!(check_lines("f.obf", &[twice]).is_err());
        let mut e = engine("random:seed=1");
        let limits = e.limits();
        let mut searched = 0;
        let mut partial = full;
        partial.scores.truncate(1);
        assert!(search_all(&mut e, &limits, "f.obf", &[none, partial], |_, _, _| searched += 1).is_err());
        assert_eq!(searched, 0);
    }
}
