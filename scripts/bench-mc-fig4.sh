#!/usr/bin/env bash
# Paper 004 Fig. 4 (and its appendix tables): time and peak RSS of `weft mc` to the first
# error as the grid grows, for
#   sb N     SB-N with the all-zero outcome forbidden (scripts/gen-mc-family.sh sbe), RC11;
#            the error is the assertion (the litmus `~exists`);
#   conv N   1D convolution tests/mc/bench/conv1d.cu at --grid N --block 4 (N CTAs); the error
#            is the heterogeneous race;
#   gcon N   graph connectivity tests/mc/bench/gcon.cu with N threads (--grid ceil(N/2)
#            --block 2, --block 1 for N = 1); the heterogeneous race.
# Each run: release `weft mc --stop-on-first --threads T --json` under `/usr/bin/time -v`;
# prints one row: family, size, GPU threads, verdict, executions, blocked, graphs, the
# checker's own seconds and peak RSS (from its JSON report), and the wall time, CPU time
# (user + system) and peak RSS that /usr/bin/time measured for the whole process tree (which, for the kernels, includes
# the clang front-end compiling the .cu: ~70-100 MB).
#
#   scripts/bench-mc-fig4.sh [--threads T] [--timeout S] sb 2 5 10 conv 1 5 10 gcon 1 10 20
#
# Without arguments: every 5th size (every 10th for GCON) and both ends of each of the
# paper's ranges (SB 2-25, 1dconv 1-30 CTAs, GCON 1-50 threads). GCON runs blocks of 2
# threads (its Table 2 grids), so an odd N runs N + 1 threads.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
threads=1; timeout=300
while [ $# -gt 0 ]; do
  case $1 in
    --threads) threads=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || set -- sb 2 5 10 15 20 25 conv 1 5 10 15 20 25 30 gcon 1 2 10 20 30 40 50
weft=${WEFT:-$here/target/release/weft}
[ -x "$weft" ] || (cd "$here" && cargo build --release -q -p weft)
bench=$here/tests/mc/bench
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-); weft --threads $threads"
printf '%-5s %4s %7s %-12s %10s %9s %9s %8s %8s %8s %8s %8s\n' fam size threads verdict executions blocked graphs check-s weft-MB wall-s cpu-s tree-MB
fam=sb
for a in "$@"; do
  case $a in sb|conv|gcon) fam=$a; continue ;; esac
  n=$a
  case $fam in
    sb)
      "$here/scripts/gen-mc-family.sh" sbe "$n" "$work" >/dev/null
      cmd=("$weft" mc "$work/sbe-$n.litmus" -m rc11); gt=$n ;;
    conv)
      cmd=("$weft" mc "$bench/conv1d.cu" --grid "$n" --block 4 --buffer 0=128:iota --buffer 1=3:1 --buffer 2=128); gt=$((n * 4)) ;;
    gcon)
      if [ "$n" -eq 1 ]; then g=1; b=1; else g=$(((n + 1) / 2)); b=2; fi
      cmd=("$weft" mc "$bench/gcon.cu" --grid "$g" --block "$b" --buffer 0=64:iota --buffer 1=1); gt=$((g * b)) ;;
  esac
  /usr/bin/time -v -o "$work/t" timeout "$timeout" "${cmd[@]}" --stop-on-first --threads "$threads" --json > "$work/out" 2>/dev/null || true
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.2f", s }' "$work/t")
  cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$work/t")
  mb=$(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$work/t")
  read -r verdict execs blocked graphs secs rss < <(python3 - "$work/out" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print("killed - - - - -"); sys.exit()
e = d.get("executions")
if isinstance(e, dict):  # litmus report
    execs, blocked, graphs = e.get("explored"), e.get("blocked"), e.get("graphs")
else:  # kernel report
    execs, blocked, graphs = d.get("complete"), d.get("blocked"), d.get("graphs")
kinds = sorted({x.get("kind", "?") for x in d.get("errors") or []})
verdict = ",".join(kinds) if kinds else "none"
if d.get("stopped") not in (None, "first_error"):
    verdict += "(" + str(d["stopped"]) + ")"
print(verdict, execs, blocked, graphs, "%.2f" % d.get("seconds", 0), "%.1f" % (d.get("peak_rss_bytes", 0) / 2**20))
PY
)
  printf '%-5s %4s %7s %-12s %10s %9s %9s %8s %8s %8s %8s %8s\n' "$fam" "$n" "$gt" "$verdict" "$execs" "$blocked" "$graphs" "$secs" "$rss" "$wall" "$cpu" "$mb"
done
