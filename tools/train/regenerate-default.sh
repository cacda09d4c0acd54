#!/usr/bin/env bash
# Regenerates the pattern evaluation's default weights (crates/pattern/weights/default.bin) from
# the seeds and budgets recorded below, and prints the SHA-256 of the file it makes.
#
#   tools/train/regenerate-default.sh [--tiny] [--install] [--refine-only PRIOR | --deep-only PRIOR | --second-only PRIOR] [DIR]
#
# DIR (default target/regenerate-default) keeps every intermediate file; each step resumes
# from what DIR holds, so an interrupted run is started again with the same command. --tiny
# runs the same recipe with tiny budgets (about a minute after the build) to check that it
# works end to end. --install copies the result over crates/pattern/weights/default.bin.
# The recipe has four stages: the base (steps 1-6: hand-feature and pattern self-play, exact
# labels, a fit with a search bootstrap of the midgame, the selective search's cut table
# fitted for it), the refinement (steps 7-9: self-play with the base's weights, exact
# labels at 12-18 empties and search labels at 21-60 (the mean of depths 8 and 9, which
# cancels the evaluation's odd/even swing), a warm-started refit of the base that keeps its
# cut table), the deep refinement (steps 10-12: self-play with the refinement's weights,
# selective depth-12 search labels at 21-56 empties (the mean of depths 11 and 12, level 2
# with the refinement's cut table), a warm-started refit of the phases from 21 empties that
# keeps the cut table) and the second deep round (steps 13-15: the same with the deep
# refinement's weights playing and labelling, on a new seed). --refine-only PRIOR runs the
# last three stages on the weights file PRIOR (the default of 2026-12-01, SHA-256
# 9702f2ed..., the file of the commit before the first refinement); --deep-only PRIOR runs
# the last two (on the default of 2026-12-02, SHA-256 3cf55fd4...); --second-only PRIOR runs
# the second deep round alone (on the default of 2026-12-03 11:22 UTC, SHA-256 df2a969d...,
# it makes the shipped default). The full budget is about 10 core-hours on a 2020s x86-64
# core (docs/pattern.md, "How to train"). Same code, same budgets: same file, same hash.
set -euo pipefail
cd "$(dirname "$0")/../.."

tiny=0
install=0
prior=
stage=1  # the first stage run: 1 the base, 2 the refinement, 3 the deep refinement, 4 the second round
while [ $# -gt 0 ]; do
  case "$1" in
    --tiny) tiny=1 ;;
    --install) install=1 ;;
    --refine-only|--deep-only|--second-only)
      [ $# -ge 2 ] || { echo "regenerate-default.sh: $1 needs a weights file" >&2; exit 2; }
      [ -f "$2" ] || { echo "regenerate-default.sh: no weights file $2" >&2; exit 2; }
      case "$1" in --refine-only) stage=2 ;; --deep-only) stage=3 ;; --second-only) stage=4 ;; esac
      prior=$2; shift ;;
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
SEED_REFINE=2028        # the refinement's pattern self-play, four ranges of game numbers
SEED_CUTS=2026          # the cut table's self-play positions
SEED_DEEP=2029          # the deep refinement's pattern self-play, two ranges of game numbers
SEED_DEEP2=2030         # the second deep round's pattern self-play, two ranges of game numbers
if [ "$tiny" = 1 ]; then
  HAND_GAMES=40; PATTERN_GAMES=10; MAX_EMPTIES=10; HELD_OUT_GAMES=2
  BOOT_POSITIONS=40; ITERATIONS=20; PATTERN_DEPTH=2
  REFINE_GAMES=(6 6 4 4); REFINE_DEPTH=2; LABEL_DEPTH=3; CUT_GAMES=4; CUT_DEPTH=5
  DEEP_GAMES=(3 3); DEEP_LABEL_DEPTH=6; DEEP2_GAMES=(3 3)
else
  HAND_GAMES=60000; PATTERN_GAMES=42646; MAX_EMPTIES=18; HELD_OUT_GAMES=200
  BOOT_POSITIONS=12000; ITERATIONS=150; PATTERN_DEPTH=6
  REFINE_GAMES=(20000 20000 6335 6404); REFINE_DEPTH=6; LABEL_DEPTH=9; CUT_GAMES=60; CUT_DEPTH=11
  DEEP_GAMES=(7000 7000); DEEP_LABEL_DEPTH=12; DEEP2_GAMES=(3500 3500)
fi
REFINE_FIRST=(200000 220000 240000 260000)
DEEP_FIRST=(300000 320000)
DEEP2_FIRST=(340000 360000)
FIT=(--model pattern --phases 15 --test-every 10 --ridge 30 --iterations "$ITERATIONS" --margin 1
  --prior-previous --bootstrap-depth 4 --bootstrap-positions "$BOOT_POSITIONS" --seed "$SEED_FIT" --quiet)

cargo build --release -q -p othello-train
B=target/release/othello-train
mkdir -p "$dir"
step() { echo "== $*" >&2; }

if [ "$stage" -le 1 ]; then
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
  --bootstrap-labels "$dir/boot2.jsonl" --out "$dir/fitted.bin" > "$dir/fit.txt"
tail -n 3 "$dir/fit.txt" >&2
step "6. the cut table of selective search for those weights: $CUT_GAMES games, depth $CUT_DEPTH"
$B cuts --weights "$dir/fitted.bin" --out "$dir/base.bin" --samples "$dir/cut-samples.txt" \
  --games "$CUT_GAMES" --seed "$SEED_CUTS" --depth "$CUT_DEPTH" --stride 7 --phases 4 --quiet
