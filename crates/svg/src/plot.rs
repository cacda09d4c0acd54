//! [`MatchPlot`]: Elo and LLR of a match over the games played.

use crate::{escape, open_svg, put};
use std::fmt::Write;

/// The plot's width in pixels.
const WIDTH: f64 = 640.0;
/// Left of the panels: room for the tick labels.
const LEFT: f64 = 64.0;
/// Right of the panels.
const RIGHT: f64 = 20.0;
/// A panel's height.
const PANEL: f64 = 190.0;
/// Elo beyond this is drawn at the edge (an interval from a few pairs can be huge).
const ELO_CLAMP: f64 = 1000.0;

/// The statistics after some games: what one point of the plot shows.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchPoint {
    /// Games played so far (the x axis).
    pub games: u64,
    /// Elo of the first player; `None` when not a number (a score of 0% or 100%).
    pub elo: Option<f64>,
    /// The low end of the Elo's 95% interval; `None` when unknown.
    pub elo_low: Option<f64>,
    /// The high end of the Elo's 95% interval; `None` when unknown.
    pub elo_high: Option<f64>,
    /// The SPRT's log-likelihood ratio; `None` without a test.
    pub llr: Option<f64>,
}

/// A picture of a match: the Elo with its 95% interval (a band) and, when a test runs, the
/// LLR with its two bounds, both over the games played; a header gives the last point's
/// figures and the pentanomial counts.
///
/// The figures are the caller's (this crate computes no statistics): points in the order the
/// games were played, `None` for a figure that is not a number at that point (drawn as a gap).
/// Elo is drawn within +/-1000.
///
/// ```
/// use othello_svg::{MatchPlot, MatchPoint};
///
/// let points = vec![
///     MatchPoint { games: 2, elo: Some(0.0), elo_low: None, elo_high: None, llr: Some(0.0) },
///     MatchPoint { games: 4, elo: Some(88.7), elo_low: Some(-109.0), elo_high: Some(385.5), llr: Some(0.4) },
/// ];
/// let svg = MatchPlot::new(points).llr_bounds(-2.94, 2.94).pentanomial([0, 0, 1, 1, 0]).to_svg();
/// assert_eq!(svg.matches("class=\"llr-bound\"").count(), 2);
/// assert!(svg.contains("class=\"pentanomial\""));
/// ```
#[derive(Clone, Debug, Default)]
pub struct MatchPlot {
    points: Vec<MatchPoint>,
    bounds: Option<(f64, f64)>,
    pentanomial: Option<[u64; 5]>,
    title: Option<String>,
}

impl MatchPlot {
    /// A plot of these points (in the order played).
    pub fn new(points: Vec<MatchPoint>) -> MatchPlot {
        MatchPlot {
            points,
            ..MatchPlot::default()
        }
    }

    /// The SPRT's bounds on the LLR: accept H0 at or below `lower`, H1 at or above `upper`.
    pub fn llr_bounds(mut self, lower: f64, upper: f64) -> MatchPlot {
        self.bounds = Some((lower, upper));
        self
    }

    /// The pentanomial counts (pairs scoring 0, 1/2, 1, 3/2 and 2 points for the first player).
    pub fn pentanomial(mut self, counts: [u64; 5]) -> MatchPlot {
        self.pentanomial = Some(counts);
        self
    }

    /// The first line of the picture, e.g. the two players.
    pub fn title(mut self, text: impl Into<String>) -> MatchPlot {
        self.title = Some(text.into());
        self
    }

