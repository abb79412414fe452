#!/usr/bin/env bash
# The model checker's labelled kernels that scripts/gpu-check.sh (section mc) runs natively
# and scripts/gpu-check-prep.sh runs on the emulator: one line per kernel,
# NAME|FILE|ARGS|LABEL, from tests/mc/kernels/*.expect (`kernel:` names a file elsewhere,
# `args:` the launch, `result:` weft mc's label). Left out: `deadlock` labels (their spin
# loops never end on hardware) and args that set a warp size other than the hardware's 32.
# MC_ONLY (env, space-separated names): only these.
set -euo pipefail
cd "$(dirname "$0")/.."
for e in tests/mc/kernels/*.expect; do
  n=$(basename "$e" .expect)
  if [ -n "${MC_ONLY:-}" ]; then case " $MC_ONLY " in *" $n "*) ;; *) continue ;; esac; fi
  r=$(grep -m1 '^result:' "$e" | sed 's/^result: *//; s/ #.*//' || true)
  a=$(grep -m1 '^args:' "$e" | sed 's/^args: *//; s/ #.*//' || true)
  k=$(grep -m1 '^kernel:' "$e" | sed 's/^kernel: *//; s/ #.*//' || true)
  [ -n "$k" ] || k=$(ls "tests/mc/kernels/$n.cu" "tests/mc/kernels/$n.cl" 2>/dev/null | head -1 || true)
  [ -f "$k" ] || continue
  [ "$r" = deadlock ] && continue
  case " $a " in *" --warp-size "*) continue ;; esac
  printf '%s|%s|%s|%s\n' "$n" "$k" "$a" "$r"
done
