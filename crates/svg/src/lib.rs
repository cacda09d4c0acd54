//! SVG pictures for Othello: a board and a match.
//!
//! [`BoardPicture`] draws a position of any size the rules crate supports (4x4, 6x6, 8x8):
//! the coordinates (`a`-`h` across, `1`-`8` down, a1 top-left as in the board strings), the
//! discs, the legal moves of the side to move, the last move, a value on each move (from a
//! search or an exact solve) and a principal variation numbered move by move.
//! [`MatchPlot`] draws a match: Elo with its 95% interval and the SPRT's log-likelihood ratio
//! with its bounds over the games played, with the pentanomial counts as text. The statistics
//! themselves are computed by the caller (the `othello` command computes them once, in its
//! `stats` module); the plot only draws the series it is given.
//!
//! The output is a plain, self-contained SVG 1.1 document (no script, no external reference,
//! no stylesheet: every colour is an attribute), written with `std::fmt::Write` into a
//! `String`. Every mark carries a `class` (`disc black`, `disc white`, `legal`, `value`,
//! `last-move`, `pv`; `elo`, `elo-interval`, `llr`, `llr-bound`, `pentanomial`) and the board's
//! marks a `data-square`, so tools and tests can find them.
//!
//! ```
//! use othello_rules::{Move, Position, Square};
//! use othello_svg::BoardPicture;
//!
//! let f5: Square = "f5".parse().unwrap();
//! let pos = Position::start().play(Move::Place(f5)).unwrap();
//! let d6: Move = "d6".parse().unwrap();
//! let svg = BoardPicture::new(&pos)
//!     .last_move(f5)
//!     .values([("d6".parse().unwrap(), 0), ("f4".parse().unwrap(), -2)])
//!     .pv(&[d6])
//!     .to_svg()
//!     .unwrap();
//! assert!(svg.starts_with("<svg"));
//! assert_eq!(svg.matches("class=\"disc black\"").count(), 4);
//! assert_eq!(svg.matches("class=\"legal\"").count(), 3); // d6, f4, f6
//! assert_eq!(svg.matches("class=\"last-move\"").count(), 1);
//! ```
#![deny(missing_docs)]

mod board;
mod plot;

pub use board::{BoardPicture, PictureError};
pub use plot::{MatchPlot, MatchPoint};

use std::fmt::Write;

/// Appends formatted text to a `String` (writing into a `String` cannot fail).
macro_rules! put {
    ($out:expr, $($arg:tt)*) => {{
        let _ = write!($out, $($arg)*);
    }};
}
pub(crate) use put;

/// Text with the five XML special characters escaped, for element content and attributes.
pub(crate) fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0 (tab, newline and return are).
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => {}
            c => s.push(c),
        }
    }
    s
}

/// Opens an SVG document of `width` x `height` pixels with a `role="img"` and a title.
pub(crate) fn open_svg(out: &mut String, width: u32, height: u32, title: &str) {
    put!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" role=\"img\" font-family=\"sans-serif\">\n<title>{}</title>\n",
        escape(title)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_covers_the_special_characters() {
        assert_eq!(escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(escape("x\u{1}y\tz"), "xy\tz");
        let mut s = String::new();
        put!(s, "{}-{}", 1, 2);
        assert_eq!(s, "1-2");
    }
}