    /// The picture as an SVG document.
    pub fn to_svg(&self) -> String {
        let finite = |x: Option<f64>| x.filter(|v| v.is_finite());
        let has_llr = self.points.iter().any(|p| finite(p.llr).is_some()) || self.bounds.is_some();
        let header = self.header();
        // The header's lines sit at y = 36, 54, ...; the panel's label 20 pixels below the last.
        let elo_top = 36.0 + 18.0 * (header.len() as f64 - 1.0) + 26.0;
        let llr_top = elo_top + PANEL + 56.0;
        let height = if has_llr {
            llr_top + PANEL + 44.0
        } else {
            elo_top + PANEL + 44.0
        };
        let mut out = String::with_capacity(16384);
        let title = self.title.clone().unwrap_or_else(|| "match".to_string());
        open_svg(&mut out, WIDTH as u32, height.ceil() as u32, &title);
        put!(
            out,
            "<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n",
            WIDTH,
            height.ceil()
        );
        put!(
            out,
            "<text class=\"title\" x=\"{LEFT}\" y=\"18\" font-size=\"15\" font-weight=\"bold\" fill=\"#222222\">{}</text>\n",
            escape(&title)
        );
        for (i, line) in header.iter().enumerate() {
            let class = if line.starts_with("pentanomial") {
                "pentanomial"
            } else {
                "summary"
            };
            put!(
                out,
                "<text class=\"{class}\" x=\"{LEFT}\" y=\"{}\" font-size=\"13\" fill=\"#222222\">{}</text>\n",
                36.0 + 18.0 * i as f64,
                escape(line)
            );
        }
        let max_games = self.points.iter().map(|p| p.games).max().unwrap_or(0).max(2) as f64;
        let x_ticks = ticks(0.0, max_games, 6);
        let x_hi = *x_ticks.last().unwrap_or(&max_games);

        // Elo, its interval and zero.
        let clamp = |v: f64| v.clamp(-ELO_CLAMP, ELO_CLAMP);
        let elo_values = self
            .points
            .iter()
            .flat_map(|p| [finite(p.elo), finite(p.elo_low), finite(p.elo_high)])
            .flatten()
            .map(clamp);
        let (lo, hi) = range_with_zero(elo_values);
        let panel = Panel::new(
            &mut out,
            "elo-panel",
            elo_top,
            (0.0, x_hi),
            (lo, hi),
            "Elo (95% interval)",
            &x_ticks,
        );
        // The band: one polygon per run of points where both ends are known.
        for run in runs(&self.points, |p| {
            finite(p.elo_low).is_some() && finite(p.elo_high).is_some()
        }) {
            let mut pts = String::new();
            for p in run {
                put!(pts, "{} ", panel.xy(p.games as f64, clamp(p.elo_high.unwrap_or(0.0))));
            }
            for p in run.iter().rev() {
                put!(pts, "{} ", panel.xy(p.games as f64, clamp(p.elo_low.unwrap_or(0.0))));
            }
            put!(
                out,
                "<polygon class=\"elo-interval\" points=\"{}\" fill=\"#1e88e5\" fill-opacity=\"0.2\" stroke=\"none\" clip-path=\"url(#elo-panel-clip)\"/>\n",
                pts.trim_end()
            );
        }
        panel.hline(&mut out, "zero", 0.0, "#666666", "4 3");
        for run in runs(&self.points, |p| finite(p.elo).is_some()) {
            panel.polyline(
                &mut out,
                "elo",
                run.iter().map(|p| (p.games as f64, clamp(p.elo.unwrap_or(0.0)))),
                "#1565c0",
            );
        }

        if has_llr {
            let mut values: Vec<f64> = self.points.iter().filter_map(|p| finite(p.llr)).collect();
            if let Some((a, b)) = self.bounds {
                values.extend([a, b].into_iter().filter(|v| v.is_finite()));
            }
            let (lo, hi) = range_with_zero(values.into_iter());
            let panel = Panel::new(
                &mut out,
                "llr-panel",
                llr_top,
                (0.0, x_hi),
                (lo, hi),
                "LLR (SPRT bounds)",
                &x_ticks,
            );
            panel.hline(&mut out, "zero", 0.0, "#666666", "4 3");
            if let Some((a, b)) = self.bounds {
                for (v, color, name) in [(a, "#c62828", "H0"), (b, "#2e7d32", "H1")] {
                    if v.is_finite() {
                        panel.hline(&mut out, "llr-bound", v, color, "8 4");
                        let (x, y) = panel.px(x_hi, v);
                        put!(
                            out,
                            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"{color}\" text-anchor=\"end\">accept {name} ({v:.2})</text>\n",
                            x - 4.0,
                            y - 4.0
                        );
                    }
                }
            }
            for run in runs(&self.points, |p| finite(p.llr).is_some()) {
                panel.polyline(
                    &mut out,
                    "llr",
                    run.iter().map(|p| (p.games as f64, p.llr.unwrap_or(0.0))),
                    "#6a1b9a",
                );
            }
        }
        out.push_str("</svg>\n");
        out
    }