prior="$dir/base.bin"
fi

if [ "$stage" -le 2 ]; then
step "7. refinement self-play with $prior: ${REFINE_GAMES[*]} games from ${REFINE_FIRST[*]}, seed $SEED_REFINE"
for i in 0 1 2 3; do
  $B games --out "$dir/refine-games-$i.jsonl" --first "${REFINE_FIRST[$i]}" --games "${REFINE_GAMES[$i]}" \
    --seed "$SEED_REFINE" --depth "$REFINE_DEPTH" --epsilon 0.05 --random-plies 10 --weights "$prior" --quiet
done
cat "$dir/refine-games-2.jsonl" "$dir/refine-games-3.jsonl" > "$dir/refine-games-23.jsonl"
step "8. exact labels at 12-18 empties (13-18 kept), search labels at 21-60: the mean of depths $((LABEL_DEPTH - 1)) and $LABEL_DEPTH"
for i in 0 1 23; do
  $B labels --games "$dir/refine-games-$i.jsonl" --out "$dir/refine-exact-$i.jsonl" \
    --min-empties 12 --max-empties 18 --quiet
done
$B labels --games "$dir/refine-games-23.jsonl" --out "$dir/refine-search.jsonl" --mode search \
  --depth "$LABEL_DEPTH" --mean-of 2 --weights "$prior" --min-empties 21 --max-empties 60 --quiet
step "9. warm-started refit of $prior on both, keeping its cut table"
# From 13 empties: 12 is phase 2's (9-12), which without its labels keeps the prior's weights.
$B fit --model pattern --phases 15 --test-every 10 --min-empties 13 \
  --labels "$dir/refine-exact-0.jsonl" --labels "$dir/refine-exact-1.jsonl" \
  --labels "$dir/refine-exact-23.jsonl" --labels "$dir/refine-search.jsonl" \
  --prior-weights "$prior" --prior-strength 1 --ridge 100 --margin 0 --bootstrap-depth 0 \
  --prior-sections --quiet --out "$dir/refined.bin" > "$dir/refit.txt" 2>&1
tail -n 3 "$dir/refit.txt" >&2
prior="$dir/refined.bin"
fi

# One deep round (steps 10-12 and 13-15): self-play with the weights $prior, selective search
# labels of its positions at 21-56 empties (the mean of depths DEEP_LABEL_DEPTH - 1 and
# DEEP_LABEL_DEPTH, level 2, searched with $prior and its cut table), and a warm-started refit
# of $prior's phases from 21 empties (21-24 to 53-56; 57-60 has no labels and keeps its
# weights) that keeps its cut table. The round's files are DIR/NAME-*; the weights go to OUT.
#   deep_round FIRST_STEP NAME SEED FIRST_0 GAMES_0 FIRST_1 GAMES_1 OUT
deep_round() {
  local n=$1 name=$2 seed=$3 out=$8
  local first=("$4" "$6") games=("$5" "$7")
  step "$n. $name self-play with $prior: ${games[*]} games from ${first[*]}, seed $seed"
  for i in 0 1; do
    $B games --out "$dir/$name-games-$i.jsonl" --first "${first[$i]}" --games "${games[$i]}" \
      --seed "$seed" --depth "$REFINE_DEPTH" --epsilon 0.05 --random-plies 10 --weights "$prior" --quiet
  done
  step "$((n + 1)). its selective search labels at 21-56 empties: the mean of depths $((DEEP_LABEL_DEPTH - 1)) and $DEEP_LABEL_DEPTH, level 2"
  for i in 0 1; do
    $B labels --games "$dir/$name-games-$i.jsonl" --out "$dir/$name-search-$i.jsonl" --mode search \
      --depth "$DEEP_LABEL_DEPTH" --mean-of 2 --selectivity 2 --weights "$prior" --min-empties 21 \
      --max-empties 56 --quiet
  done
  step "$((n + 2)). warm-started refit of $prior from 21 empties, keeping its cut table"
  $B fit --model pattern --phases 15 --test-every 10 --min-empties 21 \
    --labels "$dir/$name-search-0.jsonl" --labels "$dir/$name-search-1.jsonl" \
    --prior-weights "$prior" --prior-strength 1 --ridge 100 --margin 0 --bootstrap-depth 0 \
    --prior-sections --quiet --out "$out" > "$dir/$name-refit.txt" 2>&1
  tail -n 3 "$dir/$name-refit.txt" >&2
  prior=$out
}

if [ "$stage" -le 3 ]; then
  deep_round 10 deep "$SEED_DEEP" "${DEEP_FIRST[0]}" "${DEEP_GAMES[0]}" "${DEEP_FIRST[1]}" \
    "${DEEP_GAMES[1]}" "$dir/deep.bin"
fi
deep_round 13 deep2 "$SEED_DEEP2" "${DEEP2_FIRST[0]}" "${DEEP2_GAMES[0]}" "${DEEP2_FIRST[1]}" \
  "${DEEP2_GAMES[1]}" "$dir/default.bin"
step "16. errors on the frozen held-out files (345 labels of 50 games; one label from each of 3 699 games; engine positions)"
for f in heldout-14-20 heldout-14-20-games heldout-14-20-engine; do
  $B errors --labels "tools/train/data/$f.jsonl" --weights "$dir/default.bin" --bucket 7 | tail -n 2 >&2
done
if [ "$install" = 1 ]; then
  cp "$dir/default.bin" crates/pattern/weights/default.bin
  echo "installed as crates/pattern/weights/default.bin" >&2
fi
sha256sum "$dir/default.bin"
