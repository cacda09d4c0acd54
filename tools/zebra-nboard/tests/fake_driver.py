#!/usr/bin/env python3
"""A stand-in for the Zebra driver in the adapter's tests: same line protocol, no search.

It answers the first legal move in a1..h8 order with score 1.25 and 100 nodes (kind `forced`
when it is the only one, else `exact` when at most EXACTDEPTH squares are empty, else `mid`),
`ok` to `new`, and appends every line it reads to the file named by
FAKE_DRIVER_LOG. Its move generation is written apart from the adapter's, so that the tests
compare two implementations."""

import os
import sys


def first_move(board, side):
    other = "O" if side == "X" else "X"
    found = []
    for sq in range(64):
        if board[sq] != "-":
            continue
        r0, c0 = divmod(sq, 8)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if dr == dc == 0:
                    continue
                r, c, seen = r0 + dr, c0 + dc, 0
                while 0 <= r < 8 and 0 <= c < 8 and board[8 * r + c] == other:
                    r, c, seen = r + dr, c + dc, seen + 1
                if seen and 0 <= r < 8 and 0 <= c < 8 and board[8 * r + c] == side:
                    found.append(sq)
    found = sorted(set(found))
    return found


log = os.environ.get("FAKE_DRIVER_LOG")
for line in sys.stdin:
    line = line.strip()
    if log:
        with open(log, "a") as f:
            f.write(line + "\n")
    if line == "quit":
        break
    if line == "new":
        print("ok", flush=True)
        continue
    parts = line.split()
    if len(parts) != 4 or len(parts[0]) != 64 or parts[1] not in ("X", "O"):
        print("error bad line", flush=True)
        continue
    moves = first_move(parts[0], parts[1])
    if not moves:
        print("PA 0.00 0 pass", flush=True)
        continue
    sq = moves[0]
    if len(moves) == 1:
        kind = "forced"
    elif parts[0].count("-") <= int(parts[3]):
        kind = "exact"
    else:
        kind = "mid"
    print(f"{'abcdefgh'[sq % 8]}{sq // 8 + 1} 1.25 100 {kind}", flush=True)
