#!/usr/bin/env bash
# Fails (exit 1, listing the lines) when the docs, the changelog or a source comment label a
# figure or an experiment by a period of work (an ordinal or "this" before the word session,
# "the start of the session", "5th-session") instead of its date. Such labels mean nothing to
# a reader who arrives later: a figure carries its date and CPU, history goes in CHANGELOG.md
# or docs/history/.
#
# Usage: bash tools/check-docs.sh   (from anywhere inside the repository)
set -euo pipefail
cd "$(dirname "$0")/.."

paths=(README.md CHANGELOG.md docs crates tools benches fuzz .ci)
files=()
while IFS= read -r -d '' f; do
  files+=("$f")
done < <(find "${paths[@]}" -type f \
  \( -name '*.md' -o -name '*.rs' -o -name '*.py' -o -name '*.sh' -o -name '*.toml' \
     -o -name 'run' -o -name '*.txt' \) \
  -not -path '*/target/*' -not -path '*/.venv/*' -not -path '*/corpus/*' -not -path tools/check-docs.sh -print0)

# A period of work: an ordinal or a pointing word before "session"/"sitting" (eighth, 5th,
# this, that, last, next, later... then the word, possibly hyphenated), "session N", and
# "the start of (the) session". The NBoard protocol's sessions ("an NBoard session", "each
# session starts a reader thread", "the end of the session") are not caught: no ordinal or
# pointing word precedes them. This script's own examples are not scanned.
ordinal='first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|[0-9]+(st|nd|rd|th)'
pointing='last|next|previous|this|that|earlier|later|current|same|another'
pattern="\\b(${ordinal}|${pointing})[- ](session|sitting)s?\\b"
pattern+="|\\b(session|sitting)s? [0-9]+\\b"
pattern+="|\\b(start|beginning) of (the |this |a )?(session|sitting)\\b"
pattern+="|\\bstart-of-session\\b"
pattern+="|\\b(${ordinal}|${pointing}) and (${ordinal}|${pointing}) (sessions|sittings)\\b"

status=0
if hits=$(grep -nHiE "$pattern" "${files[@]}"); then
  echo "$hits"
  status=1
fi

# The same labels broken across two lines (of prose or of a comment): join each line with the
# next, dropping the comment markers, and look again.
split=$(perl -ne '
  BEGIN { $re = qr/'"$pattern"'/i }
  s/\r?\n$//;
  (my $text = $_) =~ s{^\s*(//[/!]?|#|\*)\s?}{};
  if (defined $prev) {
    my $joined = "$prev $text";
    if ($joined =~ $re && $prev !~ $re && $text !~ $re) {
      print "$ARGV:", $. - 1, "-$.: $joined\n";
    }
  }
  $prev = $text;
  if (eof) { undef $prev; close ARGV }
' "${files[@]}")
if [ -n "$split" ]; then
  echo "$split"
  status=1
fi

if [ "$status" -ne 0 ]; then
  echo "check-docs: the lines above label work by a period (session) instead of a date;" \
    "state the date (and the CPU for a figure), or move history to CHANGELOG.md or docs/history/" >&2
fi
exit "$status"
