//! `othello stats --records FILE --time-by-empties BAND`: where each side of a match spent its
//! time. Every timed move of the records (forced passes left out) is counted in the band of
//! `BAND` empty squares that holds the empties before it (bands counted down from 60:
//! 53-60, 45-52, ... with 8), per side: moves, total seconds, mean milliseconds a move, its
//! share of the side's time, and the mean depth the side reported. Under a fixed depth the
//! times show where each engine's search is expensive; at equal time, where each side could
//! spend more.

use crate::error::CliResult;
use crate::records::{Records, TimedMove};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The most empty squares before a move.
const MAX_EMPTIES: u32 = 60;

/// One side's moves in one band.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spent {
    /// Timed moves (a time in the record; forced passes left out).
    pub moves: u64,
    /// Their total time in seconds.
    pub seconds: f64,
    /// Moves with a reported depth.
    pub depths: u64,
    /// The sum of the reported depths.
    pub depth_sum: u64,
}

impl Spent {
    /// Counts one move of `seconds` and its reported `depth`.
    fn add(&mut self, seconds: f64, depth: Option<u32>) {
        self.moves += 1;
        self.seconds += seconds;
        if let Some(d) = depth {
            self.depths += 1;
            self.depth_sum += u64::from(d);
        }
    }

    /// Mean milliseconds a move (`None` without a move).
    pub fn ms_per_move(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.seconds * 1000.0 / self.moves as f64)
    }

    /// Mean reported depth (`None` without one).
    pub fn mean_depth(&self) -> Option<f64> {
        (self.depths > 0).then(|| self.depth_sum as f64 / self.depths as f64)
    }
}

/// Each side's time by bands of empty squares.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeUse {
    /// The band width in empty squares.
    pub band: u32,
    /// `(lowest, highest empties, [A, B])` for each band with a timed move, most empties
    /// first.
    pub rows: Vec<(u32, u32, [Spent; 2])>,
    /// Both sides over all bands.
    pub total: [Spent; 2],
}

/// The band holding `empties`: its lowest and highest empties, counted down from 60.
fn band_of(empties: u32, band: u32) -> (u32, u32) {
    let e = empties.min(MAX_EMPTIES);
    let k = (MAX_EMPTIES - e) / band;
    let high = MAX_EMPTIES - k * band;
    (high.saturating_sub(band - 1), high)
}

impl TimeUse {
    /// Tallies `moves` in bands of `band` empties (at least 1).
    pub fn new(moves: &[TimedMove], band: u32) -> TimeUse {
        let band = band.max(1);
        let mut bands: BTreeMap<(u32, u32), [Spent; 2]> = BTreeMap::new();
        let mut total = [Spent::default(); 2];
        for mv in moves.iter().filter(|m| !m.pass) {
            let Some(seconds) = mv.seconds else {
                continue;
            };
            let side = usize::from(!mv.by_a);
            bands.entry(band_of(mv.empties, band)).or_default()[side].add(seconds, mv.depth);
            total[side].add(seconds, mv.depth);
        }
        let rows = bands.into_iter().rev().map(|((low, high), s)| (low, high, s)).collect();
        TimeUse { band, rows, total }
    }

    /// The table as text, with the players' names.
    pub fn text(&self, names: (&str, &str)) -> String {
        let cell = |s: &Spent, total: &Spent| {
            let share = if total.seconds > 0.0 {
                100.0 * s.seconds / total.seconds
            } else {
                0.0
            };
            format!(
                "{:>6} {:>9} {:>8.1}% {:>6}",
                s.moves,
                s.ms_per_move().map_or("-".to_string(), |m| format!("{m:.1}")),
                share,
                s.mean_depth().map_or("-".to_string(), |d| format!("{d:.1}")),
            )
        };
        let mut s = format!(
            "time by empties (A = {}, B = {}): moves, ms a move, share of the side's time, mean depth\n{:>7} | {:>6} {:>9} {:>9} {:>6} | {:>6} {:>9} {:>9} {:>6} | B/A ms",
            names.0, names.1, "empties", "A", "ms", "share", "depth", "B", "ms", "share", "depth"
        );
        let ratio = |a: &Spent, b: &Spent| match (a.ms_per_move(), b.ms_per_move()) {
            (Some(a), Some(b)) if a > 0.0 => format!("{:.2}", b / a),
            _ => "-".to_string(),
        };
        for (low, high, [a, b]) in &self.rows {
            s += &format!(
                "\n{:>7} | {} | {} | {}",
                format!("{low}-{high}"),
                cell(a, &self.total[0]),
                cell(b, &self.total[1]),
                ratio(a, b)
            );
        }
        let [a, b] = &self.total;
        s += &format!("\n{:>7} | {} | {} | {}", "all", cell(a, a), cell(b, b), ratio(a, b));
        s
    }