    /// The header lines: the last point's figures and the pentanomial counts.
    fn header(&self) -> Vec<String> {
        let mut lines = Vec::new();
        match self.points.last() {
            None => lines.push("no game pair finished yet".to_string()),
            Some(p) => {
                let elo = |x: Option<f64>| {
                    x.filter(|v| v.is_finite())
                        .map_or("-".to_string(), |v| format!("{v:+.1}"))
                };
                let mut s = format!(
                    "after {} games: Elo {} [{}, {}]",
                    p.games,
                    elo(p.elo),
                    elo(p.elo_low),
                    elo(p.elo_high)
                );
                if let Some(llr) = p.llr.filter(|v| v.is_finite()) {
                    s += &format!(", LLR {llr:.2}");
                    if let Some((a, b)) = self.bounds {
                        s += &format!(" ({a:.2}, {b:.2})");
                    }
                }
                lines.push(s);
            }
        }
        if let Some(c) = self.pentanomial {
            lines.push(format!(
                "pentanomial (pairs scoring 0, 1/2, 1, 3/2, 2): {} {} {} {} {}",
                c[0], c[1], c[2], c[3], c[4]
            ));
        }
        lines
    }
}

/// The runs of consecutive points that satisfy `keep`.
fn runs(points: &[MatchPoint], keep: impl Fn(&MatchPoint) -> bool) -> Vec<&[MatchPoint]> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, p) in points.iter().enumerate() {
        match (keep(p), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(&points[s..i]);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(&points[s..]);
    }
    out
}

