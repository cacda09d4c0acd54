//! [`Tree`]: the search tree, stored in an arena, and one MCTS iteration over it.
//!
//! Nodes live in a `Vec` and refer to each other by `u32` index (no `Rc`, no pointer
//! chasing through the allocator); children are a `SmallVec` that stays inline up to six
//! entries. The arena has a node cap: once full, no node is added, partially expanded nodes
//! select among the children they have, and leaves are played out again and again.
//!
//! Rewards: a node's `W` counts, over the iterations that passed through it, 1 for a win, 1/2
//! for a draw and 0 for a loss **of the player who made the move into the node**, which is
//! always the colour that did not move at the node (`node.position().side_to_move().opposite()`):
//! a pass changes the side to move like any other move. UCT at a parent therefore maximises its
//! children's `W / N`, which is the parent's side to move's view. After a pass, one colour is the
//! mover of two consecutive nodes; the rule stays the same. `W` is kept as an integer count of
//! half points, so merging trees and comparing runs is exact.

use crate::PlayoutPolicy;
use crate::playout::{pick, playout};
use othello_rules::{Bitboard, Color, Move, Position, Square, movegen};
use rand::Rng;
use smallvec::SmallVec;

/// The index of a node in a [`Tree`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct NodeId(u32);

impl NodeId {
    /// The arena index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

const NO_PARENT: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Node {
    pos: Position,
    children: SmallVec<[u32; 6]>,
    /// Legal squares not yet expanded into children.
    unexpanded: u64,
    visits: u64,
    /// Twice the total reward, from the side of the player who moved into this node.
    reward2: u64,
    parent: u32,
    /// The incoming move as [`Move::to_u8`] (64 = pass); meaningless at the root.
    mv: u8,
    /// The side to move must pass and the pass child does not exist yet.
    pass_pending: bool,
    /// Neither side can move: scored exactly, never expanded, never played out.
    terminal: bool,
    depth: u16,
}

// 96 bytes: a position (24), the inline child list (32), five counters and flags. The cap in
// `MctsConfig::max_nodes` is sized with this figure.
const _: () = assert!(std::mem::size_of::<Node>() == 96);

impl Node {
    fn new(pos: Position, parent: u32, mv: u8, depth: u16) -> Node {
        let (p, o) = (pos.player().0, pos.opponent().0);
        let mask = pos.size().mask().0;
        let legal = movegen::legal_moves(p, o) & mask;
        let (pass_pending, terminal) = if legal != 0 {
            (false, false)
        } else if movegen::legal_moves(o, p) & mask != 0 {
            (true, false)
        } else {
            (false, true)
        };
        Node {
            pos,
            children: SmallVec::new(),
            unexpanded: legal,
            visits: 0,
            reward2: 0,
            parent,
            mv,
            pass_pending,
            terminal,
            depth,
        }
    }

    #[inline]
    fn can_expand(&self) -> bool {
        self.unexpanded != 0 || self.pass_pending
    }
}

/// A Monte Carlo search tree rooted at one position.
///
/// Read-only accessors let callers inspect the statistics; the search itself is driven by
/// [`Mcts`](crate::Mcts). Every accessor taking a [`NodeId`] panics when the id does not
/// belong to this tree.
#[derive(Clone)]
pub struct Tree {
    nodes: Vec<Node>,
    cap: usize,
    max_depth: u32,
}

/// A summary (the nodes themselves would flood the output).
impl std::fmt::Debug for Tree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tree")
            .field("root", &self.nodes[0].pos)
            .field("nodes", &self.nodes.len())
            .field("capacity", &self.cap)
            .field("max_depth", &self.max_depth)
            .finish()
    }
}

