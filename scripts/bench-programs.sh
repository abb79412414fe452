#!/usr/bin/env bash
# Whole-program speed (issue 26; docs/perf.md, "Whole programs"): a benchmark, not a test.
#  1. matmul 128x128x128 (one launch, 256 blocks of 8x8) as a whole program under `weft exec`
#     beside `weft run-kernel` on the same launch (same grid, block, buffer sizes, scalars);
#  2. the graph program (tests/programs/runtime/graph_bfs.cu) on graph_200_1000.txt
#     (200 nodes, 1,000 edges) with 256x4 threads: exec, race, memcheck;
#  3. `weft race` vs `weft exec` on whole programs of tests/programs (their labelled args).
# Usage: scripts/bench-programs.sh [WEFT] [RUNS]  (default target/release/weft, 3 runs).
# Prints one line per command: the wall times of the runs (seconds) and the load average.
set -euo pipefail
cd "$(dirname "$0")/.."
WEFT=${1:-target/release/weft}
RUNS=${2:-3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

times() { # LABEL CMD...: RUNS wall times, output discarded
  local label=$1
  shift
  local out=""
  for _ in $(seq "$RUNS"); do
    local s e
    s=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    e=$(date +%s.%N)
    out="$out $(echo "$e - $s" | bc | awk '{printf "%.3f", $1}')"
  done
  printf '%-58s %s   (load %s)\n' "$label" "$out" "$(cut -d' ' -f1-3 /proc/loadavg)"
}

echo "weft: $WEFT; $(nproc) cores; runs: $RUNS"
"$WEFT" cc -O2 -o "$T/matmul" tests/programs/matmul/matmul.cu
"$WEFT" cc -O2 -o "$T/bfs" tests/programs/runtime/graph_bfs.cu
"$WEFT" cc -O2 -o "$T/reduce" tests/programs/reduce/reduce.cu
"$WEFT" cc -O2 -o "$T/histogram" tests/programs/histogram/histogram.cu
"$WEFT" cc -O2 -o "$T/pagerank" tests/programs/pagerank/pagerank.cu

echo "## 1. one launch: whole program vs run-kernel (matmul 128^3, grid 16x16, block 8x8)"
times "weft exec ./matmul 128 128 128" "$WEFT" exec -- "$T/matmul" 128 128 128
times "weft run-kernel matmul.cu (same launch)" "$WEFT" run-kernel tests/programs/matmul/matmul.cu \
  --grid 16,16 --block 8,8 --buffer A=16384xf32:rand:1:5 --buffer B=16384xf32:rand:2:7 \
  --buffer C=16384xf32 --arg M=128 --arg N=128 --arg K=128
times "./matmul 128 128 128 (no weft command around it)" "$T/matmul" 128 128 128

echo "## 2. graph program: 200 nodes, 1,000 edges, 256x4 threads"
G=tests/programs/runtime/graph_200_1000.txt
times "weft exec ./bfs graph_200_1000.txt 256 4" "$WEFT" exec -- "$T/bfs" "$G" 256 4
times "weft race -- ./bfs graph_200_1000.txt 256 4" "$WEFT" race -- "$T/bfs" "$G" 256 4
times "weft memcheck --initcheck -- ./bfs ... 256 4" "$WEFT" memcheck --initcheck -- "$T/bfs" "$G" 256 4

echo "## 3. race vs exec on whole programs"
for p in "matmul 64 64 64" "reduce tests/programs/inputs/ints_1000.txt" \
  "histogram tests/programs/inputs/hist_1000.txt" "pagerank tests/programs/inputs/powerlaw.egr"; do
  set -- $p
  exe=$1
  shift
  times "weft exec ./$exe $*" "$WEFT" exec -- "$T/$exe" "$@"
  times "weft race -- ./$exe $*" "$WEFT" race -- "$T/$exe" "$@"
done
