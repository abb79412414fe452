#!/usr/bin/env bash
# Simulator performance (docs/perf.md, issue 3): the whole shared corpus under each bundled
# model, and scaling on generated families of growing tests (SB, LB, IRIW with 2..8
# threads; C with relaxed atomics under sc/rc11/scoped-rc11, and PTX with one thread per
# CTA under ptx-v7.5), reporting candidate executions visited versus consistent ones.
# Issue 11: the coherence family CO-2..CO-6 (tests/sim/co) side by side with herd7 where
# it is available (../shared/anchors, 300 s timeout), and the xf-barrier family and TSan
# under every bundled model (full enumeration, 60 s timeout), with peak RSS.
# Usage: scripts/bench-sim.sh [MAX_THREADS] [SECTION...]   (default 8; BIG_TIMEOUT=S for the big section, default 60; sections: corpus
# conformance families co big; default all)
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-8}
shift || true
sections=${*:-corpus conformance families co big}
want() { [[ " $sections " == *" $1 "* ]]; }
cargo build --release -q -p weft
W=$PWD/target/release/weft
D=../shared/corpus/dat3m
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1), load: $(cut -d' ' -f1-3 /proc/loadavg)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if want corpus; then
echo
echo "## whole corpus per model (wall seconds, /usr/bin/time; default --max-memory 4G)"
for m in sc tso rc11 scoped-rc11 ptx-asplos15 webgpu ptx-v6.0 ptx-v7.5 vulkan vulkan-nochains opencl; do
  /usr/bin/time -f "$m: %e s wall, %U s user, %M KB max RSS" "$W" sim -m "$m" --timeout 5 tests/corpus "$D/litmus" >"$tmp/out" 2>"$tmp/err" || true
  echo "$(tail -1 "$tmp/err"); timed out (5 s): $(grep '^Timeout' "$tmp/out" | cut -d' ' -f2 | tr '\n' ' ')"
done
fi

if want conformance; then
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
fi


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

row() { # FILE MODEL
  "$W" sim -m "$2" --json "$1" | python3 -c '
import json, sys
r = json.load(sys.stdin)[0]
print("%-10s %-12s %10d %10d %10d %9.3f" % (r["name"], sys.argv[1], r["candidates"], r["pruned"], r["consistent"], r["seconds"]))' "$2"
}
if want families; then
echo
echo "## scaling: candidates visited / consistent / seconds (weft sim --json)"
printf '%-10s %-12s %10s %10s %10s %9s\n' test model candidates pruned consistent seconds
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
fi

# One timed run: weft's JSON counts plus /usr/bin/time's wall, user and peak RSS.
timed() { # MODEL TIMEOUT FILE
  /usr/bin/time -f "%e %U %M" -o "$tmp/time" "$W" sim -m "$1" --timeout "$2" --json "$3" >"$tmp/json" 2>/dev/null || true
  python3 - "$1" "$tmp/json" "$tmp/time" <<'PY'
import json, sys
model, js, tm = sys.argv[1:]
wall, user, rss = open(tm).read().split()[-3:]
r = json.load(open(js))[0]
print("| %s | %s | %d | %d | %d | %d | %s | %s | %.0f | %s |" % (r["name"], model, r["candidates"], r["pruned"],
      r["consistent"], len(r["states"]), wall, user, int(rss) / 1024,
      "timeout" if r["timed_out"] else ("memory" if r.get("memory_limit") else "full")))
PY
}

if want co; then
echo
echo "## coherence family CO-n under rc11 (tests/sim/co), herd7 in the same run (300 s timeout)"
H=../shared/anchors/herdtools7-7.57
echo "| test | model | candidates | pruned | consistent | states | wall s | user s | peak RSS MB | enumeration |"
for n in 2 3 4 5 6; do timed rc11 600 "tests/sim/co/CO-$n.litmus"; done
if [ -x "$H/bin/herd7" ]; then
  for n in 2 3 4 5 6; do
    /usr/bin/time -f "%e %U %M" -o "$tmp/htime" env HERDLIB="$H/libdir" timeout 300 "$H/bin/herd7" -model rc11.cat "tests/sim/co/CO-$n.litmus" >"$tmp/hout" 2>&1 || true
    echo "herd7 CO-$n: $(tail -1 "$tmp/htime") (wall s, user s, KB); $(grep -m1 '^States' "$tmp/hout" || echo 'no result (timeout)')"
  done
fi
fi

if want big; then
echo
big_timeout=${BIG_TIMEOUT:-60}
echo "## xf-barrier family and TSan, full enumeration under every bundled model (${big_timeout} s timeout)"
echo "| test | model | candidates | pruned | consistent | states | wall s | user s | peak RSS MB | enumeration |"
for m in sc tso rc11 scoped-rc11 ptx-asplos15 webgpu ptx-v6.0 ptx-v7.5 vulkan vulkan-nochains opencl; do
  for f in "$D"/litmus/VULKAN/Manual/xf-barrier*.litmus "$D/litmus/OPENCL/portedFromC11/manual/TSan.litmus"; do
    timed "$m" "$big_timeout" "$f"
  done
done
fi
