#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 600) each, two at a time, seeded with the
# corpus; copies any crash into fuzz/regressions/. Needs a nightly toolchain and cargo-fuzz.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-600}"
command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked
rustup run nightly rustc --version >/dev/null 2>&1 || { echo "fuzz: a nightly toolchain is needed (rustup toolchain install nightly)" >&2; exit 3; }
mkdir -p fuzz/corpus
for t in dat3m clitmus gpuptx json any stress ptx; do mkdir -p "fuzz/corpus/$t"; done
# Seeds: every litmus file we have, routed to the target of its format.
for f in $(find tests/corpus ../shared/corpus/dat3m/litmus -name '*.litmus' 2>/dev/null); do
  # The targets replace the header line by their own, chosen by the first byte's parity.
  case "$(head -c 16 "$f")" in
    PTX*) d=dat3m; b='\x00' ;; VULKAN*|Vulkan*) d=dat3m; b='\x01' ;;
    OPENCL*) d=clitmus; b='\x00' ;; C\ *) d=clitmus; b='\x01' ;;
    GPU_PTX*) d=gpuptx; b='\x00' ;; *) d=any; b='' ;;
  esac
  { printf "$b"; tail -n +2 "$f"; } > "fuzz/corpus/$d/$(basename "$f")"
  cp "$f" "fuzz/corpus/any/$(basename "$f")"
done
for f in $(find tests/corpus -name '*.json' ! -name '*.meta.json' 2>/dev/null); do
  { printf '\x00'; tail -c +2 "$f"; } > "fuzz/corpus/json/$(basename "$f")"
done
# Stress files: ours and the GPUHarbor-style ones (numMemLocations/numOutputs).
cp tests/stress/*.json fuzz/corpus/stress/
# PTX: the seeds written for the call/label/prototype syntax, and every PTX file we have.
cp fuzz/seeds/ptx/*.ptx fuzz/corpus/ptx/ 2>/dev/null
for f in $(find tests/kernels crates/weft-ptx/tests/data -name '*.ptx' 2>/dev/null); do
  cp "$f" "fuzz/corpus/ptx/$(echo "$f" | tr / _)"
done
run() {
  local t=$1
  cargo +nightly fuzz run "$t" "fuzz/corpus/$t" -- -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 \
    > "fuzz/$t.log" 2>&1 || true
  tail -n 3 "fuzz/$t.log" | sed "s/^/[$t] /"
  for a in fuzz/artifacts/"$t"/*; do [ -f "$a" ] && cp "$a" "fuzz/regressions/$t-$(basename "$a")"; done
}
run dat3m & run clitmus & wait
run gpuptx & run json & wait
run any & run stress & wait
run ptx & wait
ls fuzz/regressions
