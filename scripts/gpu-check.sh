#!/usr/bin/env bash
# Every GPU path of weft on a machine with an NVIDIA GPU, in one bounded run (docs/gpu-runs.md
# records what it printed). Not part of CI: CI has no GPU.
#
#   scripts/gpu-check.sh WEFT OUTDIR [SECTION...]
#
# WEFT: a weft binary; GEN (env): the weft-hw-cuda `generate` example binary (for the SASS
# capture); SECTIONS: env optcheck table6 fig4 wgpu race perf sanitizer nvcc mc (default:
# all). RACE_GLOB (env) limits the race section to some kernels, e.g. the three branch
# kernels: RACE_GLOB='tests/race/branch_order_ww.cu tests/race/branch_nested.cu
# tests/race/cl_branch_order.cl'. MC_* and BUDGET_MC: see sec_mc.
# Kernel sources are compiled through weft's PTX cache: set WEFT_CACHE_DIR (and WEFT_CLANG)
# to a cache filled on a machine with clang-19 to run where only the driver is installed.
# Each section has a time budget (seconds, env BUDGET_<SECTION>); every command has a
# timeout, so a kernel that hangs costs its timeout and no more.
set -uo pipefail
WEFT=$(readlink -f "$1")
OUTDIR=$2
shift 2
SECTIONS=${*:-env table6 fig4 optcheck race perf wgpu sanitizer nvcc mc}
cd "$(dirname "$0")/.."
mkdir -p "$OUTDIR"
export PATH=$PATH:/usr/local/cuda/bin
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)}
# The NVIDIA Vulkan ICD where the loader's search path does not hold it (container images).
nv_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f "$nv_icd" ]; then export VK_DRIVER_FILES=$nv_icd; fi
T6_ITER=${T6_ITER:-12}        # launches per Table-6 cell; x 4096 instances = 49,152 runs
FIG4_ITER=${FIG4_ITER:-245}   # x 4096 = 1,003,520 runs (paper 003 counts per million)
SUMMARY=$OUTDIR/summary.txt
log() { echo "$*" | tee -a "$SUMMARY"; }
now() { date +%s; }
elapsed() { echo $(($(now) - $1)); }
over() { [ $(($(now) - $1)) -gt "$2" ]; }

stress_file() { # column c (1..16) of paper 000 Tab. 6 -> a stress file
  local c=$1 b=$(($1 - 1))
  local ms=$(((b >> 3) & 1)) bc=$(((b >> 2) & 1)) ts=$(((b >> 1) & 1)) tr=$((b & 1))
  local f=$OUTDIR/stress/c$c.json
  mkdir -p "$OUTDIR/stress"
  cat >"$f" <<EOF
{"testingWorkgroups": 16, "maxWorkgroups": 16, "workgroupSize": 256,
 "memStressPct": $((ms * 100)), "bankConflicts": $([ $bc = 1 ] && echo true || echo false),
 "barrierPct": $((ts * 100)), "shufflePct": $((tr * 100))}
EOF
  echo "$f"
}

sec_env() {
  log "== env"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee -a "$SUMMARY"
  (nvcc --version | tail -2; which ptxas cuobjdump compute-sanitizer) 2>&1 | tee -a "$SUMMARY"
  timeout 60 "$WEFT" run --list-devices 2>&1 | tee -a "$SUMMARY"
}

