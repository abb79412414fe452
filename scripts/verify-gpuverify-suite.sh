#!/usr/bin/env bash
# weft verify against the labels of GPUVerify-style test-suite kernels (issue 15's acceptance
# measurement; the kernels are public but not part of this repository).
# usage: [JOBS=N] scripts/verify-gpuverify-suite.sh DIR [WEFT]
#   -> one TSV line per kernel on stdout (file, label, weft exit code, agreement, seconds) and a
#   summary on stderr (counts, median and p95 time per kernel).
# A kernel's first line is `//pass` (must verify: exit 0) or `//xfail:KIND` (an error must be
# reported: exit 1); `xfail:CLANG_ERROR` kernels are left out (they test the compiler).
# Exit 2/3 (not accepted: unsupported construct, solver timeout) count as not accepted.
set -uo pipefail
dir=$1
weft=${2:-target/release/weft}
jobs=${JOBS:-1}
one() {
  f=$1
  label=$(head -1 "$f" | tr -d '\r')
  case "$label" in
    //pass) want=0 ;;
    //xfail:CLANG_ERROR*) return ;;
    //xfail:*) want=1 ;;
    *) return ;;
  esac
  t0=$(date +%s.%N)
  timeout 120 "$weft" verify --solver-timeout 20 "$f" >/dev/null 2>&1
  rc=$?
  t1=$(date +%s.%N)
  verdict=not-accepted
  if [ $rc = 0 ] || [ $rc = 1 ]; then
    if [ $rc = $want ]; then verdict=agree; else verdict=disagree; fi
  fi
  printf '%s\t%s\t%s\t%s\t%.2f\n' "$f" "$label" "$rc" "$verdict" "$(echo "$t1 - $t0" | bc)"
}
export -f one
export weft
tmp=$(mktemp)
find "$dir" \( -name '*.cu' -o -name '*.cl' \) | sort \
  | xargs -P "$jobs" -I{} bash -c 'one "$@"' _ {} | sort >"$tmp"
cat "$tmp"
n=$(wc -l <"$tmp"); acc=$(awk -F'\t' '$4 != "not-accepted"' "$tmp" | wc -l)
ag=$(awk -F'\t' '$4 == "agree"' "$tmp" | wc -l)
cut -f5 "$tmp" | sort -g | awk -v n="$n" -v acc="$acc" -v ag="$ag" '{ t[NR] = $1 }
  END {
    if (n == 0) exit
    med = (n % 2) ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
    i = int(0.95 * n); if (i < 0.95 * n) i++
    printf "kernels %d, accepted %d (%.1f%%), agree %d (%.1f%% of accepted); time per kernel: median %.2f s, p95 %.2f s\n",
      n, acc, 100 * acc / n, ag, 100 * ag / (acc ? acc : 1), med, t[i]
  }' >&2
rm -f "$tmp"
