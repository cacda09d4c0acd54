#!/usr/bin/env bash
# Regenerates the pattern evaluation's default weights (crates/pattern/weights/default.bin) from
# the seeds and budgets recorded below, and prints the SHA-256 of the file it makes.
#
#   tools/train/regenerate-default.sh [--tiny] [--install] [DIR]
#
# DIR (default target/regenerate-default) keeps every intermediate file; each step resumes
# from what DIR holds, so an interrupted run is started again with the same command. --tiny
# runs the same recipe with tiny budgets (about a minute after the build) to check that it
# works end to end. --install copies the result over crates/pattern/weights/default.bin.
# The full budget is about 4 core-hours on a 2020s x86-64 core (docs/pattern.md, "How to
# train"). Same code, same budgets: same file, same hash.
set -euo pipefail
cd "$(dirname "$0")/../.."

tiny=0
install=0
while [ $# -gt 0 ]; do
  case "$1" in
    --tiny) tiny=1 ;;
    --install) install=1 ;;
    -*) echo "regenerate-default.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
dir=${1:-target/regenerate-default}

# The recipe. Seeds are fixed; budgets are the default's (docs/pattern.md).
SEED_HAND=2026          # hand-feature self-play, games 0..HAND_GAMES
SEED_PATTERN=2027       # pattern self-play with the first fit's weights, games from 100000
SEED_FIT=2026           # the bootstraps' choice of positions
if [ "$tiny" = 1 ]; then
  HAND_GAMES=40; PATTERN_GAMES=10; MAX_EMPTIES=10; HELD_OUT_GAMES=2
  BOOT_POSITIONS=40; ITERATIONS=20; PATTERN_DEPTH=2
else
  HAND_GAMES=60000; PATTERN_GAMES=42646; MAX_EMPTIES=18; HELD_OUT_GAMES=200
  BOOT_POSITIONS=12000; ITERATIONS=150; PATTERN_DEPTH=6
fi
FIT=(--model pattern --phases 15 --test-every 10 --ridge 30 --iterations "$ITERATIONS" --margin 1
  --prior-previous --bootstrap-depth 4 --bootstrap-positions "$BOOT_POSITIONS" --seed "$SEED_FIT" --quiet)

cargo build --release -q -p othello-train
B=target/release/othello-train
mkdir -p "$dir"
step() { echo "== $*" >&2; }

step "1. hand-feature self-play: $HAND_GAMES games, seed $SEED_HAND"
$B games --out "$dir/hand-games.jsonl" --games "$HAND_GAMES" --seed "$SEED_HAND" --quiet
step "2. exact labels, 1-$MAX_EMPTIES empties; 19-20 for $HELD_OUT_GAMES held-out games"
$B labels --games "$dir/hand-games.jsonl" --out "$dir/labels.jsonl" --min-empties 1 \
  --max-empties "$MAX_EMPTIES" --quiet
$B labels --games "$dir/hand-games.jsonl" --out "$dir/labels.jsonl" --min-empties $((MAX_EMPTIES + 1)) \
  --max-empties $((MAX_EMPTIES + 2)) --every 10 --max-games "$HELD_OUT_GAMES" --quiet
step "3. first fit (its weights play the pattern self-play)"
$B fit "${FIT[@]}" --labels "$dir/labels.jsonl" --games "$dir/hand-games.jsonl" \
  --bootstrap-labels "$dir/boot1.jsonl" --out "$dir/first.bin" > "$dir/first.txt"
step "4. pattern self-play: $PATTERN_GAMES games at depth $PATTERN_DEPTH, seed $SEED_PATTERN"
$B games --out "$dir/pattern-games.jsonl" --first 100000 --games "$PATTERN_GAMES" --seed "$SEED_PATTERN" \
  --depth "$PATTERN_DEPTH" --epsilon 0.05 --random-plies 10 --weights "$dir/first.bin" --quiet
$B labels --games "$dir/pattern-games.jsonl" --out "$dir/pattern-labels.jsonl" --min-empties 1 \
  --max-empties "$MAX_EMPTIES" --quiet
step "5. final fit on both"
$B fit "${FIT[@]}" --labels "$dir/labels.jsonl" --labels "$dir/pattern-labels.jsonl" \
  --games "$dir/hand-games.jsonl" --games "$dir/pattern-games.jsonl" \
  --bootstrap-labels "$dir/boot2.jsonl" --out "$dir/default.bin" > "$dir/fit.txt"
tail -n 3 "$dir/fit.txt" >&2
step "6. errors on the frozen held-out file"
$B errors --labels tools/train/data/heldout-14-20.jsonl --weights "$dir/default.bin" --bucket 7 | tail -n 2 >&2
if [ "$install" = 1 ]; then
  cp "$dir/default.bin" crates/pattern/weights/default.bin
  echo "installed as crates/pattern/weights/default.bin" >&2
fi
sha256sum "$dir/default.bin"
