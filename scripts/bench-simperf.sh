#!/usr/bin/env bash
# Issue 11 item 4 (docs/perf.md, "Simulator performance, second pass"): the xf-barrier
# family and TSan under every bundled model, and the coherence family CO-2..CO-6 under
# rc11 (herd7 beside it when ../shared/anchors has it), with candidates, pruned partial
# candidates, states, wall and CPU seconds and peak RSS from /usr/bin/time. States of
# full enumerations are compared with tests/sim/xf-barrier/NAME.MODEL.states where stored.
# Usage: scripts/bench-simperf.sh [TIMEOUT_S] [SECTION...]   (default 60; sections: big co)
set -euo pipefail
cd "$(dirname "$0")/.."
to=${1:-60}
shift || true
sections=${*:-big co}
want() { [[ " $sections " == *" $1 "* ]]; }
W=${WEFT:-target/release/weft}
[ -x "$W" ] || cargo build --release -q -p weft
D=../shared/corpus/dat3m/litmus
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1), load: $(cut -d' ' -f1-3 /proc/loadavg)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
timed() { # MODEL FILE
  /usr/bin/time -f "%e %U %M" -o "$tmp/time" "$W" sim -m "$1" --timeout "$to" --json "$2" >"$tmp/json" 2>/dev/null || true
  python3 - "$1" "$tmp/json" "$tmp/time" tests/sim/xf-barrier <<'PY'
import json, os, sys
model, js, tm, ref = sys.argv[1:]
wall, user, rss = open(tm).read().split()[-3:]
r = json.load(open(js))[0]
full = not r["timed_out"] and not r.get("memory_limit")
states = {" ".join("%s=%s;" % (c, v) for c, v in s["values"].items()) for s in r["states"]}
path = os.path.join(ref, "%s.%s.states" % (r["name"], model))
same = "-"
if os.path.exists(path):
    want = {l.strip() for l in open(path) if l.strip()}
    same = "yes" if (full and states == want) else ("subset" if states <= want else "NO")
print("| %s | %s | %d | %d | %d | %d | %s | %s | %.0f | %s | %s |" % (r["name"], model, r["candidates"], r["pruned"],
      r["consistent"], len(states), wall, user, int(rss) / 1024, "full" if full else "timeout", same))
PY
}
hdr="| test | model | candidates | pruned | consistent | states | wall s | CPU s | peak RSS MB | enumeration | same as stored |"
if want big; then
  echo; echo "## xf-barrier family and TSan under every bundled model (--timeout $to)"; echo "$hdr"
  for m in sc tso rc11 scoped-rc11 ptx-asplos15 webgpu ptx-v6.0 ptx-v7.5 vulkan vulkan-nochains opencl; do
    for f in "$D"/VULKAN/Manual/xf-barrier*.litmus "$D/OPENCL/portedFromC11/manual/TSan.litmus"; do timed "$m" "$f"; done
  done
fi
if want co; then
  echo; echo "## CO-n under rc11 (--timeout $to), herd7 beside it (same timeout)"; echo "$hdr"
  H=../shared/anchors/herdtools7-7.57
  for n in 2 3 4 5 6; do
    timed rc11 "tests/sim/co/CO-$n.litmus"
    if [ -x "$H/bin/herd7" ]; then
      /usr/bin/time -f "%e %U %M" -o "$tmp/htime" env HERDLIB="$H/libdir" timeout "$to" "$H/bin/herd7" -model rc11.cat "tests/sim/co/CO-$n.litmus" >"$tmp/hout" 2>&1 || true
      echo "herd7 CO-$n: $(tail -1 "$tmp/htime") (wall s, CPU s, KB); $(grep -m1 '^States' "$tmp/hout" || echo 'no result (timeout)')"
    fi
  done
fi
