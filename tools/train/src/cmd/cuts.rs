//! `cuts`: fits the cut table of selective search (ProbCut) for pattern weights (the embedded
//! default, or `--weights FILE`) and writes the weights with the table as their `CUTS` section.
//!
//! Positions come from seeded self-play (the `games` step's generator, pattern evaluation):
//! from each game, every `--stride`-th position with `--min-empties` to `--max-empties` empty
//! squares. Each is searched full-width by the CLI's default engine (PVS, quiescence on) to
//! `--depth` discs ([`othello_search::probcut::collect`]); the values of every depth, and the
//! horizon's value (depth 0), are kept (in `--samples`, read back if present, so a second fit
//! with other pairs or phases costs nothing), and [`othello_search::probcut::fit`] fits the
//! table written into `--out`. `--horizon-pairs` adds the pairs whose shallow value is the
//! horizon's ([`othello_search::probcut::HORIZON_PAIRS`]: nodes of depth 1 and 2); with
//! `--extend`, to the weights' own table.

use othello_eval::CutTable;
use othello_pattern::PatternEval;
use othello_pattern::weights::{CUTS_TAG, Weights};
use othello_rules::Position;
use othello_search::SearchConfig;
use othello_search::probcut::{self, Sample};
use othello_train::selfplay::{self, GamesConfig, PlayEval};
use othello_train::{TrainError, TrainResult};
use std::io::Write;
use std::time::Instant;

/// Options of `cuts`.
#[derive(clap::Args, Debug)]
pub struct CutsArgs {
    /// The weights file to write: the weights of `--weights` with the fitted cut table as
    /// their `CUTS` section (a table fits the weights it was measured with).
    #[arg(long)]
    out: String,
    /// The weights to fit the table for (a weights file; the embedded default if omitted).
    #[arg(long)]
    weights: Option<String>,
    /// Sample values: read if the file exists, else collected and written there.
    #[arg(long)]
    samples: Option<String>,
    /// Self-play games the positions come from.
    #[arg(long, default_value_t = 60)]
    games: u32,
    /// Seed of the games.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Deepest full-width search (the deepest pair's deep depth).
    #[arg(long, default_value_t = 12)]
    depth: u32,
    /// Take every this-many-th position of a game.
    #[arg(long, default_value_t = 5)]
    stride: u32,
    /// Fewest empty squares of a sample position.
    #[arg(long, default_value_t = 16)]
    min_empties: u32,
    /// Most empty squares of a sample position.
    #[arg(long, default_value_t = 54)]
    max_empties: u32,
    /// Phases of the table (phase of e empties = e * phases / 61).
    #[arg(long, default_value_t = 4)]
    phases: u8,
    /// Also the multi-ProbCut pairs (a second, shallower check from deep depth 8).
    #[arg(long)]
    multi: bool,
    /// Also the pairs of shallow depth 0 (nodes of depth 1 and 2 cut by the horizon's value:
    /// the evaluation, or quiescence); with `--extend`, added to the weights' table even when
    /// it is as deep as `--depth`.
    #[arg(long)]
    horizon_pairs: bool,
    /// Keep the cut table of the weights and add only the fitted pairs deeper than its
    /// deepest: samples searched deeper extend a table without changing how the nodes it
    /// already covers are cut.
    #[arg(long)]
    extend: bool,
    /// Quiescence of the searches (the CLI engine's default: on).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    quiescence: bool,
    /// Threads that collect the samples, each searching its own consecutive share of the
    /// positions with its own searcher (a sample is a full-width value of one position, the
    /// same whichever thread searched it: the samples file is the same for any count).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// No progress on stderr.
    #[arg(long)]
    quiet: bool,
}

fn bad(msg: String) -> TrainError {
    TrainError::Input(msg)
}

/// The sample positions of the games `0..games` (see the module docs).
pub fn positions(a: &CutsArgs) -> TrainResult<Vec<Position>> {
    let config = GamesConfig {
        games: a.games,
        seed: a.seed,
        depth: 4,
        epsilon: 0.05,
        random_plies: 8,
        eval: PlayEval::Pattern,
        ..GamesConfig::default()
    };
    let mut searcher = selfplay::searcher(&config.eval)?;
    let mut out = Vec::new();
    for g in 0..a.games {
        let game = selfplay::play_game(&config, g, &mut searcher);
        out.extend(
            game.positions()
                .into_iter()
                .enumerate()
                .filter(|(i, p)| {
                    (*i as u32 + g).is_multiple_of(a.stride)
                        && (a.min_empties..=a.max_empties).contains(&p.empty_count())
                })
                .map(|(_, p)| p),
        );
    }
    Ok(out)
}

