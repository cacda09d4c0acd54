"""A slow, obviously correct pure-Python rules reference for the tests."""

from __future__ import annotations

import random
from typing import List, Tuple

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(player: int, opponent: int, index: int, n: int = 8) -> int:
    """Discs flipped by a disc of `player` on square `index` of an n x n board (bit 8*row+col)."""
    if (player | opponent) >> index & 1:
        return 0
    row, col = divmod(index, 8)
    out = 0
    for dr, dc in DIRECTIONS:
        r, c, line = row + dr, col + dc, 0
        while 0 <= r < n and 0 <= c < n and opponent >> (8 * r + c) & 1:
            line |= 1 << (8 * r + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < n and 0 <= c < n and player >> (8 * r + c) & 1:
            out |= line
    return out


def legal_moves(player: int, opponent: int, n: int = 8) -> int:
    mask = 0
    for row in range(n):
        for col in range(n):
            i = 8 * row + col
            if flips(player, opponent, i, n):
                mask |= 1 << i
    return mask


def random_positions(games: int, seed: int) -> List[Tuple[int, int]]:
    """Side-relative (player, opponent) pairs met in `games` random 8x8 games (passes included)."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        p, o = (1 << 28) | (1 << 35), (1 << 27) | (1 << 36)
        while True:
            out.append((p, o))
            moves = legal_moves(p, o)
            if not moves:
                if not legal_moves(o, p):
                    break
                p, o = o, p
                continue
            squares = [i for i in range(64) if moves >> i & 1]
            sq = rng.choice(squares)
            f = flips(p, o, sq)
            p, o = o ^ f, p | f | (1 << sq)
    return out


def reference_perft(player: int, opponent: int, depth: int, n: int = 8) -> int:
    """Move sequences of `depth` plies, a pass being a ply and a finished game counting once."""
    if depth == 0:
        return 1
    moves = legal_moves(player, opponent, n)
    if not moves:
        if not legal_moves(opponent, player, n):
            return 1
        return reference_perft(opponent, player, depth - 1, n)
    total = 0
    for sq in range(64):
        if moves >> sq & 1:
            f = flips(player, opponent, sq, n)
            total += reference_perft(opponent ^ f, player | f | (1 << sq), depth - 1, n)
    return total