impl Tree {
    /// A tree holding only `root`, allowed to grow to `max_nodes` nodes (raised to at least the
    /// root and one child per root move, so the root can always be fully expanded).
    pub fn new(root: Position, max_nodes: usize) -> Tree {
        let node = Node::new(root, NO_PARENT, Move::Pass.to_u8(), 0);
        let root_children = node.unexpanded.count_ones() as usize + usize::from(node.pass_pending);
        Tree {
            nodes: vec![node],
            cap: max_nodes.max(1 + root_children),
            max_depth: 0,
        }
    }

    /// The root.
    pub const fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The node cap.
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Whether the node cap is reached (no more expansion).
    pub fn is_full(&self) -> bool {
        self.nodes.len() >= self.cap
    }

    /// The depth of the deepest node (the root has depth 0; a pass counts as a level).
    pub fn max_depth(&self) -> u32 {
        self.max_depth
    }

    /// The position at `id`.
    pub fn position(&self, id: NodeId) -> &Position {
        &self.nodes[id.index()].pos
    }

    /// The depth of `id` below the root.
    pub fn depth(&self, id: NodeId) -> u32 {
        u32::from(self.nodes[id.index()].depth)
    }

    /// The parent of `id`; `None` at the root.
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        let p = self.nodes[id.index()].parent;
        (p != NO_PARENT).then_some(NodeId(p))
    }

    /// The move that led from the parent to `id`; `None` at the root.
    pub fn incoming_move(&self, id: NodeId) -> Option<Move> {
        let n = &self.nodes[id.index()];
        if n.parent == NO_PARENT {
            None
        } else {
            Move::from_u8(n.mv)
        }
    }

    /// The player who made the move into `id` (whose view `W` takes): the colour not to move
    /// at `id`.
    pub fn mover(&self, id: NodeId) -> Color {
        self.nodes[id.index()].pos.side_to_move().opposite()
    }

    /// The expanded children of `id`, in the order they were expanded.
    pub fn children(&self, id: NodeId) -> impl ExactSizeIterator<Item = NodeId> + '_ {
        self.nodes[id.index()].children.iter().map(|&c| NodeId(c))
    }

    /// The child of `id` reached by `mv`, if it has been expanded.
    pub fn child(&self, id: NodeId, mv: Move) -> Option<NodeId> {
        let code = mv.to_u8();
        self.children(id).find(|&c| self.nodes[c.index()].mv == code)
    }

    /// The moves of `id` not yet expanded (squares in index order, or a pending pass).
    pub fn unexpanded_moves(&self, id: NodeId) -> Vec<Move> {
        let n = &self.nodes[id.index()];
        let mut out: Vec<Move> = Bitboard(n.unexpanded).into_iter().map(Move::Place).collect();
        if n.pass_pending {
            out.push(Move::Pass);
        }
        out
    }

    /// Whether the game is over at `id` (scored exactly, never expanded).
    pub fn is_terminal(&self, id: NodeId) -> bool {
        self.nodes[id.index()].terminal
    }

    /// The number of iterations that went through `id` (N).
    pub fn visits(&self, id: NodeId) -> u64 {
        self.nodes[id.index()].visits
    }

    /// The total reward W of `id` from [`Tree::mover`]'s side (win 1, draw 1/2, loss 0).
    pub fn total_reward(&self, id: NodeId) -> f64 {
        self.nodes[id.index()].reward2 as f64 / 2.0
    }

    /// Twice the total reward of `id`: W in exact half points.
    pub fn total_reward_halves(&self, id: NodeId) -> u64 {
        self.nodes[id.index()].reward2
    }

    /// The mean reward Q = W / N of `id` from [`Tree::mover`]'s side; `None` before any visit.
    pub fn mean_reward(&self, id: NodeId) -> Option<f64> {
        let n = &self.nodes[id.index()];
        (n.visits > 0).then(|| n.reward2 as f64 / (2.0 * n.visits as f64))
    }

    /// One iteration: select by UCT from the root, expand one move (unless the tree is full),
    /// score the new leaf by a playout (or exactly, when the game is over there), and back the
    /// result up to the root. Returns whether a playout was run.
    pub(crate) fn iterate<R: Rng + ?Sized>(&mut self, exploration: f64, policy: PlayoutPolicy, rng: &mut R) -> bool {
        let mut id = 0u32;
        loop {
            let node = &self.nodes[id as usize];
            if node.terminal {
                break;
            }
            if node.can_expand() && self.nodes.len() < self.cap {
                id = self.expand(id, rng);
                break;
            }
            if node.children.is_empty() {
                break;
            }
            id = self.select_child(id, exploration);
        }
        let leaf = &self.nodes[id as usize];
        let pos = leaf.pos;
        let (score, played_out) = if leaf.terminal {
            (pos.final_score(), false)
        } else {
            (playout(&pos, policy, rng), true)
        };
        self.backpropagate(id, score.signum() * pos.side_to_move().sign());
        played_out
    }

    /// The child of `id` with the highest UCT value `Q + c * sqrt(ln N / n)`, ties to the
    /// lowest move code.
    #[inline]
    fn select_child(&self, id: u32, exploration: f64) -> u32 {
        let parent = &self.nodes[id as usize];
        let k = exploration * (parent.visits.max(1) as f64).ln().sqrt();
        let mut best = parent.children[0];
        let mut best_value = f64::NEG_INFINITY;
        let mut best_mv = u8::MAX;
        for &c in &parent.children {
            let child = &self.nodes[c as usize];
            let value = if child.visits == 0 {
                f64::INFINITY
            } else {
                let n = child.visits as f64;
                child.reward2 as f64 / (2.0 * n) + k / n.sqrt()
            };
            if value > best_value || (value == best_value && child.mv < best_mv) {
                best = c;
                best_value = value;
                best_mv = child.mv;
            }
        }
        best
    }

    /// Adds one child of `id`: the pending pass, or a uniformly chosen unexpanded square.
    fn expand<R: Rng + ?Sized>(&mut self, id: u32, rng: &mut R) -> u32 {
        let child = self.nodes.len() as u32;
        let parent = &mut self.nodes[id as usize];
        let (mv, pos) = if parent.pass_pending {
            parent.pass_pending = false;
            (Move::Pass, parent.pos.pass_unchecked())
        } else {
            let sq = pick(parent.unexpanded, rng);
            parent.unexpanded &= !(1u64 << sq);
            let square = Square::from_index_unchecked(sq as u8);
            let f = movegen::flips(parent.pos.player().0, parent.pos.opponent().0, sq);
            (Move::Place(square), parent.pos.play_with_flips(square, Bitboard(f)))
        };
        let depth = parent.depth + 1;
        parent.children.push(child);
        self.nodes.push(Node::new(pos, id, mv.to_u8(), depth));
        self.max_depth = self.max_depth.max(u32::from(depth));
        child
    }

    /// Adds one visit and the reward of a game won by the colour of sign `black_sign` (+1 black,
    /// -1 white, 0 draw) to `leaf` and every ancestor, each from its own mover's side.
    fn backpropagate(&mut self, leaf: u32, black_sign: i32) {
        let mut id = leaf;
        while id != NO_PARENT {
            let node = &mut self.nodes[id as usize];
            let mover = node.pos.side_to_move().opposite();
            node.visits += 1;
            node.reward2 += (1 + mover.sign() * black_sign) as u64;
            id = node.parent;
        }
    }

    /// The node holding `pos`: first by following `path` from the root, then among the first
    /// three levels (the most visited match). `None` when `pos` is not in reach.
    pub(crate) fn find(&self, path: &[Move], pos: &Position) -> Option<NodeId> {
        let mut id = Some(self.root());
        for &mv in path {
            id = id.and_then(|n| self.child(n, mv));
        }
        if let Some(n) = id.filter(|&n| self.position(n) == pos) {
            return Some(n);
        }
        let mut found: Option<NodeId> = None;
        let mut level = vec![self.root()];
        for _ in 0..=3 {
            let mut next = Vec::new();
            for &n in &level {
                if self.position(n) == pos && found.is_none_or(|f| self.visits(n) > self.visits(f)) {
                    found = Some(n);
                }
                next.extend(self.children(n));
            }
            level = next;
        }
        found
    }

    /// Makes `id` the root, keeping its subtree (statistics included) and dropping the rest.
    pub(crate) fn reroot(&mut self, id: NodeId) {
        if id == self.root() {
            return;
        }
        let old = std::mem::take(&mut self.nodes);
        // Breadth-first order puts every parent before its children.
        let mut order = vec![id.0];
        let mut i = 0;
        while i < order.len() {
            order.extend_from_slice(&old[order[i] as usize].children);
            i += 1;
        }
        let mut map = vec![NO_PARENT; old.len()];
        for (new, &o) in order.iter().enumerate() {
            map[o as usize] = new as u32;
        }
        let mut nodes: Vec<Node> = Vec::with_capacity(order.len());
        let mut max_depth = 0;
        for &o in &order {
            let mut n = old[o as usize].clone();
            if o == id.0 {
                n.parent = NO_PARENT;
                n.depth = 0;
            } else {
                n.parent = map[n.parent as usize];
                n.depth = nodes[n.parent as usize].depth + 1;
            }
            for c in n.children.iter_mut() {
                *c = map[*c as usize];
            }
            max_depth = max_depth.max(u32::from(n.depth));
            nodes.push(n);
        }
        self.nodes = nodes;
        self.max_depth = max_depth;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    /// Recomputes N and W of every inner node from its children and leaf counts: a node's
    /// visits are its own leaf evaluations plus its children's visits.
    fn check_consistency(t: &Tree) {
        for (i, n) in t.nodes.iter().enumerate() {
            let child_visits: u64 = n.children.iter().map(|&c| t.nodes[c as usize].visits).sum();
            assert!(n.visits >= child_visits, "node {i}");
            assert!(n.reward2 <= 2 * n.visits);
            for &c in &n.children {
                assert_eq!(t.nodes[c as usize].parent as usize, i);
                assert_eq!(t.nodes[c as usize].depth, n.depth + 1);
                let mv = Move::from_u8(t.nodes[c as usize].mv).unwrap();
                assert_eq!(n.pos.play(mv).unwrap(), t.nodes[c as usize].pos);
            }
        }
    }

    #[test]
    fn iterations_keep_the_tree_consistent_and_reroot_keeps_the_subtree() {
        let mut rng = SmallRng::seed_from_u64(1);
        let mut t = Tree::new(Position::start(), 5000);
        for _ in 0..3000 {
            t.iterate(1.4, PlayoutPolicy::Random, &mut rng);
        }
        assert_eq!(t.visits(t.root()), 3000);
        check_consistency(&t);
        let child = t.children(t.root()).max_by_key(|&c| t.visits(c)).unwrap();
        let (n, w, pos) = (t.visits(child), t.total_reward_halves(child), *t.position(child));
        let before = t.node_count();
        t.reroot(child);
        assert!(t.node_count() < before);
        assert_eq!((t.visits(t.root()), t.total_reward_halves(t.root())), (n, w));
        assert_eq!(*t.position(t.root()), pos);
        assert_eq!(t.parent(t.root()), None);
        check_consistency(&t);
    }

    #[test]
    fn a_full_tree_keeps_searching() {
        let mut rng = SmallRng::seed_from_u64(2);
        let mut t = Tree::new(Position::start(), 10);
        for _ in 0..500 {
            assert!(t.iterate(1.4, PlayoutPolicy::Random, &mut rng));
        }
        assert_eq!(t.node_count(), 10);
        assert_eq!(t.visits(t.root()), 500);
        check_consistency(&t);
    }
}