/// The first line of a samples file with horizon values. Files without it (written before
/// 2026-12-05) hold the empties and the values of depths 1, 2, ... and no horizon value.
const SAMPLES_HEADER: &str = "# empties horizon depth1 depth2 ...";

/// One sample per line after [`SAMPLES_HEADER`]: the empties, the horizon's value (`-` when
/// unknown), then the values of depths 1, 2, ...
fn write_samples(path: &str, samples: &[Sample]) -> TrainResult {
    let mut f =
        std::io::BufWriter::new(std::fs::File::create(path).map_err(|e| bad(format!("cannot write {path}: {e}")))?);
    let err = |e: std::io::Error| bad(format!("cannot write {path}: {e}"));
    writeln!(f, "{SAMPLES_HEADER}").map_err(err)?;
    for s in samples {
        let values: Vec<String> = s.values.iter().map(i32::to_string).collect();
        let horizon = s.horizon.map_or("-".to_string(), |h| h.to_string());
        writeln!(f, "{} {horizon} {}", s.empties, values.join(" ")).map_err(err)?;
    }
    f.flush().map_err(err)
}

fn read_samples(path: &str, text: &str) -> TrainResult<Vec<Sample>> {
    let with_horizon = text.lines().next().is_some_and(|l| l.trim() == SAMPLES_HEADER);
    text.lines()
        .enumerate()
        .skip(usize::from(with_horizon))
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let mut words = l.split_whitespace();
            let empties = words
                .next()
                .and_then(|w| w.parse::<u32>().ok())
                .filter(|e| (1..=60).contains(e));
            let horizon = if with_horizon {
                match words.next() {
                    Some("-") => Ok(None),
                    Some(w) => w.parse().map(Some).map_err(|_| ()),
                    None => Err(()),
                }
            } else {
                Ok(None)
            };
            let values: Result<Vec<i32>, _> = words.map(str::parse).collect();
            match (empties, horizon, values) {
                (Some(empties), Ok(horizon), Ok(values)) if !values.is_empty() => Ok(Sample {
                    empties,
                    horizon,
                    values,
                }),
                _ => Err(bad(format!(
                    "{path} line {}: expected empties (1 to 60), {}and values",
                    i + 1,
                    if with_horizon {
                        "the horizon's value (or -), "
                    } else {
                        ""
                    }
                ))),
            }
        })
        .collect()
}

/// The table of the usual pairs up to `depth` (and the horizon pairs with `horizon`) fitted on
/// `samples`; with a `base` table, that table with the fitted pairs deeper than its deepest
/// (and the horizon pairs) added.
fn fit_table(
    samples: &[Sample],
    base: Option<&CutTable>,
    depth: u32,
    multi: bool,
    horizon: bool,
    phases: u8,
) -> TrainResult<CutTable> {
    let from = base.map_or(0, |t| t.pairs().map(|(d, _, _)| d).max().unwrap_or(0));
    if from >= depth && !horizon {
        return Err(bad(format!(
            "--extend: the table already reaches depth {from}: --depth must be deeper"
        )));
    }
    if horizon && samples.iter().all(|s| s.horizon.is_none()) {
        return Err(bad(
            "--horizon-pairs: the samples have no horizon values (a samples file written before them: collect again)"
                .into(),
        ));
    }
    let pairs: Vec<(u32, u32)> = probcut::HORIZON_PAIRS
        .into_iter()
        .filter(|_| horizon)
        .chain(
            probcut::default_pairs(depth, multi)
                .into_iter()
                .filter(|&(deep, _)| deep > from),
        )
        .collect();
    let fitted = probcut::fit(samples, &pairs, phases, 30).map_err(|e| bad(format!("fit: {e}")))?;
    match base {
        Some(b) => b.merged(&fitted).map_err(|e| bad(format!("--extend: {e}"))),
        None => Ok(fitted),
    }
}

