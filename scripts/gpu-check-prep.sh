#!/usr/bin/env bash
# Prepares scripts/gpu-check.sh for a GPU machine that has the NVIDIA driver and toolkit but
# no clang-19 and no Rust toolchain: builds weft (release) and the `generate` example into
# DIR/bin, compiles every race-suite kernel here into a PTX cache in DIR/cache (the key
# names /usr/bin/clang-19; DIR/fake-clang-19 answers its --version there and refuses to
# compile), and records the emulator's results for the same launches in DIR/emu, to compare
# with the GPU's; the same for the model checker's kernels that section mc runs
# (scripts/gpu-mc-kernels.sh; results in DIR/emu/mc).
#
#   scripts/gpu-check-prep.sh DIR        (then, on the GPU machine:
#   cp DIR/fake-clang-19 /usr/bin/clang-19; WEFT_CACHE_DIR=DIR/cache WEFT_CLANG=/usr/bin/clang-19 \
#     GEN=DIR/bin/generate scripts/gpu-check.sh DIR/bin/weft OUT)
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=$(mkdir -p "$1" && readlink -f "$1")
source scripts/deps.sh
weft_install_deps
cargo build --release -q -p weft
cargo build --release -q -p weft-hw-cuda --example generate
mkdir -p "$DIR/bin" "$DIR/cache" "$DIR/emu"
cp target/release/weft target/release/examples/generate "$DIR/bin/"
strip "$DIR/bin/weft" "$DIR/bin/generate" 2>/dev/null || true
/usr/bin/clang-19 --version >"$DIR/clang-version.txt"
cat >"$DIR/fake-clang-19" <<'EOF'
#!/bin/sh
# Stands in for clang-19 where only weft's PTX cache is available (scripts/gpu-check-prep.sh).
if [ "$1" = "--version" ]; then cat "$(dirname "$(readlink -f "$0")")/clang-version.txt" 2>/dev/null || cat /usr/local/share/weft-clang-version.txt; exit 0; fi
echo "clang-19 is not installed here: only kernels in weft's PTX cache can be used" >&2
exit 1
EOF
chmod +x "$DIR/fake-clang-19"
export WEFT_CACHE_DIR=$DIR/cache WEFT_CLANG=/usr/bin/clang-19
n=0
for k in tests/race/*.cu tests/race/*.cl; do
  [ -f "$k" ] || continue
  b=$(basename "$k")
  a=$(grep -m1 '^args:' "${k%.*}.expect" 2>/dev/null | sed 's/^args://' || true)
  eval "set -- $a"
  timeout 120 target/release/weft race "$k" "$@" --instrumented --schedules 3 --json \
    >"$DIR/emu/$b.race.json" 2>/dev/null || true
  timeout 120 target/release/weft run-kernel "$k" "$@" --json >"$DIR/emu/$b.native.json" 2>/dev/null || true
  n=$((n + 1))
done
# The model checker's kernels (section mc): the emulator's result of the same launch,
# round-robin and three random schedules; the first run also fills the PTX cache.
mkdir -p "$DIR/emu/mc"
m=0
while IFS='|' read -r name k a _; do
  # shellcheck disable=SC2086
  timeout 120 target/release/weft run-kernel "$k" $a --json >"$DIR/emu/mc/$name.rr.json" 2>/dev/null || true
  for s in 1 2 3; do
    # shellcheck disable=SC2086
    timeout 120 target/release/weft run-kernel "$k" $a --schedule $s --json \
      >"$DIR/emu/mc/$name.s$s.json" 2>/dev/null || true
  done
  m=$((m + 1))
done < <(scripts/gpu-mc-kernels.sh)
grep -v '^#' tests/race/perf/launches.txt | while read -r line; do
  [ -n "$line" ] || continue
  eval "set -- $line"
  target/release/weft ptx "$1" >/dev/null
done
echo "prepared $n race-suite kernels and $m mc kernels in $DIR ($(du -sh "$DIR" | cut -f1))"