    /// The JSON value: `band`, and for each band (and `all`) A's and B's `moves`, `seconds`,
    /// `ms_per_move` and `mean_depth` (null without a move or a depth).
    pub fn json(&self) -> Value {
        let side = |s: &Spent| {
            json!({"moves": s.moves, "seconds": s.seconds, "ms_per_move": s.ms_per_move(),
                "mean_depth": s.mean_depth()})
        };
        json!({
            "band": self.band,
            "rows": self.rows.iter().map(|(low, high, [a, b])| json!({
                "empties_min": low, "empties_max": high, "a": side(a), "b": side(b),
            })).collect::<Vec<_>>(),
            "all": {"a": side(&self.total[0]), "b": side(&self.total[1])},
        })
    }
}

/// `--time-by-empties`: the records' moves tallied in bands of `band` empties.
///
/// # Errors
/// As [`Records::timed_moves`].
pub fn time_use(records: &Records, band: u32) -> CliResult<TimeUse> {
    Ok(TimeUse::new(&records.timed_moves()?, band))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(by_a: bool, empties: u32, seconds: Option<f64>, depth: Option<u32>) -> TimedMove {
        TimedMove {
            game: 1,
            by_a,
            empties,
            seconds,
            depth,
            pass: false,
        }
    }

    #[test]
    fn bands_count_down_from_sixty() {
        assert_eq!(band_of(60, 8), (53, 60));
        assert_eq!(band_of(53, 8), (53, 60));
        assert_eq!(band_of(52, 8), (45, 52));
        assert_eq!(band_of(5, 8), (5, 12));
        assert_eq!(band_of(4, 8), (0, 4));
        assert_eq!(band_of(0, 8), (0, 4));
        assert_eq!(band_of(7, 1), (7, 7));
        assert_eq!(band_of(60, 61), (0, 60));
        assert_eq!(band_of(30, 10), (21, 30));
        assert_eq!(band_of(31, 10), (31, 40));
    }

    #[test]
    fn sides_and_bands_add_up() {
        let moves = [
            mv(true, 52, Some(0.2), Some(10)),
            mv(false, 51, Some(0.4), Some(12)),
            mv(true, 50, Some(0.1), None),
            mv(false, 44, Some(0.3), Some(16)),
            mv(true, 44, None, Some(20)),
            TimedMove {
                pass: true,
                ..mv(true, 43, Some(0.5), Some(1))
            },
            mv(true, 12, Some(0.0), Some(12)),
        ];
        let t = TimeUse::new(&moves, 8);
        let highs: Vec<(u32, u32)> = t.rows.iter().map(|r| (r.0, r.1)).collect();
        assert_eq!(highs, vec![(45, 52), (37, 44), (5, 12)]);
        let [a, b] = t.rows[0].2;
        assert_eq!((a.moves, a.depths, a.depth_sum), (2, 1, 10));
        assert!((a.seconds - 0.3).abs() < 1e-12);
        assert!((a.ms_per_move().unwrap() - 150.0).abs() < 1e-9);
        assert_eq!(a.mean_depth(), Some(10.0));
        assert_eq!((b.moves, b.depth_sum), (1, 12));
        // The untimed move and the pass are left out; a band where A moved only.
        let [a, b] = t.rows[1].2;
        assert_eq!((a.moves, b.moves), (0, 1));
        assert_eq!((a.ms_per_move(), a.mean_depth()), (None, None));
        assert_eq!(t.rows[2].2[0].moves, 1);
        assert_eq!((t.total[0].moves, t.total[1].moves), (3, 2));
        assert_eq!((t.total[0].depth_sum, t.total[1].depth_sum), (22, 28));
        assert!((t.total[1].seconds - 0.7).abs() < 1e-12);
        let text = t.text(("pvs", "zebra"));
        assert!(text.contains("A = pvs, B = zebra"), "{text}");
        assert!(
            text.contains("  45-52 |      2     150.0    100.0%   10.0 |      1     400.0     57.1%   12.0 | 2.67"),
            "{text}"
        );
        assert!(text.contains("    all |      3     100.0    100.0%   11.0 |"), "{text}");
        let j = t.json();
        assert_eq!(j["band"], 8);
        assert_eq!(j["rows"][1]["empties_min"], 37);
        assert_eq!(j["rows"][1]["a"]["ms_per_move"], Value::Null);
        assert_eq!(j["all"]["b"]["moves"], 2);
    }

    #[test]
    fn a_side_that_took_no_time_has_no_share_and_no_ratio() {
        // A's moves took 0 s: its shares are 0.0% (not NaN) and B/A has no value (not inf).
        let moves = [mv(true, 40, Some(0.0), None), mv(false, 39, Some(0.1), None)];
        let text = TimeUse::new(&moves, 8).text(("a", "b"));
        assert!(
            text.contains("  37-44 |      1       0.0      0.0%      - |      1     100.0    100.0%      - | -"),
            "{text}"
        );
        assert!(text.contains("    all |      1       0.0      0.0%      - |"), "{text}");
        assert!(!text.contains("NaN") && !text.contains("inf"), "{text}");
        // B's ratio is still given when A took time and B none.
        let moves = [mv(true, 40, Some(0.1), None), mv(false, 39, Some(0.0), None)];
        assert!(TimeUse::new(&moves, 8).text(("a", "b")).contains("| 0.00"));
    }
}