/// [`probcut::collect`] to `depth` on `threads` threads, each on its own consecutive share
/// of `positions`, the shares' samples concatenated in order: the samples of one thread.
/// `progress` gets the count of positions searched so far (all threads together) after each.
fn collect_parallel(
    eval: &PatternEval,
    positions: &[Position],
    (depth, threads): (u32, usize),
    config: &SearchConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Sample> {
    let done = std::sync::atomic::AtomicUsize::new(0);
    let share = positions.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = positions
            .chunks(share)
            .map(|chunk| {
                let done = &done;
                scope.spawn(move || {
                    probcut::collect(eval, chunk, depth, config, |_| {
                        progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// Runs `cuts`.
pub fn run(a: &CutsArgs) -> TrainResult {
    if !(3..=30).contains(&a.depth) {
        return Err(bad(format!("bad --depth {}: expected 3 to 30", a.depth)));
    }
    if !(1..=256).contains(&a.threads) {
        return Err(bad(format!("bad --threads {}: expected 1 to 256", a.threads)));
    }
    if a.stride == 0 {
        return Err(bad("bad --stride 0: expected at least 1".into()));
    }
    if !(1..=61).contains(&a.phases) {
        return Err(bad(format!("bad --phases {}: expected 1 to 61", a.phases)));
    }
    if a.min_empties > a.max_empties || a.max_empties > 60 {
        return Err(bad(format!(
            "bad empties range {}..={}: expected min <= max <= 60",
            a.min_empties, a.max_empties
        )));
    }
    let t = Instant::now();
    let weights = match &a.weights {
        Some(path) => Weights::from_path(path).map_err(|e| bad(e.to_string()))?,
        None => Weights::from_bytes(othello_pattern::DEFAULT_WEIGHTS).map_err(|e| bad(e.to_string()))?,
    };
    let cached = a
        .samples
        .as_deref()
        .and_then(|p| std::fs::read_to_string(p).ok().map(|s| (p, s)));
    let samples = match cached {
        Some((path, text)) => read_samples(path, &text)?,
        None => {
            let positions = positions(a)?;
            eprintln!(
                "cuts: {} positions from {} games, {:.1} s",
                positions.len(),
                a.games,
                t.elapsed().as_secs_f64()
            );
            let config = SearchConfig::default().with_quiescence(a.quiescence);
            let eval = PatternEval::new(&weights);
            let n = positions.len();
            let progress = |i: usize| {
                if !a.quiet && i.is_multiple_of(20) {
                    eprintln!("cuts: {i}/{n} searched, {:.1} s", t.elapsed().as_secs_f64());
                }
            };
            let samples = collect_parallel(&eval, &positions, (a.depth, a.threads), &config, &progress);
            if let Some(path) = &a.samples {
                write_samples(path, &samples)?;
            }
            samples
        }
    };
    let base = if a.extend {
        let bytes = weights
            .section(CUTS_TAG)
            .ok_or_else(|| bad("--extend: the weights have no cut table to extend".into()))?;
        Some(CutTable::from_bytes(bytes).map_err(|e| bad(format!("--extend: {e}")))?)
    } else {
        None
    };
    let table = fit_table(&samples, base.as_ref(), a.depth, a.multi, a.horizon_pairs, a.phases)?;
    weights
        .with_section(CUTS_TAG, table.to_bytes())
        .write(&a.out)
        .map_err(|e| bad(format!("cannot write {}: {e}", a.out)))?;
    println!(
        "cuts: {} samples, {} pairs, {} phases; deep <- shallow: [a b sigma (samples)] per phase",
        samples.len(),
        table.pairs().count(),
        a.phases
    );
    print!("{table}");
    println!("wrote {}, {:.1} s", a.out, t.elapsed().as_secs_f64());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extend_keeps_the_base_pairs_and_adds_the_deeper_ones() {
        // deep(k) = shallow value + 10 k: every pair fits exactly, with its own intercept.
        let samples: Vec<Sample> = (0..80)
            .map(|i| Sample {
                empties: 20 + i % 30,
                horizon: Some((i as i32 * 37) % 500 - 250 - 5),
                values: (1..=9).map(|k| (i as i32 * 37) % 500 - 250 + 10 * k).collect(),
            })
            .collect();
        let base = fit_table(&samples[..40], None, 6, false, false, 2).unwrap();
        let pairs = |t: &CutTable| t.pairs().map(|(d, s, _)| (d, s)).collect::<Vec<_>>();
        assert_eq!(pairs(&base), [(3, 1), (4, 2), (5, 3), (6, 2)]);
        let full = fit_table(&samples, Some(&base), 9, false, false, 2).unwrap();
        assert_eq!(pairs(&full), [(3, 1), (4, 2), (5, 3), (6, 2), (7, 3), (8, 4), (9, 5)]);
        // The base's pairs are its own (pooled over its 40 samples: each phase has under 30),
        // the new ones fitted on all 80 (33 of them in phase 0, at 20 to 30 empties).
        assert_eq!(full.model(6, 2, 30), base.model(6, 2, 30));
        assert_eq!(full.model(6, 2, 30).unwrap().samples, 40);
        let m = full.model(9, 5, 30).unwrap();
        assert_eq!((m.a, m.b, m.sigma, m.samples), (1024, 40, 0, 33));
        // Without a base, every pair is fitted; a base as deep as --depth is an error.
        assert_eq!(
            pairs(&fit_table(&samples, None, 9, false, false, 2).unwrap()),
            pairs(&full)
        );
        let e = fit_table(&samples, Some(&full), 9, false, false, 2)
            .unwrap_err()
            .to_string();
        assert!(e.contains("already reaches depth 9"), "{e}");
        // The horizon pairs: added to a table as deep as --depth, its pairs kept; once only.
        let h = fit_table(&samples, Some(&full), 9, false, true, 2).unwrap();
        assert_eq!(pairs(&h)[..3], [(1, 0), (2, 0), (3, 1)]);
        assert_eq!(pairs(&h)[2..], pairs(&full)[..]);
        assert_eq!(h.model(6, 2, 30), full.model(6, 2, 30));
        let m = h.model(2, 0, 30).unwrap();
        assert_eq!((m.a, m.b, m.sigma, m.samples), (1024, 25, 0, 33));
        assert!(fit_table(&samples, Some(&h), 9, false, true, 2).is_err());
        let all = fit_table(&samples, None, 4, false, true, 2).unwrap();
        assert_eq!(pairs(&all), [(1, 0), (2, 0), (3, 1), (4, 2)]);
        // Samples without horizon values cannot fit them.
        let old: Vec<Sample> = samples
            .iter()
            .map(|s| Sample {
                horizon: None,
                ..s.clone()
            })
            .collect();
        let e = fit_table(&old, None, 4, false, true, 2).unwrap_err().to_string();
        assert!(e.contains("no horizon values"), "{e}");
    }

    #[test]
    fn threads_collect_the_samples_of_one_thread() {
        // The positions of one game (a fixed, varied choice of moves), and a finished game.
        use othello_rules::{Bitboard, BoardSize, Color};
        let mut pos = Position::start();
        let mut positions = vec![pos];
        for i in 0..40usize {
            let moves = pos.moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[(i * 7) % moves.len()]).unwrap();
            positions.push(pos);
        }
        let full = Position::from_discs(
            Bitboard::from(u64::MAX),
            Bitboard::from(0),
            Color::Black,
            BoardSize::Eight,
        );
        positions.insert(3, full.unwrap());
        let weights = Weights::from_bytes(othello_pattern::DEFAULT_WEIGHTS).unwrap();
        let eval = PatternEval::new(&weights);
        let config = SearchConfig::default();
        let one = collect_parallel(&eval, &positions, (4, 1), &config, &|_| ());
        assert_eq!(one.len(), positions.len() - 1, "the finished game is skipped");
        assert!(one.iter().all(|s| s.values.len() == 4 && s.horizon.is_some()));
        for threads in [2, 3, 7, 64] {
            // Progress counts every searched position once, 1 to the number of samples.
            let seen = std::sync::Mutex::new(Vec::new());
            let many = collect_parallel(&eval, &positions, (4, threads), &config, &|i| {
                seen.lock().unwrap().push(i)
            });
            assert_eq!(many, one, "{threads} threads");
            let mut seen = seen.into_inner().unwrap();
            seen.sort_unstable();
            assert_eq!(seen, (1..=one.len()).collect::<Vec<_>>(), "{threads} threads");
        }
    }

    #[test]
    fn samples_round_trip_and_bad_lines_are_named() {
        let s = vec![
            Sample {
                empties: 30,
                horizon: Some(-7),
                values: vec![1, -2, 3],
            },
            Sample {
                empties: 20,
                horizon: None,
                values: vec![5],
            },
        ];
        let path = std::env::temp_dir().join(format!("cuts-samples-{}.txt", std::process::id()));
        let p = path.to_string_lossy().into_owned();
        write_samples(&p, &s).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(read_samples(&p, &text).unwrap(), s);
        std::fs::remove_file(&path).unwrap();
        assert!(text.starts_with(SAMPLES_HEADER));
        let e = read_samples("f", "30 1 2\n70 1\n").unwrap_err().to_string();
        assert!(e.contains("f line 2"), "{e}");
        assert!(read_samples("f", "30\n").is_err());
        assert!(read_samples("f", "30 x\n").is_err());
        // Files without the header: values from depth 1, no horizon value.
        let old = read_samples("f", "30 1 2\n\n20 5\n").unwrap();
        assert_eq!(old.len(), 2);
        assert_eq!(
            (old[0].horizon, &old[0].values[..], old[1].empties),
            (None, &[1, 2][..], 20)
        );
        let h = format!("{SAMPLES_HEADER}\n");
        assert!(read_samples("f", &format!("{h}30 4\n")).is_err());
        assert!(read_samples("f", &format!("{h}30 x 1\n")).is_err());
        let e = read_samples("f", &format!("{h}30 - 1\n61 - 1\n"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("f line 3") && e.contains("horizon"), "{e}");
    }
}
