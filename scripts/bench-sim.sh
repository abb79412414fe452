#!/usr/bin/env bash
# Simulator performance (docs/perf.md, issue 3): the whole shared corpus under each bundled
# model, and scaling on generated families of growing tests (SB, LB, IRIW with 2..8
# threads; C with relaxed atomics under sc/rc11/scoped-rc11, and PTX with one thread per
# CTA under ptx-v7.5), reporting candidate executions visited versus consistent ones.
# Usage: scripts/bench-sim.sh [MAX_THREADS]   (default 8)
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-8}
cargo build --release -q -p weft
W=$PWD/target/release/weft
D=../shared/corpus/dat3m
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1), load: $(cut -d' ' -f1-3 /proc/loadavg)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo
echo "## whole corpus per model (wall seconds, /usr/bin/time)"
for m in sc tso rc11 scoped-rc11 ptx-asplos15 webgpu ptx-v6.0 ptx-v7.5 vulkan vulkan-nochains opencl; do
  /usr/bin/time -f "$m: %e s wall, %U s user, %M KB max RSS" "$W" sim -m "$m" --timeout 5 tests/corpus "$D/litmus" >"$tmp/out" 2>"$tmp/err" || true
  echo "$(tail -1 "$tmp/err"); timed out (5 s): $(grep '^Timeout' "$tmp/out" | cut -d' ' -f2 | tr '\n' ' ')"
done

echo
echo "## conformance files (their own model)"
for row in PTXv6_0:ptx-v6.0:PTX PTXv7_5:ptx-v7.5:PTX VULKAN:vulkan:VULKAN VULKAN-NOCHAINS:vulkan-nochains:VULKAN OPENCL:opencl:OPENCL; do
  IFS=: read -r f m dir <<<"$row"
  s=$(date +%s.%N)
  r=$("$W" sim -m "$m" --expect "$D/expected/$f-expected.csv" "$D/litmus/$dir" | tail -1)
  printf '%s (%s): %s in %.2f s\n' "$f" "$m" "$r" "$(echo "$(date +%s.%N) - $s" | bc)"
done
s=$(date +%s.%N)
r=$("$W" sim -m opencl --expect-races "$D/expected/OPENCL-DR-expected.csv" "$D/litmus/OPENCL" | tail -1)
printf 'OPENCL-DR (opencl): %s in %.2f s\n' "$r" "$(echo "$(date +%s.%N) - $s" | bc)"


# C test generators: relaxed atomics, one variable per thread.
c_test() { # NAME THREADS BODY-FN
  local name=$1 n=$2 fn=$3 i
  {
    echo "C $name"
    printf '{ '; for ((i = 0; i < n; i++)); do printf 'x%d = 0; ' "$i"; done; echo '}'
    local params=""
    for ((i = 0; i < n; i++)); do params+="${params:+, }atomic_int* x$i"; done
    for ((i = 0; i < n; i++)); do echo "P$i ($params) {"; $fn "$i" "$n"; echo "}"; done
    ${fn}_cond "$n"
  } >"$tmp/$name.litmus"
}
sb() { echo "  atomic_store_explicit(x$1, 1, memory_order_relaxed);"; echo "  int r0 = atomic_load_explicit(x$((($1 + 1) % $2)), memory_order_relaxed);"; }
sb_cond() { local i c=""; for ((i = 0; i < $1; i++)); do c+="${c:+ /\\ }$i:r0=0"; done; echo "exists ($c)"; }
lb() { echo "  int r0 = atomic_load_explicit(x$1, memory_order_relaxed);"; echo "  atomic_store_explicit(x$((($1 + 1) % $2)), 1, memory_order_relaxed);"; }
lb_cond() { local i c=""; for ((i = 0; i < $1; i++)); do c+="${c:+ /\\ }$i:r0=1"; done; echo "exists ($c)"; }
# IRIW-n: the first n/2 threads write their own variable; the others read every written
# variable, odd readers in reverse order.
iriw() {
  local t=$1 n=$2 w=$(($2 / 2)) j
  if ((t < w)); then echo "  atomic_store_explicit(x$t, 1, memory_order_relaxed);"; return; fi
  for ((j = 0; j < w; j++)); do
    local v=$j; (((t - w) % 2)) && v=$((w - 1 - j))
    echo "  int r$j = atomic_load_explicit(x$v, memory_order_relaxed);"
  done
}
iriw_cond() {
  local n=$1 w=$(($1 / 2)) t j c=""
  for ((t = w; t < n; t++)); do
    for ((j = 0; j < w; j++)); do
      if ((j == 0)); then c+="${c:+ /\\ }$t:r$j=1"; else c+=" /\\ $t:r$j=0"; fi
    done
  done
  echo "exists ($c)"
}

# PTX (Dat3M dialect) SB-n: each thread in its own CTA, relaxed gpu-scope accesses.
ptx_sb() {
  local n=$1 i
  {
    echo "PTX SB$n-ptx"
    echo "{"; for ((i = 0; i < n; i++)); do echo "x$i=0;"; done; echo "}"
    local hdr="" l1="" l2=""
    for ((i = 0; i < n; i++)); do
      hdr+="${hdr:+ | }P$i@cta $i,gpu 0"
      l1+="${l1:+ | }st.relaxed.gpu x$i, 1"
      l2+="${l2:+ | }ld.relaxed.gpu r0, x$((($i + 1) % n))"
    done
    echo " $hdr ;"; echo " $l1 ;"; echo " $l2 ;"
    local c=""; for ((i = 0; i < n; i++)); do c+="${c:+ /\\ }P$i:r0 == 0"; done
    echo "exists ($c)"
  } >"$tmp/SB$n-ptx.litmus"
}

echo
echo "## scaling: candidates visited / consistent / seconds (weft sim --json)"
printf '%-10s %-12s %10s %10s %10s %9s\n' test model candidates pruned consistent seconds
row() { # FILE MODEL
  "$W" sim -m "$2" --json "$1" | python3 -c '
import json, sys
r = json.load(sys.stdin)[0]
print("%-10s %-12s %10d %10d %10d %9.3f" % (r["name"], sys.argv[1], r["candidates"], r["pruned"], r["consistent"], r["seconds"]))' "$2"
}
for ((n = 2; n <= max; n++)); do
  c_test "SB$n" "$n" sb; c_test "LB$n" "$n" lb
  for m in sc rc11 scoped-rc11; do row "$tmp/SB$n.litmus" "$m"; done
  for m in sc rc11 scoped-rc11; do row "$tmp/LB$n.litmus" "$m"; done
  ptx_sb "$n"; row "$tmp/SB$n-ptx.litmus" ptx-v7.5
done
for ((n = 4; n <= max; n++)); do
  c_test "IRIW$n" "$n" iriw
  for m in sc rc11 scoped-rc11; do row "$tmp/IRIW$n.litmus" "$m"; done
done
