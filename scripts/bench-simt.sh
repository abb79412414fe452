#!/usr/bin/env bash
# SIMT emulator throughput and trace streaming at 2^20 threads (docs/perf.md, "SIMT emulator throughput").
# Usage: scripts/bench-simt.sh [RUNS] [--record]   (default 3 runs per kernel)
# Prints every run's rate, then each kernel's best rate of the runs (the emulator's wall-clock
# rate, and warp-instructions per CPU-second of the whole process, which a loaded machine
# inflates much less) and their ratios to the figures recorded in docs/bench-simt-last.tsv
# (kernel, both rates, date, commit, machine, load); --record replaces that file with this
# run's figures.
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
# Each run prints the emulator's line (its wall-clock rate) and the process's CPU seconds
# (user + system, from /usr/bin/time): on a shared machine the CPU rate is the one to compare.
run() {
  local k=$1
  shift
  /usr/bin/time -f "cpu %U %S" "$W" run-kernel "$@" 2>&1 >/dev/null | sed "s/^/$k: /"
}
for i in $(seq "$runs"); do
  run tree_reduction $K/tree_reduction/kernel.ptx --grid 8192 --block 128 \
    --buffer in=1048576:iota --buffer out=8192
  run inclusive_scan $K/inclusive_scan/kernel.ptx --grid 4096 --block 256 \
    --buffer in=1048576:1 --buffer out=1048576
  run vector_add $K/ptx-smoke/vector_add.cu --grid 4096 --block 256 --buffer a=1048576xf32:iota \
    --buffer b=1048576xf32:1 --buffer c=1048576xf32 --arg n=1048576
done | tee /dev/stderr | awk '
  /: weft: .* warp-instructions,/ { k = $1; sub(":", "", k); wi[k] = $3; r = $0
    sub(/.*\(/, "", r); sub(/ M warp-instr\/s\)$/, "", r); wall[k] = r }
  / cpu [0-9.]+ [0-9.]+$/ { k = $1; sub(":", "", k); c = $3 + $4
    printf "%s\t%s\t%.1f\n", k, wall[k], (c > 0 ? wi[k] / c / 1e6 : 0) }' >"$rates"
load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "load after the runs: $load"
date=$(date -u +%Y-%m-%dT%H:%MZ)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
new=$(mktemp)
for k in tree_reduction inclusive_scan vector_add; do
  best=$(awk -F'\t' -v k="$k" '$1 == k && $2 + 0 > b + 0 { b = $2 } END { if (b != "") print b }' "$rates")
  cpu=$(awk -F'\t' -v k="$k" '$1 == k && $3 + 0 > b + 0 { b = $3 } END { if (b != "") print b }' "$rates")
  [ -n "$best" ] && [ -n "$cpu" ] || { echo "$k: no rate printed" >&2; exit 1; }
  prev=$([ -f "$last" ] && awk -F'\t' -v k="$k" '$1 == k { print $2 "\t" $3 }' "$last" || true)
  line="$k: best of $runs: ${best} M warp-instr/s (wall), ${cpu} M per CPU-second (whole process)"
  if [ -n "$prev" ]; then
    line="$line; $(awk -F'\t' -v a="$best" -v c="$cpu" -v p="$prev" 'BEGIN { split(p, q, "\t")
      printf "%.2fx and %.2fx the recorded %s and %s", a / q[1], c / q[2], q[1], q[2] }')"
  else
    line="$line; nothing recorded"
  fi
  echo "$line"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$best" "$cpu" "$date" "$commit" "$machine" "$load" >>"$new"
done
if [ "$record" = 1 ]; then
  { printf 'kernel\twall_M_warp_instr_per_s\tcpu_M_warp_instr_per_s\tdate\tcommit\tmachine\tload_after\n'; cat "$new"; } >"$last"
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
