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
# Wall time and CPU time (user + system) are both printed; executions per second and the
# ratio use CPU time, which is what a shared, loaded machine can measure fairly (the wall
# ratio is printed too).
printf '%-7s %10s %8s %8s %7s %11s | %10s %8s %8s %7s %11s | %9s %9s\n' program weft-execs wall-s cpu-s MB exec/cpu-s genmc-execs wall-s cpu-s MB exec/cpu-s ratio-cpu ratio-wall
kind=lb
for a in "$@"; do
  case $a in lb|sb) kind=$a; continue ;; esac
  n=$a
  "$here/scripts/gen-mc-family.sh" "$kind" "$n" "$work" >/dev/null
  /usr/bin/time -f '%e %U %S %M' -o "$work/t" timeout "$timeout" "$weft" mc -m rc11 --threads "$threads" \
    --json "$work/$kind-$n.litmus" > "$work/w.json" || true
  read -r ws wu wsy wkb < <(tail -n 1 "$work/t"); wc=$(awk -v a="$wu" -v b="$wsy" 'BEGIN { printf "%.2f", a + b }')
  we=$(grep -o '"explored": [0-9]*' "$work/w.json" | grep -o '[0-9]*$' || echo '?')
  ge='-'; gs='-'; gc='-'; gmb='-'; geps='-'; ratio='-'; ratiow='-'
  if [ -n "$genmc" ]; then
    /usr/bin/time -f '%e %U %S %M' -o "$work/g" timeout "$timeout" "$genmc" -- "$work/$kind-$n.c" > "$work/g.out" 2>&1 || true
    # (a killed or timed-out run leaves a "Command terminated" line before the figures)
    read -r gs gu gsy gkb < <(tail -n 1 "$work/g"); gc=$(awk -v a="$gu" -v b="$gsy" 'BEGIN { printf "%.2f", a + b }')
    ge=$(grep -o 'complete executions explored: [0-9]*' "$work/g.out" | grep -o '[0-9]*$' || echo 'timeout')
    gmb=$((gkb / 1024))
    geps=$(awk -v e="$ge" -v s="$gc" 'BEGIN { if (s > 0 && e ~ /^[0-9]+$/) printf "%.0f", e / s; else print "?" }')
  fi
  weps=$(awk -v e="$we" -v s="$wc" 'BEGIN { if (s > 0 && e ~ /^[0-9]+$/) printf "%.0f", e / s; else print "?" }')
  if [ -n "$genmc" ]; then
    ratio=$(awk -v a="$weps" -v b="$geps" 'BEGIN { if (a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/ && b > 0) printf "%.2f", a / b; else print "?" }')
    ratiow=$(awk -v we="$we" -v ws="$ws" -v ge="$ge" -v gs="$gs" 'BEGIN { if (ws > 0 && gs > 0 && ge > 0) printf "%.2f", (we / ws) / (ge / gs); else print "?" }')
  fi
  printf '%-7s %10s %8s %8s %7s %11s | %10s %8s %8s %7s %11s | %9s %9s\n' "${kind^^}-$n" "$we" "$ws" "$wc" "$((wkb / 1024))" "$weps" "$ge" "$gs" "$gc" "$gmb" "$geps" "$ratio" "$ratiow"
done
