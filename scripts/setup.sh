#!/usr/bin/env bash
# Installs what weft needs on a fresh Debian machine (system packages only when missing),
# builds weft in release mode, and runs its main job on the bundled examples.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/deps.sh
weft_install_deps

cargo build --release -q -p weft
WEFT=target/release/weft

echo "== weft parse: our corpus (papers 000 and 001, herd C tests)"
"$WEFT" parse tests/corpus
if [ -d ../shared/corpus/dat3m/litmus ]; then
  echo "== weft parse: Dat3M's GPU litmus corpus"
  "$WEFT" parse ../shared/corpus/dat3m/litmus
fi
echo "== weft show: paper 000 Fig. 12 (SB) in its own format (GPU_PTX, canonical layout)"
"$WEFT" show tests/corpus/paper000/SB.litmus
echo "== weft show --to ptx: GPUHarbor's MP (JSON) as a Dat3M PTX test"
"$WEFT" show --to ptx tests/corpus/gpuharbor/MP.json
echo "== weft show --to json: herd C SB with its outcomes classified (seq / interleaved / weak)"
"$WEFT" show --to json tests/corpus/c/SB.litmus
echo "== weft show --to gpu_ptx: a conversion the target cannot express is refused (exit 2)"
"$WEFT" show --to gpu_ptx tests/corpus/c/MP+rel+acq.litmus || echo "(refused, exit $?)"
echo "== weft sim: paper 000's mp-L1 with membar.gl under the PTX 7.5 model (forbidden)"
"$WEFT" sim -m ptx-v7.5 tests/corpus/paper000/mp-L1+membar.gl.litmus
if [ -d ../shared/corpus/dat3m/expected ]; then
  echo "== weft sim --expect: Dat3M's PTX v7.5 verdicts"
  "$WEFT" sim -m ptx-v7.5 --expect ../shared/corpus/dat3m/expected/PTXv7_5-expected.csv ../shared/corpus/dat3m/litmus/PTX | tail -1
fi
echo "== weft run: GPUHarbor's MP on the first wgpu adapter (lavapipe without a GPU), judged by the WebGPU model"
"$WEFT" run --stress basic --iterations 20 --seed 1 -m webgpu --no-db tests/corpus/gpuharbor/MP.json tests/corpus/gpuharbor/CoRR.json
echo "== weft gen: diy7's SB cycle as a C test (same test and metadata as diyone7 writes)"
"$WEFT" gen --cycle "PodWR Fre PodWR Fre"
echo "== weft gen --mutants: GPUHarbor's 32 MC-Mutants from its conformance tests, labelled by the WebGPU model"
gen_dir=$(mktemp -d)
"$WEFT" gen --mutants tests/corpus/gpuharbor -o "$gen_dir" --check -m webgpu | tail -3
rm -rf "$gen_dir"
echo "== weft mc: every RC11 execution of SB, once (optimal DPOR); herd7's layout"
"$WEFT" mc -m rc11 tests/corpus/c/SB.litmus
echo "== weft race: paper 000's CUDA-by-Example dot product with an unfenced spin lock (races found, exit 1)"
"$WEFT" race tests/race/spinlock_dot_nofence.cu --buffer a=1000:rand:6:50 --buffer b=1000:rand:7:50 \
  --buffer c=1 --buffer mutex=1 --arg n=1000 --schedule 9 || echo "(races found, exit $?)"