sec_optcheck() {
  log "== optcheck: real ptxas -O3 / cuobjdump -sass of generated kernels"
  [ -n "${GEN:-}" ] || { log "GEN not set: skipped"; return; }
  local arch
  arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d '.')
  mkdir -p "$OUTDIR/sass"
  for t in tests/hw/paper000-table6/*.litmus tests/hw/paper003-fig4/*.litmus \
    tests/corpus/paper000/{cas-sl,sl-future,dlb-mp+fences,coRR-L2-L1+membar.gl}.litmus; do
    local n
    n=$(basename "$t" .litmus)
    for mode in none all; do
      local flag=""
      [ $mode = all ] && flag=--all-incantations
      "$GEN" "$t" $flag >"$OUTDIR/sass/$n.$mode.ptx" 2>&1 || { log "$n $mode: generate failed"; continue; }
      if timeout 60 ptxas -arch="$arch" -O3 "$OUTDIR/sass/$n.$mode.ptx" -o /tmp/k.cubin 2>"$OUTDIR/sass/$n.$mode.ptxas.err"; then
        cuobjdump -sass /tmp/k.cubin >"$OUTDIR/sass/$n.$mode.$arch.sass" 2>&1
        log "$n $mode: ptxas ok, $(grep -c SR_CLOCKLO "$OUTDIR/sass/$n.$mode.$arch.sass") clock reads in SASS"
      else
        log "$n $mode: ptxas FAILED: $(head -3 "$OUTDIR/sass/$n.$mode.ptxas.err")"
      fi
    done
  done
}

run_cuda() { # test stressfile iterations tag
  local t=$1 s=$2 it=$3 tag=$4
  local o=$OUTDIR/runs/$tag.json
  mkdir -p "$OUTDIR/runs"
  local t0
  t0=$(now)
  timeout -k 5 60 "$WEFT" run --backend cuda --stress "$s" --iterations "$it" --seed 1 \
    -m ptx-v7.5 --no-db --json "$t" >"$o" 2>"$OUTDIR/runs/$tag.err"
  local rc=$?
  local weak
  weak=$(python3 -c '
import json,sys
try:
    j=json.load(open(sys.argv[1]))
except Exception:
    print("no-json"); sys.exit()
for t in j.get("tests", []):
    if t.get("status") != "ok":
        print(t.get("status"), t.get("message", "")[:300]); continue
    print("weak=%s of %s stuck=%s attributable=%s %.1f/s notes=%s" % (t["weak"], t["instances"], t["stuck"],
        t["hardware_attributable"], t["instances_per_second"], "; ".join(t.get("notes", []))[:200]))
' "$o" 2>&1)
  log "$tag rc=$rc $(elapsed "$t0")s $weak"
}

sec_table6() {
  log "== paper 000 Tab. 6: 4 tests x 16 incantation combinations, $T6_ITER x 4096 runs each"
  local t0
  t0=$(now)
  for c in ${T6_COLS:-$(seq 1 16)}; do
    local s
    s=$(stress_file "$c")
    for t in tests/hw/paper000-table6/{coRR,lb,mp,sb}.litmus ${T6_EXTRA:-}; do
      over "$t0" "${BUDGET_TABLE6:-90}" && { log "table6: budget spent at c$c"; return; }
      run_cuda "$t" "$s" "$T6_ITER" "t6-$(basename "$t" .litmus)-c$c"
    done
  done
}

sec_fig4() {
  log "== paper 003 Fig. 4: mp fence pairs, $FIG4_ITER x 4096 runs, paper000 preset"
  local t0
  t0=$(now)
  local s
  s=$(stress_file 12) # memory stress + thread sync + randomisation, no bank conflicts
  for t in tests/hw/paper003-fig4/*.litmus; do
    over "$t0" "${BUDGET_FIG4:-40}" && { log "fig4: budget spent"; return; }
    run_cuda "$t" "$s" "$FIG4_ITER" "fig4-$(basename "$t" .litmus)"
  done
}

sec_wgpu() {
  log "== wgpu on the NVIDIA Vulkan driver: GPUHarbor's corpus under its Stress preset, judged by -m webgpu"
  mkdir -p "$OUTDIR/wgpu"
  local t1
  t1=$(now)
  timeout -k 5 "${BUDGET_WGPU:-45}" "$WEFT" run --backend wgpu --stress stress --iterations "${WGPU_ITER:-10}" \
    --seed 1 -m webgpu --no-db --json tests/corpus/gpuharbor >"$OUTDIR/wgpu/gpuharbor.json" 2>"$OUTDIR/wgpu/gpuharbor.err"
  log "wgpu rc=$? $(elapsed "$t1")s $(grep -m1 -o '"name": *"[^"]*"' "$OUTDIR/wgpu/gpuharbor.json")"
  python3 -c '
import json,sys
j=json.load(open(sys.argv[1]))
for t in j.get("tests", []):
    print("  %-22s %s weak=%s forbidden=%s of %s" % (t.get("test"), t.get("status"), t.get("weak"), t.get("forbidden"), t.get("instances")))
' "$OUTDIR/wgpu/gpuharbor.json" 2>&1 | tee -a "$SUMMARY"
  tail -3 "$OUTDIR/wgpu/gpuharbor.err" | tee -a "$SUMMARY"
}

race_args() { grep -m1 '^args:' "${1%.*}.expect" 2>/dev/null | sed 's/^args://'; }

sec_race() {
  log "== race suite: instrumented PTX on the GPU (BARRACUDA's setting) and native kernel times"
  local t0
  t0=$(now)
  mkdir -p "$OUTDIR/race"
  for k in ${RACE_GLOB:-tests/race/*.cu tests/race/*.cl}; do
    [ -f "$k" ] || continue
    over "$t0" "${BUDGET_RACE:-120}" && { log "race: budget spent at $k"; return; }
    local n
    n=$(basename "$k")
    # shellcheck disable=SC2046
    eval "set -- $(race_args "$k")"
    timeout -k 2 8 "$WEFT" race "$k" "$@" --backend cuda --json --schedules 2 \
      >"$OUTDIR/race/$n.gpu.json" 2>"$OUTDIR/race/$n.gpu.err"
    local rc1=$?
    timeout -k 2 8 "$WEFT" run-kernel "$k" "$@" --backend cuda --repeat 5 --json \
      >"$OUTDIR/race/$n.native.json" 2>"$OUTDIR/race/$n.native.err"
    local rc2=$?
    echo "$n race_rc=$rc1 native_rc=$rc2" >>"$OUTDIR/race/index.txt"
  done
  log "race: $(grep -c 'race_rc=[01] ' "$OUTDIR/race/index.txt") of $(wc -l <"$OUTDIR/race/index.txt") instrumented runs completed; $(grep -c 'native_rc=0' "$OUTDIR/race/index.txt") native"
  grep -v 'race_rc=[01] native_rc=0' "$OUTDIR/race/index.txt" | head -20 | tee -a "$SUMMARY"
}

sec_perf() {
  log "== paper 003 Fig. 10: native vs instrumented kernel time on the GPU (tests/race/perf/launches.txt)"
  mkdir -p "$OUTDIR/perf"
  local i=0
  grep -v '^#' tests/race/perf/launches.txt | while read -r line; do
    [ -n "$line" ] || continue
    i=$((i + 1))
    eval "set -- $line"
    local t1
    t1=$(now)
    timeout -k 2 60 "$WEFT" run-kernel "$@" --backend cuda --repeat 10 --json \
      >"$OUTDIR/perf/$i.native.json" 2>"$OUTDIR/perf/$i.native.err"
    log "perf $i native rc=$? $(tail -1 "$OUTDIR/perf/$i.native.err")"
    t1=$(now)
    timeout -k 2 120 "$WEFT" race "$@" --backend cuda --queues 16 --queue-records 65536 --json \
      >"$OUTDIR/perf/$i.race.json" 2>"$OUTDIR/perf/$i.race.err"
    log "perf $i instrumented rc=$? wall $(elapsed "$t1")s $(tail -1 "$OUTDIR/perf/$i.race.err")"
  done
}

sec_sanitizer() {
  log "== compute-sanitizer --tool racecheck on the race suite (native PTX)"
  command -v compute-sanitizer >/dev/null || { log "no compute-sanitizer"; return; }
  mkdir -p "$OUTDIR/sanitizer"
  local t0
  t0=$(now)
  ls tests/race/*.cu tests/race/*.cl 2>/dev/null | while read -r k; do
    over "$t0" "${BUDGET_SANITIZER:-80}" && break
    echo "$k"
  done | timeout -k 5 "${BUDGET_SANITIZER:-60}" xargs -P 6 -I{} bash -c '
    k={}; n=$(basename "$k")
    a=$(grep -m1 "^args:" "${k%.*}.expect" | sed "s/^args://")
    eval "set -- $a"
    timeout -k 2 30 compute-sanitizer --tool racecheck --racecheck-report all --print-limit 50 \
      '"$WEFT"' run-kernel "$k" "$@" --backend cuda >"'"$OUTDIR"'/sanitizer/$n.txt" 2>&1
    echo "$n rc=$? $(grep -m1 "RACECHECK SUMMARY\|ERROR SUMMARY" "'"$OUTDIR"'/sanitizer/$n.txt")" >>"'"$OUTDIR"'/sanitizer/index.txt"'
  log "sanitizer: $(wc -l <"$OUTDIR/sanitizer/index.txt" 2>/dev/null) kernels, $(grep -c 'hazard' "$OUTDIR/sanitizer/index.txt" 2>/dev/null) with a summary line"
}

sec_nvcc() {
  log "== the nvcc front-end path (no WEFT_CLANG): ten race-suite kernels"
  mkdir -p "$OUTDIR/nvcc"
  for k in $(ls tests/race/*.cu | head -6); do
    local n
    n=$(basename "$k")
    eval "set -- $(race_args "$k")"
    env -u WEFT_CLANG -u WEFT_CACHE_DIR WEFT_NO_CACHE=1 timeout -k 2 30 "$WEFT" race "$k" "$@" --json \
      >"$OUTDIR/nvcc/$n.json" 2>"$OUTDIR/nvcc/$n.err"
    log "nvcc $n rc=$? $(head -c 200 "$OUTDIR/nvcc/$n.err" | tr '\n' ' ')"
  done
}

# The model checker's labelled kernels (tests/mc/kernels/*.expect: `weft mc`'s result under
# scoped RC11) run natively: MC_RUNS launches of each, one process per launch (each its own
# context, so a trapped assertion or a hang costs one run), MC_PAR at a time, each bounded
# by MC_TIMEOUT seconds. Per kernel NAME, mc/NAME.runs.tsv holds one line per run: run,
# exit code, milliseconds, the run's JSON (buffers) or nothing, the last line of its stderr
# (a failed `__assert` traps, so the launch fails with the driver's error). Not run:
# `deadlock` labels (their spin loops never end) and kernels whose args set a warp size
# other than the hardware's (scripts/gpu-mc-kernels.sh lists the rest; MC_ONLY: only these).
mc_one_run() { # WEFT FILE ARGS OUTDIR NAME I
  local s
  s=$(date +%s%N)
  # shellcheck disable=SC2086
  timeout -k 2 "${MC_TIMEOUT:-10}" "$1" run-kernel "$2" $3 --backend cuda --json \
    >"$4/mc/runs/$5.$6.json" 2>"$4/mc/runs/$5.$6.err"
  echo "$? $((($(date +%s%N) - s) / 1000000))" >"$4/mc/runs/$5.$6.rc"
}

sec_mc() {
  log "== mc kernels natively: ${MC_RUNS:-20} launches each, labels from tests/mc/kernels/*.expect"
  mkdir -p "$OUTDIR/mc/runs"
  export -f mc_one_run
  export MC_TIMEOUT
  local t0 n k a r t1 i f
  t0=$(now)
  scripts/gpu-mc-kernels.sh >"$OUTDIR/mc/kernels.tsv"
  while IFS='|' read -r n k a r; do
    over "$t0" "${BUDGET_MC:-200}" && { log "mc: budget spent at $n"; break; }
    t1=$(now)
    seq 1 "${MC_RUNS:-20}" | timeout -k 5 "${MC_KERNEL_BUDGET:-30}" \
      xargs -P "${MC_PAR:-8}" -I{} bash -c 'mc_one_run "$@"' _ "$WEFT" "$k" "$a" "$OUTDIR" "$n" {}
    : >"$OUTDIR/mc/$n.runs.tsv"
    for i in $(seq 1 "${MC_RUNS:-20}"); do
      f=$OUTDIR/mc/runs/$n.$i
      [ -f "$f.rc" ] || continue
      printf '%s\t%s\t%s\t%s\t%s\n' "$i" "$(cut -d' ' -f1 "$f.rc")" "$(cut -d' ' -f2 "$f.rc")" \
        "$(grep -m1 '^{' "$f.json" 2>/dev/null)" \
        "$(grep -v '^$' "$f.err" | tail -1 | tr '\t' ' ' | cut -c1-300)" >>"$OUTDIR/mc/$n.runs.tsv"
      rm -f "$f.rc" "$f.json" "$f.err"
    done
    log "mc $n ($r): $(wc -l <"$OUTDIR/mc/$n.runs.tsv") runs, exit codes $(cut -f2 "$OUTDIR/mc/$n.runs.tsv" | sort | uniq -c | awk '{printf "%sx%s ", $2, $1}')in $(elapsed "$t1") s"
  done <"$OUTDIR/mc/kernels.tsv"
  rm -f "$OUTDIR"/mc/runs/* 2>/dev/null
  rmdir "$OUTDIR/mc/runs" 2>/dev/null || true
}

START=$(now)
for s in $SECTIONS; do
  "sec_$s"
done
log "== total $(elapsed "$START") s"