/// The range of `values` and zero, widened to at least 1 and to round ticks.
fn range_with_zero(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for v in values {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if hi - lo < 1.0 {
        lo -= 0.5;
        hi += 0.5;
    }
    let t = ticks(lo, hi, 6);
    (t[0], t[t.len() - 1])
}

/// Round tick values covering `lo..=hi` with at most about `max` intervals (steps of 1, 2 or 5
/// times a power of ten).
fn ticks(lo: f64, hi: f64, max: usize) -> Vec<f64> {
    let span = (hi - lo).max(1e-9);
    let raw = span / max as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let first = (lo / step).floor() as i64;
    let last = (hi / step).ceil() as i64;
    // Rounded to the step's decimals, so that 3 * 0.2 is 0.6 (and labels stay short).
    let scale = 10f64.powi((-step.log10().floor()).max(0.0) as i32);
    (first..=last)
        .map(|k| (k as f64 * step * scale).round() / scale)
        .map(|v| if v == 0.0 { 0.0 } else { v })
        .collect()
}

/// A tick label: no decimals for whole numbers.
fn tick_label(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// One panel: axes, ticks and a clip rectangle, and the mapping of data to pixels.
struct Panel {
    top: f64,
    x: (f64, f64),
    y: (f64, f64),
    id: &'static str,
}

impl Panel {
    #[allow(clippy::too_many_arguments)]
    fn new(
        out: &mut String,
        id: &'static str,
        top: f64,
        x: (f64, f64),
        y: (f64, f64),
        label: &str,
        x_ticks: &[f64],
    ) -> Panel {
        let p = Panel { top, x, y, id };
        let (w, h) = (WIDTH - LEFT - RIGHT, PANEL);
        put!(
            out,
            "<g class=\"{id}\">\n<clipPath id=\"{id}-clip\"><rect x=\"{LEFT}\" y=\"{top}\" width=\"{w}\" height=\"{h}\"/></clipPath>\n\
             <rect x=\"{LEFT}\" y=\"{top}\" width=\"{w}\" height=\"{h}\" fill=\"#fafafa\" stroke=\"#999999\"/>\n"
        );
        out.push_str("<g font-size=\"11\" fill=\"#444444\">\n");
        for &t in &ticks(y.0, y.1, 6) {
            let (_, py) = p.px(x.0, t);
            put!(
                out,
                "<line x1=\"{LEFT}\" y1=\"{py:.1}\" x2=\"{:.1}\" y2=\"{py:.1}\" stroke=\"#e0e0e0\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
                WIDTH - RIGHT,
                LEFT - 6.0,
                py + 4.0,
                tick_label(t)
            );
        }
        for &t in x_ticks {
            let (px, _) = p.px(t, y.0);
            put!(
                out,
                "<line x1=\"{px:.1}\" y1=\"{:.1}\" x2=\"{px:.1}\" y2=\"{:.1}\" stroke=\"#999999\"/><text x=\"{px:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n",
                top + h,
                top + h + 4.0,
                top + h + 16.0,
                tick_label(t)
            );
        }
        put!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">games</text>\n</g>\n\
             <text x=\"{LEFT}\" y=\"{:.1}\" font-size=\"12\" font-weight=\"bold\" fill=\"#222222\">{}</text>\n</g>\n",
            WIDTH - RIGHT,
            top + h + 30.0,
            top - 5.0,
            escape(label)
        );
        p
    }

    /// Pixel coordinates of a data point.
    fn px(&self, x: f64, y: f64) -> (f64, f64) {
        let w = WIDTH - LEFT - RIGHT;
        let fx = if self.x.1 > self.x.0 {
            (x - self.x.0) / (self.x.1 - self.x.0)
        } else {
            0.0
        };
        let fy = if self.y.1 > self.y.0 {
            (y - self.y.0) / (self.y.1 - self.y.0)
        } else {
            0.5
        };
        (LEFT + fx * w, self.top + PANEL - fy * PANEL)
    }

    /// `x,y` of a data point, for a `points` list.
    fn xy(&self, x: f64, y: f64) -> String {
        let (px, py) = self.px(x, y);
        format!("{px:.1},{py:.1}")
    }

    fn hline(&self, out: &mut String, class: &str, y: f64, color: &str, dash: &str) {
        let (x1, py) = self.px(self.x.0, y);
        let (x2, _) = self.px(self.x.1, y);
        put!(
            out,
            "<line class=\"{class}\" x1=\"{x1:.1}\" y1=\"{py:.1}\" x2=\"{x2:.1}\" y2=\"{py:.1}\" stroke=\"{color}\" stroke-width=\"1.5\" stroke-dasharray=\"{dash}\"/>\n"
        );
    }

    fn polyline(&self, out: &mut String, class: &str, points: impl Iterator<Item = (f64, f64)>, color: &str) {
        let pts: Vec<String> = points.map(|(x, y)| self.xy(x, y)).collect();
        put!(
            out,
            "<polyline class=\"{class}\" points=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2\" stroke-linejoin=\"round\" clip-path=\"url(#{}-clip)\"/>\n",
            pts.join(" "),
            self.id
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(games: u64, elo: Option<f64>, llr: Option<f64>) -> MatchPoint {
        MatchPoint {
            games,
            elo,
            elo_low: elo.map(|e| e - 50.0),
            elo_high: elo.map(|e| e + 50.0),
            llr,
        }
    }

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(ticks(0.0, 100.0, 6), vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(ticks(-2.94, 2.94, 6), vec![-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0]);
        assert_eq!(ticks(0.0, 2.0, 6), vec![0.0, 0.5, 1.0, 1.5, 2.0]);
        let t = ticks(-137.0, 412.0, 6);
        assert!(t[0] <= -137.0 && *t.last().unwrap() >= 412.0 && t.len() <= 8, "{t:?}");
        assert_eq!(range_with_zero([5.0, 7.0].into_iter()), (0.0, 8.0));
        // A range of at least 1 is not widened before the ticks round it.
        assert_eq!(range_with_zero([-5.0, 0.3].into_iter()), (-5.0, 1.0));
        assert_eq!(range_with_zero([0.2, 0.7].into_iter()), (-0.5, 1.5));
        assert_eq!(range_with_zero(std::iter::empty()), (-0.6, 0.6));
        assert_eq!(ticks(0.0, 1.0, 6), vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(tick_label(20.0), "20");
        assert_eq!(tick_label(-0.5), "-0.5");
    }

    #[test]
    fn gaps_split_the_lines() {
        let points = vec![
            point(2, None, Some(0.1)),
            point(4, Some(10.0), Some(0.2)),
            point(6, Some(12.0), Some(0.3)),
            point(8, None, Some(0.4)),
            point(10, Some(5.0), Some(0.5)),
        ];
        let r = runs(&points, |p| p.elo.is_some());
        assert_eq!(r.iter().map(|r| r.len()).collect::<Vec<_>>(), vec![2, 1]);
        let svg = MatchPlot::new(points).to_svg();
        assert_eq!(svg.matches("class=\"elo\"").count(), 2);
        assert_eq!(svg.matches("class=\"elo-interval\"").count(), 2);
        assert_eq!(svg.matches("class=\"llr\"").count(), 1);
        // No bounds given: no bound lines.
        assert_eq!(svg.matches("class=\"llr-bound\"").count(), 0);
    }

    /// The `(x, y)` pairs of the `points` attribute of each element of class `class`.
    fn lines_of(svg: &str, class: &str) -> Vec<Vec<(f64, f64)>> {
        let marker = format!("class=\"{class}\" points=\"");
        svg.match_indices(&marker)
            .map(|(at, _)| {
                let rest = &svg[at + marker.len()..];
                rest[..rest.find('"').unwrap()]
                    .split(' ')
                    .map(|xy| {
                        let (x, y) = xy.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn higher_values_are_drawn_higher_and_huge_ones_at_the_edge() {
        let points: Vec<MatchPoint> = [(-3000.0, -0.5), (-20.0, 0.0), (10.0, 0.5), (400.0, 1.0), (5000.0, 2.5)]
            .iter()
            .enumerate()
            .map(|(i, &(elo, llr))| MatchPoint {
                games: 2 * (i as u64 + 1),
                elo: Some(elo),
                elo_low: None,
                elo_high: None,
                llr: Some(llr),
            })
            .collect();
        let svg = MatchPlot::new(points).to_svg();
        for class in ["elo", "llr"] {
            let line = &lines_of(&svg, class)[0];
            assert_eq!(line.len(), 5);
            for w in line.windows(2) {
                assert!(w[1].0 > w[0].0, "{class}: x grows with the games: {line:?}");
                assert!(
                    w[1].1 < w[0].1,
                    "{class}: a higher value is higher on the page: {line:?}"
                );
            }
        }
        // Elo is drawn within +/-1000: the axis ends there, and +5000 at the frame's top.
        assert!(svg.contains(">1000</text>") && svg.contains(">-1000</text>"), "{svg}");
        assert!(!svg.contains(">1200</text>") && !svg.contains(">5000</text>"));
        let elo = &lines_of(&svg, "elo")[0];
        let top = elo.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let frame_top = 36.0 + 26.0;
        assert_eq!(top, frame_top);
    }

    #[test]
    fn the_band_needs_both_ends() {
        let mut points: Vec<MatchPoint> = (1..=5).map(|k| point(2 * k, Some(0.0), None)).collect();
        points[2].elo_high = None;
        points[3].elo_low = None;
        let svg = MatchPlot::new(points).to_svg();
        let bands = lines_of(&svg, "elo-interval");
        assert_eq!(bands.iter().map(Vec::len).collect::<Vec<_>>(), vec![4, 2]);
        // The band's upper edge is above the line, its lower edge below.
        let line = &lines_of(&svg, "elo")[0];
        assert!(bands[0][0].1 < line[0].1 && bands[0][3].1 > line[0].1);
    }

    #[test]
    fn without_a_test_there_is_no_llr_panel() {
        let svg = MatchPlot::new(vec![point(2, Some(0.0), None)]).to_svg();
        assert!(!svg.contains("llr-panel"));
        assert!(svg.contains("elo-panel"));
        let h = MatchPlot::new(vec![point(2, Some(0.0), None)]).header();
        assert_eq!(h, vec!["after 2 games: Elo +0.0 [-50.0, +50.0]".to_string()]);
        let h = MatchPlot::new(vec![point(4, Some(1.0), Some(-0.5))])
            .llr_bounds(-2.94, 2.94)
            .pentanomial([1, 2, 3, 4, 5])
            .header();
        assert_eq!(
            h,
            vec![
                "after 4 games: Elo +1.0 [-49.0, +51.0], LLR -0.50 (-2.94, 2.94)".to_string(),
                "pentanomial (pairs scoring 0, 1/2, 1, 3/2, 2): 1 2 3 4 5".to_string()
            ]
        );
        assert_eq!(
            MatchPlot::default().header(),
            vec!["no game pair finished yet".to_string()]
        );
    }

    #[test]
    fn points_map_inside_the_panel() {
        let mut out = String::new();
        let p = Panel::new(&mut out, "t", 100.0, (0.0, 10.0), (-5.0, 5.0), "x", &[0.0, 10.0]);
        assert_eq!(p.px(0.0, -5.0), (LEFT, 100.0 + PANEL));
        assert_eq!(p.px(10.0, 5.0), (WIDTH - RIGHT, 100.0));
        assert_eq!(
            p.px(5.0, 0.0),
            (LEFT + (WIDTH - LEFT - RIGHT) / 2.0, 100.0 + PANEL / 2.0)
        );
    }
}
