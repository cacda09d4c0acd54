//! The pictures the commands write (`othello-svg`): boards for `show`, `search` and `solve`
//! (`--svg`), match plots for `play` and `stats` (`--plot`). Every file is written atomically:
//! a temporary file in the same directory, then a rename over the target, so a reader (a
//! browser watching a long match) never sees half a picture. A target is checked before the
//! work starts: its directory exists and takes a new file.

use crate::error::{CliResult, input};
use crate::stats::{Pentanomial, Sprt};
use othello_rules::Square;
use othello_rules::text::parse_moves;
use othello_svg::{BoardPicture, MatchPlot, MatchPoint};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The temporary file a write of `path` goes through: `.NAME.PID.tmp` beside it.
fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "picture".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// The directory a file `path` lands in (`.` for a bare name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Checks that a picture can be written at `path` (given as `flag`): not a directory, in a
/// directory that exists and takes a new file (a temporary one is created and removed).
///
/// # Errors
/// Bad input naming the flag and the path.
pub fn check_writable(path: &Path, flag: &str) -> CliResult<()> {
    let shown = path.display();
    if path.as_os_str().is_empty() {
        return Err(input(format!("bad {flag}: an empty path")));
    }
    if path.is_dir() {
        return Err(input(format!("bad {flag} {shown}: a directory, expected a file name")));
    }
    let dir = directory_of(path);
    if !dir.is_dir() {
        return Err(input(format!("bad {flag} {shown}: no directory {}", dir.display())));
    }
    let temp = temp_path(path);
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&temp) {
        Ok(_) => {
            let _ = std::fs::remove_file(&temp);
            Ok(())
        }
        Err(e) => Err(input(format!(
            "bad {flag} {shown}: cannot write in {}: {e}",
            dir.display()
        ))),
    }
}

/// Writes `text` to `path` atomically: a temporary file beside it, then a rename.
///
/// # Errors
/// The I/O error (the temporary file is removed).
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let temp = temp_path(path);
    let written = std::fs::File::create(&temp).and_then(|mut f| {
        f.write_all(text.as_bytes())?;
        f.flush()
    });
    let renamed = written.and_then(|()| std::fs::rename(&temp, path));
    if renamed.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    renamed
}

/// Draws `picture` and writes it to `path` (given as `flag`).
///
/// # Errors
/// Bad input: an annotation that does not fit the position, or a file that cannot be written.
pub fn write_board(path: &Path, picture: &BoardPicture, flag: &str) -> CliResult<()> {
    let svg = picture.to_svg().map_err(|e| input(format!("{flag}: {e}")))?;
    write_atomic(path, &svg).map_err(|e| input(format!("cannot write {flag} {}: {e}", path.display())))
}

/// The square of the last move of a `--moves` sequence (`None` without moves, or when the
/// last one is a pass).
pub fn last_move(moves: Option<&str>) -> Option<Square> {
    parse_moves(moves?).ok()?.last()?.1.square()
}

/// Where `solve --svg` writes the picture of each position.
#[derive(Clone, Debug)]
pub enum SvgTargets {
    /// One file (one position).
    File(PathBuf),
    /// A name with `{n}`, replaced by the position's number from 1.
    Pattern(String),
    /// A directory: `position-N.svg` in it.
    Directory(PathBuf),
}

impl SvgTargets {
    /// The targets for `count` positions from the `--svg` value, checked for writing.
    ///
    /// # Errors
    /// Bad input: several positions and a plain file name, or a place that cannot be written.
    pub fn new(value: &str, count: usize) -> CliResult<SvgTargets> {
        let targets = if value.contains("{n}") {
            SvgTargets::Pattern(value.to_string())
        } else if Path::new(value).is_dir() {
            SvgTargets::Directory(PathBuf::from(value))
        } else if count == 1 {
            SvgTargets::File(PathBuf::from(value))
        } else {
            return Err(input(format!(
                "bad --svg {value}: {count} positions need one file each: put {{n}} in the name \
                 (e.g. pos-{{n}}.svg) or give a directory"
            )));
        };
        check_writable(&targets.path(1), "--svg")?;
        Ok(targets)
    }

    /// The file of position `n` (from 1).
    pub fn path(&self, n: usize) -> PathBuf {
        match self {
            SvgTargets::File(p) => p.clone(),
            SvgTargets::Pattern(p) => PathBuf::from(p.replace("{n}", &n.to_string())),
            SvgTargets::Directory(d) => d.join(format!("position-{n}.svg")),
        }
    }
}

