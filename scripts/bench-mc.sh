#!/usr/bin/env bash
# Benchmarks `weft mc` against GenMC v0.10.3 (the speed anchor; ../shared/notes/anchors.md)
# on the LB-n and SB-n ring families (scripts/gen-mc-family.sh), in one run, on this
# machine, and prints one row per program: executions explored by each tool, wall time,
# peak RSS, executions per second and the weft/GenMC throughput ratio.
#
#   scripts/bench-mc.sh [--threads T] [--timeout S] lb 12 15 18 [sb 8 ...]
#
# Both tools run under RC11 (weft's native check; GenMC's default model) over rf and co
# (GenMC's default exploration; weft has no --rf mode yet). GenMC is looked up at
# $GENMC or ~/.cache/genmc-0.10.3/bin/genmc (build it once with
# ../shared/anchors/genmc/build.sh); without it only weft's columns are filled.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
threads=0; timeout=600
while [ $# -gt 0 ]; do
  case $1 in
    --threads) threads=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || set -- lb 12 15 18 sb 8 12
weft=$here/target/release/weft
[ -x "$weft" ] || (cd "$here" && cargo build --release -q -p weft)
genmc=${GENMC:-$HOME/.cache/genmc-0.10.3/bin/genmc}
[ -x "$genmc" ] || { echo "note: GenMC not found at $genmc; weft only" >&2; genmc=; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
printf '%-7s %12s %9s %9s %12s | %12s %9s %9s %12s | %7s\n' program weft-execs weft-s weft-MB weft-exec/s genmc-execs genmc-s genmc-MB genmc-exec/s ratio
kind=lb
for a in "$@"; do
  case $a in lb|sb) kind=$a; continue ;; esac
  n=$a
  "$here/scripts/gen-mc-family.sh" "$kind" "$n" "$work" >/dev/null
  /usr/bin/time -f '%e %M' -o "$work/t" timeout "$timeout" "$weft" mc -m rc11 --threads "$threads" \
    --json "$work/$kind-$n.litmus" > "$work/w.json" || true
  read -r ws wkb < "$work/t"
  we=$(grep -o '"explored": [0-9]*' "$work/w.json" | grep -o '[0-9]*$' || echo '?')
  ge='-'; gs='-'; gmb='-'; geps='-'; ratio='-'
  if [ -n "$genmc" ]; then
    /usr/bin/time -f '%e %M' -o "$work/g" timeout "$timeout" "$genmc" -- "$work/$kind-$n.c" > "$work/g.out" 2>&1 || true
    read -r gs gkb < "$work/g"
    ge=$(grep -o 'complete executions explored: [0-9]*' "$work/g.out" | grep -o '[0-9]*$' || echo '?')
    gmb=$((gkb / 1024))
    geps=$(awk -v e="$ge" -v s="$gs" 'BEGIN { if (s > 0 && e ~ /^[0-9]+$/) printf "%.0f", e / s; else print "?" }')
  fi
  weps=$(awk -v e="$we" -v s="$ws" 'BEGIN { if (s > 0 && e ~ /^[0-9]+$/) printf "%.0f", e / s; else print "?" }')
  if [ -n "$genmc" ]; then
    ratio=$(awk -v a="$weps" -v b="$geps" 'BEGIN { if (a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/ && b > 0) printf "%.2f", a / b; else print "?" }')
  fi
  printf '%-7s %12s %9s %9s %12s | %12s %9s %9s %12s | %7s\n' "${kind^^}-$n" "$we" "$ws" "$((wkb / 1024))" "$weps" "$ge" "$gs" "$gmb" "$geps" "$ratio"
done
