#!/usr/bin/env bash
# Issue 11 item 4 (docs/perf.md, "Simulator performance, third pass"): the xf-barrier
# family and TSan under every bundled model, each run limited to CPU_LIMIT CPU seconds
# (`ulimit -t`, default 11) rather than wall time, since the development VM is shared and
# its load varies from 2 to 30. Runs `crates/weft-sim/examples/simbench.rs` (the
# simulator without the CLI) under /usr/bin/time; one line per run: simbench's counts
# (candidates, pruned, judged, consistent, states, Positive/Negative, full/timeout), then
# CPU s, wall s, peak RSS KB and the load average when it started. A run killed at the
# CPU limit prints `KILLED-at-N-CPU-s` (it did not finish within N CPU seconds).
# `settled=` counts partial candidates whose completions were judged at once (fourth
# pass); `SIMBENCH_NO_SETTLE=1` in the environment turns that off for comparisons.
# Usage: scripts/bench-simcpu.sh [MODEL...]   (env: CPU_LIMIT, SIMBENCH=path to a binary)
set -uo pipefail
cd "$(dirname "$0")/.."
lim=${CPU_LIMIT:-11}
B=${SIMBENCH:-target/release/examples/simbench}
[ -x "$B" ] || cargo build --release -q -p weft-sim --example simbench
models=${*:-sc tso rc11 scoped-rc11 ptx-asplos15 ptx-v6.0 ptx-v7.5 vulkan vulkan-nochains opencl webgpu}
D=../shared/corpus/dat3m/litmus
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1), limit $lim CPU s per run"
for m in $models; do
  for f in "$D"/VULKAN/Manual/xf-barrier*.litmus "$D/OPENCL/portedFromC11/manual/TSan.litmus"; do
    n=$(basename "$f" .litmus)
    load=$(cut -d' ' -f1 /proc/loadavg)
    out=$( (ulimit -t "$lim"; /usr/bin/time -f "%U %e %M" -o "$tmp" "$B" "$m" "$f" --timeout 3600 2>/dev/null) )
    [ -z "$out" ] && out="$n $m KILLED-at-$lim-CPU-s"
    echo "$out | cpu s, wall s, RSS KB: $(tail -1 "$tmp") | load $load"
  done
done