/// The statistics of the pairs so far as a point of the plot, from the same code as the text
/// and JSON summaries ([`Pentanomial::elo`], [`Sprt::llr`]).
pub fn match_point(games: u64, penta: &Pentanomial, sprt: Option<Sprt>) -> MatchPoint {
    let est = penta.elo();
    MatchPoint {
        games,
        elo: est.elo,
        elo_low: est.low,
        elo_high: est.high,
        llr: sprt.map(|t| t.llr(penta)),
    }
}

/// A match plot that grows as pairs finish and is rewritten (atomically) after each.
#[derive(Debug)]
pub struct PlotFile {
    path: PathBuf,
    title: String,
    sprt: Option<Sprt>,
    points: Vec<MatchPoint>,
    penta: Pentanomial,
}

impl PlotFile {
    /// A plot to write at `path`, checked for writing now (given as `flag`).
    ///
    /// # Errors
    /// Bad input when the path cannot be written.
    pub fn new(path: &str, flag: &str, title: String, sprt: Option<Sprt>) -> CliResult<PlotFile> {
        let path = PathBuf::from(path);
        check_writable(&path, flag)?;
        Ok(PlotFile {
            path,
            title,
            sprt,
            points: Vec::new(),
            penta: Pentanomial::default(),
        })
    }

    /// Adds the point of `penta` after `games` games.
    pub fn push(&mut self, games: u64, penta: &Pentanomial) {
        self.points.push(match_point(games, penta, self.sprt));
        self.penta = *penta;
    }

    /// The points so far.
    pub fn points(&self) -> &[MatchPoint] {
        &self.points
    }

    /// The SVG of the points so far.
    pub fn svg(&self) -> String {
        let mut plot = MatchPlot::new(self.points.clone())
            .pentanomial(self.penta.counts)
            .title(self.title.clone());
        if let Some(t) = self.sprt {
            let (lo, hi) = t.bounds();
            plot = plot.llr_bounds(lo, hi);
        }
        plot.to_svg()
    }

    /// Writes the plot of the points so far.
    ///
    /// # Errors
    /// A message naming the file.
    pub fn write(&self) -> Result<(), String> {
        write_atomic(&self.path, &self.svg()).map_err(|e| format!("cannot write the plot {}: {e}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_moves_of_sequences() {
        assert_eq!(last_move(None), None);
        assert_eq!(last_move(Some("f5d6c3")), Some("c3".parse().unwrap()));
        assert_eq!(last_move(Some("f5 d6 PS")), None);
        assert_eq!(last_move(Some("")), None);
    }

    #[test]
    fn targets_name_one_file_per_position() {
        let dir = std::env::temp_dir().join(format!("othello-picture-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pattern = dir.join("p-{n}.svg").to_string_lossy().into_owned();
        let t = SvgTargets::new(&pattern, 3).unwrap();
        assert_eq!(t.path(2), dir.join("p-2.svg"));
        let t = SvgTargets::new(dir.to_str().unwrap(), 3).unwrap();
        assert_eq!(t.path(12), dir.join("position-12.svg"));
        let one = dir.join("one.svg");
        let t = SvgTargets::new(one.to_str().unwrap(), 1).unwrap();
        assert_eq!(t.path(1), one);
        let e = SvgTargets::new(one.to_str().unwrap(), 2).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("2 positions need one file each"), "{e}");
        let missing = dir.join("no/such/dir/x.svg");
        assert!(SvgTargets::new(missing.to_str().unwrap(), 1).is_err());
        // An atomic write leaves only the target.
        write_atomic(&one, "<svg/>").unwrap();
        assert_eq!(std::fs::read_to_string(&one).unwrap(), "<svg/>");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("one.svg")]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn plot_points_come_from_the_statistics() {
        let mut penta = Pentanomial::default();
        penta.add_pair(2, 0);
        penta.add_pair(2, 1);
        let sprt = Sprt::new(0.0, 10.0);
        let p = match_point(4, &penta, Some(sprt));
        let est = penta.elo();
        assert_eq!((p.games, p.elo, p.elo_low, p.elo_high), (4, est.elo, est.low, est.high));
        assert_eq!(p.llr, Some(sprt.llr(&penta)));
        assert_eq!(match_point(4, &penta, None).llr, None);
    }
}
