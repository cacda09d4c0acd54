"""The evaluation's odd/even swing from the static evaluation (docs/pattern.md, "Odd/even swing").

For positions of seeded random games, the depth-1 value (the best move's negated evaluation)
minus the static evaluation, in discs: by the number of legal moves at 20-50 empties (a
single legal move leaves no choice, so a shift there is a side-to-move bias, not the last
mover's pick among noisy values), then by empties; and the same on every third position of
the frozen held-out file (engine-game positions at 14-20 empties). Run from the repository
root with the package installed: `python bindings/python/bench/swing.py`.
"""

import json
import statistics
from collections import defaultdict

import othello_toolkit as o

EVAL = o.PatternEval()


def shift(p):
    """Depth-1 value minus static value of `p` in discs, or None if `p` must pass or is over."""
    if p.must_pass() or not p.moves():
        return None
    best = max(-EVAL.evaluate(p.play(m)) for m in p.moves())
    return (best - EVAL.evaluate(p)) / 100


def positions(games, seed):
    _, lengths, _, pos = o.random_games(games, seed=seed, positions=True)
    for g in range(pos.shape[0]):
        for k in range(int(lengths[g])):
            yield k, o.Position.from_bitboards(int(pos[g, k, 0]), int(pos[g, k, 1]))


def by_moves():
    groups = defaultdict(list)
    for k, p in positions(4000, 7):
        if not 20 <= p.empty_count <= 50:
            continue
        n = len(p.moves())
        if n > 1 and k % 5:  # every fifth ply of the positions with a choice
            continue
        d = shift(p)
        if d is not None:
            groups["1" if n == 1 else "2-4" if n <= 4 else "5-8" if n <= 8 else "9+"].append(d)
    for name in ["1", "2-4", "5-8", "9+"]:
        xs = groups[name]
        print(f"20-50 empties, {name} moves: n {len(xs)}, mean {statistics.mean(xs):+.2f}, sd {statistics.pstdev(xs):.2f}")


def by_empties():
    groups = defaultdict(list)
    for k, p in positions(3000, 11):
        e = p.empty_count
        if not 2 <= e <= 58 or (len(p.moves()) > 1 and k % 3):
            continue
        d = shift(p)
        if d is not None:
            groups[(e - 1) // 8].append(d)
    for b in sorted(groups):
        xs = groups[b]
        print(f"{8 * b + 1}-{8 * b + 8} empties: n {len(xs)}, mean {statistics.mean(xs):+.2f}")


def heldout(path="tools/train/data/heldout-14-20.jsonl"):
    groups = defaultdict(list)
    with open(path) as f:
        for i, line in enumerate(f):
            if i % 3:
                continue
            p = o.parse_obf(json.loads(line)["position"])[0]
            d = shift(p)
            if d is not None:
                groups[p.empty_count].append(d)
    for e in sorted(groups):
        print(f"held out, {e} empties: n {len(groups[e])}, mean {statistics.mean(groups[e]):+.2f}")


if __name__ == "__main__":
    by_moves()
    by_empties()
    heldout()
