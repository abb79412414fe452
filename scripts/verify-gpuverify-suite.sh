#!/usr/bin/env bash
# weft verify against the labels of GPUVerify-style test-suite kernels (issue 15's acceptance
# measurement; the kernels are public but not part of this repository).
# usage: scripts/verify-gpuverify-suite.sh DIR [WEFT] -> one TSV line per kernel on stdout
#   (file, label, weft exit code, agreement) and a summary on stderr.
# A kernel's first line is `//pass` (must verify: exit 0) or `//xfail:KIND` (an error must be
# reported: exit 1); `xfail:CLANG_ERROR` kernels are left out (they test the compiler).
# Exit 2/3 (not accepted: unsupported construct, solver timeout) count as not accepted.
set -uo pipefail
dir=$1
weft=${2:-target/release/weft}
n=0; acc=0; agree=0
while IFS= read -r f; do
  label=$(head -1 "$f" | tr -d '\r')
  case "$label" in
    //pass) want=0 ;;
    //xfail:CLANG_ERROR*) continue ;;
    //xfail:*) want=1 ;;
    *) continue ;;
  esac
  n=$((n + 1))
  timeout 120 "$weft" verify --timeout 20 "$f" >/dev/null 2>&1
  rc=$?
  verdict=not-accepted
  if [ $rc = 0 ] || [ $rc = 1 ]; then
    acc=$((acc + 1))
    if [ $rc = $want ]; then verdict=agree; agree=$((agree + 1)); else verdict=disagree; fi
  fi
  printf '%s\t%s\t%s\t%s\n' "$f" "$label" "$rc" "$verdict"
done < <(find "$dir" -name '*.cu' -o -name '*.cl' | sort)
echo "kernels $n, accepted $acc, agree $agree (of accepted)" >&2
