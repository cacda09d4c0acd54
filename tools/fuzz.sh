#!/usr/bin/env bash
# Runs one cargo-fuzz target for a given time, niced, and prints the figures docs/fuzzing.md
# records: target, seconds, executions, corpus size.
# usage: tools/fuzz.sh TARGET SECONDS   (targets: board obf moves spec eval ggf nboard)
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
target=${1:?usage: tools/fuzz.sh TARGET SECONDS}
seconds=${2:?usage: tools/fuzz.sh TARGET SECONDS}
mkdir -p logs "corpus/$target"
log="logs/$target.log"
# -timeout: an input that takes 10 s is a finding (a hang); -rss_limit_mb: so is 2 GiB of memory.
extra=()
# The NBoard session joins a reader thread; LeakSanitizer reports glibc's record of that
# thread's thread-local destructors (__cxa_thread_atexit_impl, 32 bytes) as a leak: a known
# false positive of leak checking with threads, so leak checking is off for this target only.
[ "$target" = nboard ] && extra+=(-detect_leaks=0)
nice -n 10 cargo +nightly fuzz run -O "$target" -- \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "${extra[@]}" >"$log" 2>&1 || {
  echo "$target: FINDING or failure, see fuzz/$log and fuzz/artifacts/$target/"
  tail -n 30 "$log"
  exit 1
}
execs=$(grep -oE '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo '?')
corpus=$(find "corpus/$target" -type f | wc -l)
echo "$target: ${seconds} s, ${execs} executions, corpus ${corpus} files, no finding"
