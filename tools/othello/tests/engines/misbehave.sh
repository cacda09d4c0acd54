#!/bin/sh
# A misbehaving NBoard engine for the match tests. $1 picks how it fails when asked to move:
# crash (exits), hang (sleeps, as one process: exec), illegal (a corner that is never legal in
# the first moves), pass (passes while it has a move), garbage (an unreadable answer),
# chatter (prints lines forever but never answers), binary (answers bytes that are not UTF-8),
# record (appends every line it receives to the file $2, then exits when asked to move).
# mute never answers anything, not even a ping.
mode="$1"
[ "$mode" = mute ] && exec sleep 986
while read -r cmd arg rest; do
  [ "$mode" = record ] && printf '%s %s %s\n' "$cmd" "$arg" "$rest" >>"$2"
  case "$cmd" in
    nboard) echo "set myname bad-$mode" ;;
    ping) echo "pong $arg" ;;
    go)
      case "$mode" in
        crash) exit 3 ;;
        hang) exec sleep 987 ;;
        illegal) echo "=== A1/0.0/0.1" ;;
        pass) echo "=== PA" ;;
        garbage) echo "=== banana" ;;
        chatter) while :; do echo "status thinking"; done ;;
        binary) printf 'status \377\376\n=== F5\n' ;;
        record) exit 0 ;;
      esac
      ;;
  esac
done
