//! The FFO endgame test suite (positions #1 to #49), bundled with the crate.
//!
//! Each position comes with the exact score of every legal move, best first (OBF format), as
//! published with Edax. #1-#19 take milliseconds, #20-#39 up to a second or so, #40-#49 are the
//! usual benchmark (20 to 24 empty squares).

use othello_rules::ObfLine;

const FILES: [(u32, &str); 3] = [
    (1, include_str!("../data/fforum-1-19.obf")),
    (20, include_str!("../data/fforum-20-39.obf")),
    (40, include_str!("../data/fforum-40-49.obf")),
];

/// Every FFO position with its number (1..=49), in order.
///
/// # Panics
/// Never for the bundled files (the unit tests parse them all).
pub fn positions() -> Vec<(u32, ObfLine)> {
    let mut out = Vec::with_capacity(49);
    for (first, text) in FILES {
        for (i, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
            let obf = line.parse::<ObfLine>().expect("the bundled FFO files are valid OBF");
            out.push((first + i as u32, obf));
        }
    }
    out
}

/// FFO position number `n` (1..=49), if bundled.
pub fn position(n: u32) -> Option<ObfLine> {
    positions().into_iter().find(|&(k, _)| k == n).map(|(_, obf)| obf)
}

#[cfg(test)]
mod tests {
    #[test]
    fn all_49_parse_with_scores() {
        let all = super::positions();
        assert_eq!(all.len(), 49);
        for (i, (n, obf)) in all.iter().enumerate() {
            assert_eq!(*n, i as u32 + 1);
            assert!(!obf.scores.is_empty());
            // Listed best first.
            assert!(obf.scores.windows(2).all(|w| w[0].1 >= w[1].1), "#{n}");
            assert_eq!(
                obf.scores.len(),
                obf.position.moves().len(),
                "#{n}: every legal move is scored"
            );
        }
        assert_eq!(super::position(40).unwrap().position.empty_count(), 20);
    }
}
