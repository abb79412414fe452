#!/usr/bin/env bash
# Checks that every benchmark kernel of tests/mc/bench compiles, lowers and runs on weft's
# SIMT emulator (`weft ptx`, `weft run-kernel` with the .expect's `args:`), and runs the
# dynamic race detector (`weft race`) beside it. Prints one row per kernel:
#   file  expected  ptx  run-kernel(exit)  race(races found)
# Usage: tests/mc/bench/check-run.sh [path/to/weft]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
weft=${1:-$here/../../../target/debug/weft}
printf '%-34s %-12s %-4s %-10s %s\n' file expected ptx run race
for k in "$here"/*.cu "$here"/opencl/*.cl; do
  e=${k%.*}.expect
  [ -f "$e" ] || continue
  res=$(sed -n 's/^result: *//p' "$e")
  read -r -a args <<<"$(sed -n 's/^args: *//p' "$e")"
  timeout 60 "$weft" ptx "$k" >/dev/null 2>&1; p=$?
  timeout 60 "$weft" run-kernel "$k" "${args[@]}" --max-steps 2000000 >/dev/null 2>"/tmp/ck.$$"; r=$?
  rc=$(timeout 60 "$weft" race "$k" "${args[@]}" 2>/dev/null | sed -n 's/^\([0-9]*\) races\{0,1\},.*/\1/p')
  printf '%-34s %-12s %-4s %-10s %s\n' "${k#"$here"/}" "$res" "$p" "$r" "${rc:-?}"
done
rm -f "/tmp/ck.$$"
