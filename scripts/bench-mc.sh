#!/usr/bin/env bash
# Benchmarks `weft mc` against GenMC v0.10.3 (the speed anchor; ../shared/notes/anchors.md)
# on the LB-n and SB-n ring families (scripts/gen-mc-family.sh), in ONE run on this machine,
# and prints one row per (program, weft worker threads): executions explored by each tool,
# wall time, CPU time (user + system), peak RSS, executions per wall second and per CPU
# second, and the weft/GenMC throughput ratios.
#
#   scripts/bench-mc.sh [--threads "1 2"] [--timeout S] lb 12 15 18 [sb 8 ...] [sbe 2 3 ...]
#
# --threads takes a list of weft worker-thread counts (default "1 2": one core, both
# cores); GenMC (single-threaded) runs once per program and each weft row is compared
# with it. `sbe N` is SB-N with the all-zero outcome forbidden (paper 004 Fig. 4): both
# tools stop at the first error (weft --stop-on-first; GenMC stops at its first error by
# default), so the time and memory are to the first error.
# Both tools run under RC11 (weft's native check; GenMC's default model) over rf and co
# (GenMC's default exploration; weft's default mode). GenMC is looked up at $GENMC or
# ~/.cache/genmc-0.10.3/bin/genmc (build it once with ../shared/anchors/genmc/build.sh);
# without it only weft's columns are filled.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
threads="1 2"; timeout=600
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
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
printf '%-7s %3s %10s %8s %8s %7s %10s %10s | %10s %8s %8s %7s %10s %10s | %9s %9s\n' program thr weft-execs wall-s cpu-s MB exec/wall exec/cpu genmc-execs wall-s cpu-s MB exec/wall exec/cpu ratio-wall ratio-cpu
rate() { awk -v e="$1" -v s="$2" 'BEGIN { if (s > 0 && e ~ /^[0-9]+$/) printf "%.0f", e / s; else print "?" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/ && b > 0) printf "%.2f", a / b; else print "-" }'; }
kind=lb
for a in "$@"; do
  case $a in lb|sb|sbe) kind=$a; continue ;; esac
  n=$a
  "$here/scripts/gen-mc-family.sh" "$kind" "$n" "$work" >/dev/null
  extra=()
  if [ "$kind" = sbe ]; then
    extra=(--stop-on-first)
    # GenMC's program gets the litmus condition as an assertion in main (after the joins):
    # not every r is 0. GenMC stops at the first violated assertion.
    sed -i -e 's/^  (void)r;/  rs[i] = r;/' -e 's/^atomic_int x\[N\];/atomic_int x[N];\nint rs[N];/' \
      -e 's/^#include <stdint.h>/#include <stdint.h>\n#include <assert.h>/' \
      -e 's/^  for (int i = 0; i < N; i++) pthread_join(t\[i\], 0);/&\n  int all0 = 1;\n  for (int i = 0; i < N; i++) all0 \&= rs[i] == 0;\n  assert(!all0);/' "$work/$kind-$n.c"
  fi
  ge='-'; gs='-'; gc='-'; gmb='-'; gew='-'; gec='-'
  if [ -n "$genmc" ]; then
    /usr/bin/time -f '%e %U %S %M' -o "$work/g" timeout "$timeout" "$genmc" -- "$work/$kind-$n.c" > "$work/g.out" 2>&1 || true
    # (a killed or timed-out run leaves a "Command terminated" line before the figures)
    read -r gs gu gsy gkb < <(tail -n 1 "$work/g"); gc=$(awk -v a="$gu" -v b="$gsy" 'BEGIN { printf "%.2f", a + b }')
    ge=$(grep -o 'complete executions explored: [0-9]*' "$work/g.out" | grep -o '[0-9]*$' || true)
    [ -n "$ge" ] || ge=$(grep -qi 'error' "$work/g.out" && echo 'error' || echo 'timeout')
    gmb=$((gkb / 1024)); gew=$(rate "$ge" "$gs"); gec=$(rate "$ge" "$gc")
  fi
  for t in $threads; do
    /usr/bin/time -f '%e %U %S %M' -o "$work/t" timeout "$timeout" "$weft" mc -m rc11 --threads "$t" \
      "${extra[@]}" --json "$work/$kind-$n.litmus" > "$work/w.json" || true
    read -r ws wu wsy wkb < <(tail -n 1 "$work/t"); wc=$(awk -v a="$wu" -v b="$wsy" 'BEGIN { printf "%.2f", a + b }')
    we=$(grep -o '"explored": [0-9]*' "$work/w.json" | grep -o '[0-9]*$' || echo '?')
    wew=$(rate "$we" "$ws"); wec=$(rate "$we" "$wc")
    printf '%-7s %3s %10s %8s %8s %7s %10s %10s | %10s %8s %8s %7s %10s %10s | %9s %9s\n' "${kind^^}-$n" "$t" "$we" "$ws" "$wc" "$((wkb / 1024))" "$wew" "$wec" \
      "$ge" "$gs" "$gc" "$gmb" "$gew" "$gec" "$(ratio "$wew" "$gew")" "$(ratio "$wec" "$gec")"
  done
done
