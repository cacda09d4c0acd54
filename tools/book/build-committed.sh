#!/usr/bin/env bash
# Rebuilds the committed opening book, crates/book/data/opening.bin (docs/book.md, "The
# committed book"), from nothing but the `othello` binary: every search is single-threaded,
# depth-limited and made with a fresh table, and the builds run in a fixed order, so the file
# is the same byte for byte on every machine.
#
#   tools/book/build-committed.sh [--tiny] [OTHELLO_BINARY] [OUTPUT]
#
# `--tiny` runs every step at a toy size (depth-4 leaves, 200 start entries, the first 3 roots)
# in a few seconds, to check the script end to end.
#
# Two parts, their union (`othello book merge`), the union's leaves near its best lines
# searched again deeper (`othello book deepen`), then the lines from the 4-ply openings
# extended and deepened again:
#   1. from the start: every position within 2 discs of the best line up to 10 moves (the plan
#      ends there), then the same window up to 14 moves, breadth first, until the book holds
#      2400 entries;
#   2. from each of the 61 built-in 4-ply openings of `othello play` (tools/book/roots-4ply.txt,
#      the order of `openings::builtin`), the positions within 2 discs up to 4, then 5 moves
#      further, so that a match from those openings stays in the book for its next moves;
#   3. the leaves within 1 disc of the best lines, from those 61 openings to 5 moves further and
#      from the start to 14 moves, searched again at depth 26 (25 on odd empties), walking again
#      until no leaf in that window is left (docs/book.md, "Deepening");
#   4. from each of the 61 openings, the positions within 1 disc (of the deepened values) up to
#      6, then 7 moves further, so that the book reaches two moves deeper on the lines a match
#      from those openings plays;
#   5. the leaves within 1 disc from those openings to 7 moves further searched again at depth
#      26, as in step 3.
# Leaves are searched by the default engine at depth 22 (21 on odd empties: docs/book.md), at
# selectivity `0@6` and with the iterations skipping depths (`skipdepths=on`; both pinned, so
# that a later default leaves the file as it is: the selectivity is part of the question, and
# skipping depths changes the windows of the iterations, and so a few selective leaf values).
# The engine's default weights (and their cut table) are not pinned: new default weights
# give a new book. Each part searches on $THREADS threads (2 by
# default; the file is the same for any number: docs/book.md), side by side, so that the part
# left running when the other ends has every core.
# Cost on an AMD EPYC Zen 3 (2 cores, 2026-12-06, both parts on two threads, other work on
# the same cores for 49 minutes): 105 minutes of wall time, 9420 s of CPU for parts 1 and 2;
# part 1 is the long pole. Part 3 took 5 minutes, parts 4 and 5 16 minutes on two threads
# (AMD EPYC Zen 4, 2026-12-07; docs/book.md).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
engine="pvs:depth=22,selectivity=0@6,skipdepths=on" cap=2400 roots=61
deep="pvs:depth=26,selectivity=0@6,skipdepths=on"
threads="${THREADS:-2}"
if [ "${1:-}" = "--tiny" ]; then
    engine="pvs:depth=4,selectivity=3" cap=200 roots=3
    deep="pvs:depth=6,selectivity=3"
    shift
fi
bin="${1:-target/release/othello}"
out="${2:-crates/book/data/opening.bin}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

(
    "$bin" book build --depth 10 --deviation 2 --engine "$engine" -o "$work/start.bin" -q \
        --threads "$threads"
    "$bin" book build --depth 14 --deviation 2 --max-positions "$cap" --engine "$engine" \
        --book "$work/start.bin" -q --threads "$threads"
) &
start_pid=$!

for depth in 4 5; do
    while read -r line; do
        [ -z "$line" ] && continue
        if [ -f "$work/roots.bin" ]; then
            "$bin" book build --moves "$line" --depth "$depth" --deviation 2 --engine "$engine" \
                --book "$work/roots.bin" -q --threads "$threads"
        else
            "$bin" book build --moves "$line" --depth "$depth" --deviation 2 --engine "$engine" \
                -o "$work/roots.bin" -q --threads "$threads"
        fi
    done < <(head -n "$roots" "$here/roots-4ply.txt")
done
wait "$start_pid"

"$bin" book merge "$work/start.bin" "$work/roots.bin" -o "$out"
head -n "$roots" "$here/roots-4ply.txt" > "$work/roots.txt"
"$bin" book deepen --book "$out" --roots "$work/roots.txt" --depth 5 --window 1 --engine "$deep" \
    -q --threads "$threads"
"$bin" book deepen --book "$out" --depth 14 --window 1 --engine "$deep" -q --threads "$threads"
for depth in 6 7; do
    while read -r line; do
        [ -z "$line" ] && continue
        "$bin" book build --moves "$line" --depth "$depth" --deviation 1 --engine "$engine" \
            --book "$out" -q --threads "$threads"
    done < "$work/roots.txt"
done
"$bin" book deepen --book "$out" --roots "$work/roots.txt" --depth 7 --window 1 --engine "$deep" \
    -q --threads "$threads"
"$bin" book stats "$out"
sha256sum "$out"
