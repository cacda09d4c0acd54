//! The principal variation, collected in a triangular table.
//!
//! Each ply owns a line; when a move raises alpha at a PV node the line becomes that move
//! followed by the child's line. Passes are recorded as moves. Nodes below the horizon
//! (quiescence) do not extend the line, so a PV ends at the horizon. The table's cutoffs are not
//! taken at PV nodes when the entry's score lies inside the window, so a PV is never cut short
//! by a table hit.

use othello_rules::Move;

/// The deepest ply the main search can reach: 60 discs and at most one pass between two of
/// them (two passes in a row end the game), plus the root.
pub(crate) const MAX_PLY: usize = 128;

const PASS: u8 = 64;

/// A triangular PV table.
pub(crate) struct PvTable {
    lines: Box<[[u8; MAX_PLY]; MAX_PLY]>,
    len: [usize; MAX_PLY + 1],
}

impl PvTable {
    pub(crate) fn new() -> PvTable {
        PvTable {
            lines: Box::new([[0; MAX_PLY]; MAX_PLY]),
            len: [0; MAX_PLY + 1],
        }
    }

    #[inline]
    pub(crate) fn clear(&mut self, ply: usize) {
        self.len[ply] = 0;
    }

    /// The line at `ply` becomes `mv` (a square index, or 64 for a pass) followed by the line
    /// at `ply + 1`.
    #[inline]
    pub(crate) fn update(&mut self, ply: usize, mv: u8) {
        let n = self.len[ply + 1].min(MAX_PLY - 1 - ply);
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line[0] = mv;
        if n > 0 {
            line[1..=n].copy_from_slice(&tail[0][..n]);
        }
        self.len[ply] = n + 1;
    }

    #[inline]
    pub(crate) fn update_pass(&mut self, ply: usize) {
        self.update(ply, PASS);
    }

    /// The line at `ply` as moves.
    pub(crate) fn line(&self, ply: usize) -> Vec<Move> {
        self.lines[ply][..self.len[ply]]
            .iter()
            .map(|&c| Move::from_u8(c).expect("a stored move code"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_grow_from_the_leaf_up() {
        let mut pv = PvTable::new();
        pv.clear(3);
        pv.update(2, 10);
        pv.update_pass(1);
        pv.update(0, 5);
        let line: Vec<String> = pv.line(0).iter().map(|m| m.to_string()).collect();
        assert_eq!(line, ["f1", "pass", "c2"]);
        // A cleared child line truncates the parent's.
        pv.clear(1);
        pv.update(0, 7);
        assert_eq!(pv.line(0).len(), 1);
    }
}
