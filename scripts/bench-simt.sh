#!/usr/bin/env bash
# SIMT emulator throughput and trace streaming at 2^20 threads (docs/perf.md, "SIMT emulator throughput").
# Usage: scripts/bench-simt.sh [RUNS]   (default 3 runs per kernel)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
cargo build --release -q -p weft
W=target/release/weft
K=tests/kernels
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1), load: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$runs"); do
  $W run-kernel $K/tree_reduction/kernel.ptx --grid 8192 --block 128 \
    --buffer in=1048576:iota --buffer out=8192 2>&1 >/dev/null | sed 's/^/tree_reduction: /'
  $W run-kernel $K/inclusive_scan/kernel.ptx --grid 4096 --block 256 \
    --buffer in=1048576:1 --buffer out=1048576 2>&1 >/dev/null | sed 's/^/inclusive_scan: /'
  $W run-kernel $K/ptx-smoke/vector_add.cu --grid 4096 --block 256 --buffer a=1048576xf32:iota \
    --buffer b=1048576xf32:1 --buffer c=1048576xf32 --arg n=1048576 2>&1 >/dev/null | sed 's/^/vector_add: /'
done
trace=$(mktemp)
for t in "--trace $trace" ""; do
  /usr/bin/time -v $W run-kernel $K/inclusive_scan/kernel.ptx --grid 4096 --block 256 \
    --buffer in=1048576:1 --buffer out=1048576 $t 2>&1 >/dev/null |
    grep -E "^weft:|Maximum resident|Elapsed" | sed "s|^|scan ${t:+traced}: |"
  [ -n "$t" ] && echo "trace size: $(stat -c %s "$trace") bytes"
done
rm -f "$trace"
