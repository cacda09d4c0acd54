//! The bootstrap of the phases the labels do not reach: positions of the games in a band of
//! empties, labelled by a search whose evaluation is the fit so far (its leaves lie in the
//! bands already fitted), so each band rests on the last. Shared by both models: the pattern
//! fit labels one band per phase, the hand-feature fit one band per `--band` empties.
//!
//! The band's positions are a seeded random choice among the games' positions in the band
//! (one per canonical key). Labels are `search` labels with the bootstrap's depth, written to a
//! file of their own when one is given; a later run with the same file reuses them instead of
//! searching again.

use crate::data::{Game, Key, Label, Source, key};
use crate::error::TrainResult;
use crate::jsonl::{self, OnBad};
use crate::labelling;
use ahash::{AHashMap, AHashSet};
use othello_eval::Evaluator;
use othello_rules::Position;
use othello_search::{Limits, SearchConfig, Searcher};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use std::fs::File;
use std::io::BufWriter;

/// A position the bootstrap may label, with its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The position.
    pub pos: Position,
    /// Its game's number.
    pub game: u32,
    /// Its game's seed.
    pub seed: Option<u64>,
}

/// Every position of `games` (before a move), one per canonical key, in game order.
pub fn candidates(games: &[Game]) -> Vec<Candidate> {
    let mut seen: AHashSet<Key> = AHashSet::new();
    let mut out = Vec::new();
    for g in games {
        for pos in g.positions() {
            if seen.insert(key(&pos)) {
                out.push(Candidate {
                    pos,
                    game: g.game,
                    seed: g.seed,
                });
            }
        }
    }
    out
}

/// The bootstrap's labels: those read from its file, and where new ones go.
pub struct Store {
    out: Option<(String, BufWriter<File>)>,
    known: AHashMap<(Key, u32), Label>,
}

impl Store {
    /// A store without a file.
    pub fn memory() -> Store {
        Store {
            out: None,
            known: AHashMap::new(),
        }
    }

    /// The store of `path`: its search labels are read (a missing file is empty) and new ones
    /// are appended to it.
    pub fn open(path: &str, on_bad: OnBad) -> TrainResult<Store> {
        // Cut a line left partial by an interruption first, then read what is there.
        let out = jsonl::append(path)?;
        let mut known = AHashMap::new();
        for l in labelling::read(path, true, on_bad)? {
            if let Source::Search {
                depth,
                mean_of: 1,
                selectivity: othello_search::Selectivity::Off,
            } = l.source
            {
                known.entry((key(&l.pos), depth)).or_insert(l);
            }
        }
        Ok(Store {
            out: Some((path.to_string(), out)),
            known,
        })
    }
}

/// What one band's bootstrap did.
#[derive(Clone, Debug, Default)]
pub struct Band {
    /// The labels of the band (new and reused).
    pub labels: Vec<Label>,
    /// Searches run.
    pub searched: usize,
    /// Labels reused from the store.
    pub reused: usize,
}

/// Labels up to `wanted` positions of `candidates` with `lo..=hi` empties (a seeded random
/// choice) by a depth-`depth` search with `eval`, reusing the store's labels.
#[allow(clippy::too_many_arguments)]
pub fn label_band<E: Evaluator>(
    store: &mut Store,
    candidates: &[Candidate],
    lo: u32,
    hi: u32,
    wanted: usize,
    depth: u32,
    rng: &mut SmallRng,
    eval: E,
) -> TrainResult<Band> {
    let mut chosen: Vec<&Candidate> = candidates
        .iter()
        .filter(|c| (lo..=hi).contains(&c.pos.empty_count()))
        .collect();
    chosen.shuffle(rng);
    chosen.truncate(wanted);
    // Full width, whatever the search's default selectivity: the weights being fitted have no
    // cut table (so this is what the labels always were), and the labels must not move with
    // a default.
    let config = SearchConfig::default()
        .with_tt_mib(16)
        .with_endgame_empties(0)
        .with_selectivity(othello_search::Selectivity::Off);
    let mut searcher = Searcher::new(eval, config);
    let mut band = Band::default();
    for c in chosen {
        let k = (key(&c.pos), depth);
        if let Some(l) = store.known.get(&k) {
            band.labels.push(l.clone());
            band.reused += 1;
            continue;
        }
        searcher.new_game();
        let r = searcher.search(&c.pos, &Limits::depth(depth), |_| {});
        let label = Label {
            pos: c.pos,
            centi: r.score.clamp(-6400, 6400),
            source: Source::search(depth, 1),
            game: Some(c.game),
            seed: c.seed,
            nodes: Some(r.nodes),
        };
        if let Some((path, w)) = &mut store.out {
            jsonl::write_line(w, path, &label.to_line())?;
        }
        store.known.insert(k, label.clone());
        band.labels.push(label);
        band.searched += 1;
    }
    Ok(band)
}
