#!/usr/bin/env bash
# SIMT emulator throughput and trace streaming at 2^20 threads (docs/perf.md, "SIMT emulator throughput").
# Usage: scripts/bench-simt.sh [RUNS] [--record]   (default 3 runs per kernel)
# Prints every run's rate, then each kernel's best rate of the runs and its ratio to the figure
# recorded in docs/bench-simt-last.tsv (kernel, M warp-instr/s, date, commit, machine, load);
# --record replaces that file with this run's figures.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3
record=0
for a in "$@"; do
  case "$a" in
    --record) record=1 ;;
    *[!0-9]* | "") echo "usage: scripts/bench-simt.sh [RUNS] [--record]" >&2; exit 2 ;;
    *) runs=$a ;;
  esac
done
last=docs/bench-simt-last.tsv
cargo build --release -q -p weft
W=target/release/weft
K=tests/kernels
machine="$(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "machine: $machine, load: $load_before"
rates=$(mktemp)
trap 'rm -f "$rates"' EXIT
for i in $(seq "$runs"); do
  $W run-kernel $K/tree_reduction/kernel.ptx --grid 8192 --block 128 \
    --buffer in=1048576:iota --buffer out=8192 2>&1 >/dev/null | sed 's/^/tree_reduction: /'
  $W run-kernel $K/inclusive_scan/kernel.ptx --grid 4096 --block 256 \
    --buffer in=1048576:1 --buffer out=1048576 2>&1 >/dev/null | sed 's/^/inclusive_scan: /'
  $W run-kernel $K/ptx-smoke/vector_add.cu --grid 4096 --block 256 --buffer a=1048576xf32:iota \
    --buffer b=1048576xf32:1 --buffer c=1048576xf32 --arg n=1048576 2>&1 >/dev/null | sed 's/^/vector_add: /'
done | tee /dev/stderr | sed -n 's/^\([a-z_]*\): weft: .*(\([0-9.]*\) M warp-instr\/s)$/\1\t\2/p' >"$rates"
load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "load after the runs: $load"
date=$(date -u +%Y-%m-%dT%H:%MZ)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
new=$(mktemp)
for k in tree_reduction inclusive_scan vector_add; do
  best=$(awk -F'\t' -v k="$k" '$1 == k && $2 > b { b = $2 } END { if (b != "") print b }' "$rates")
  [ -n "$best" ] || { echo "$k: no rate printed" >&2; exit 1; }
  prev=$([ -f "$last" ] && awk -F'\t' -v k="$k" '$1 == k { print $2 }' "$last" || true)
  if [ -n "$prev" ]; then
    ratio=$(awk -v a="$best" -v b="$prev" 'BEGIN { printf "%.2f", a / b }')
    echo "$k: best of $runs ${best} M warp-instr/s, ${ratio}x the recorded ${prev} M"
  else
    echo "$k: best of $runs ${best} M warp-instr/s (nothing recorded)"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$best" "$date" "$commit" "$machine" "$load" >>"$new"
done
if [ "$record" = 1 ]; then
  { printf 'kernel\tM_warp_instr_per_s\tdate\tcommit\tmachine\tload_after\n'; cat "$new"; } >"$last"
  echo "recorded in $last"
fi
rm -f "$new"
trace=$(mktemp)
for t in "--trace $trace" ""; do
  /usr/bin/time -v $W run-kernel $K/inclusive_scan/kernel.ptx --grid 4096 --block 256 \
    --buffer in=1048576:1 --buffer out=1048576 $t 2>&1 >/dev/null |
    grep -E "^weft:|Maximum resident|Elapsed" | sed "s|^|scan ${t:+traced}: |"
  [ -n "$t" ] && echo "trace size: $(stat -c %s "$trace") bytes"
done
rm -f "$trace"
