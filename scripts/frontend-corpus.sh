#!/usr/bin/env bash
# Front-end acceptance over a folder of public kernels (docs/kernels.md, "Measurement").
#
# usage: scripts/frontend-corpus.sh DIR [-- EXTRA weft ptx OPTIONS]
#
# Runs `weft ptx FILE` (compile + parse + lower every kernel of the file; launch options
# come from the file's own header lines) on every *.cu and *.cl file under DIR, in sorted
# order, and prints one line per file:
#
#   PASS  path
#   FAIL  path  rc=N  first error line
#   XFAIL path  (the header says xfail:CLANG_ERROR or xfail:COMMAND_LINE_ERROR and weft
#               rejected the file with exit 2: clang's diagnostics, or the launch options)
#   XPASS path  rc=N  (such a kernel that weft did not reject as expected)
#
# then a summary per language: passes / kernels, with the kernels GPUVerify's test suite
# marks as meant to be refused (xfail:CLANG_ERROR, xfail:COMMAND_LINE_ERROR) counted apart.
# Exit status: 0 when it ran (whatever the pass rate), 2 on bad usage.
#
# Environment: WEFT (the weft binary; default target/release/weft, else target/debug/weft,
# else `weft` on PATH), TIMEOUT (seconds per file, default 120), WEFT_CACHE_DIR as for weft.
set -u
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 DIR [-- EXTRA weft ptx OPTIONS]" >&2
  exit 2
fi
dir=$1
shift
[ "${1:-}" = "--" ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${WEFT:-}" ]; then
  if [ -x "$root/target/release/weft" ]; then WEFT=$root/target/release/weft
  elif [ -x "$root/target/debug/weft" ]; then WEFT=$root/target/debug/weft
  else WEFT=weft; fi
fi
timeout_s=${TIMEOUT:-120}

declare -A n ok xf xf_ok
for lang in CUDA OpenCL; do n[$lang]=0; ok[$lang]=0; xf[$lang]=0; xf_ok[$lang]=0; done
start=$(date +%s)
while IFS= read -r -d '' f; do
  case "$f" in *.cl) lang=OpenCL ;; *) lang=CUDA ;; esac
  err=$(timeout "$timeout_s" "$WEFT" ptx "$f" "$@" 2>&1 >/dev/null)
  rc=$?
  first=$(printf '%s\n' "$err" | grep -v '^weft: note' | grep -m1 -v '^\s*$' | cut -c1-240)
  # A compile failure's first line only says so: show clang's first error instead.
  case "$first" in
    *'compilation failed:'*) first=$(printf '%s\n' "$err" | grep -m1 'error:' | cut -c1-240) ;;
  esac
  kind=$(head -1 "$f" | grep -oiE 'xfail:(CLANG_ERROR|COMMAND_LINE_ERROR)' | cut -d: -f2)
  if [ -n "$kind" ]; then
    xf[$lang]=$((xf[$lang] + 1))
    if [ $rc = 2 ] && { [ "$kind" != CLANG_ERROR ] || printf '%s' "$err" | grep -q 'compilation failed'; }; then
      xf_ok[$lang]=$((xf_ok[$lang] + 1))
      echo "XFAIL $f"
    else
      echo "XPASS $f  rc=$rc  $first"
    fi
    continue
  fi
  n[$lang]=$((n[$lang] + 1))
  if [ $rc = 0 ]; then
    ok[$lang]=$((ok[$lang] + 1))
    echo "PASS  $f"
  else
    [ $rc = 124 ] && first="timed out after ${timeout_s}s"
    echo "FAIL  $f  rc=$rc  $first"
  fi
done < <(find "$dir" -type f \( -name '*.cu' -o -name '*.cl' \) -print0 | sort -z)

echo "---"
for lang in CUDA OpenCL; do
  [ "${n[$lang]}" = 0 ] && [ "${xf[$lang]}" = 0 ] && continue
  pct=$(awk -v a="${ok[$lang]}" -v b="${n[$lang]}" 'BEGIN { if (b > 0) printf "%.1f", 100 * a / b; else print "-" }')
  echo "SUMMARY $lang: ${ok[$lang]}/${n[$lang]} compile+parse+lower ($pct%); meant-to-be-rejected (xfail:CLANG_ERROR/COMMAND_LINE_ERROR) rejected ${xf_ok[$lang]}/${xf[$lang]}"
done
echo "time: $(($(date +%s) - start)) s with $WEFT"
exit 0
