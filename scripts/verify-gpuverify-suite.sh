#!/usr/bin/env bash
# weft verify against the labels of GPUVerify-style test-suite kernels (issues 15 and 27's
# acceptance measurement; the kernels are public but not part of this repository).
# usage: [JOBS=N] [TIMEOUT=S] [PROGRESS=FILE] scripts/verify-gpuverify-suite.sh DIR [WEFT]
#   PROGRESS: also append each kernel's line to FILE as soon as it is done (a long run
#   stopped early keeps what it measured)
#   WEFT: the weft binary (`weft verify`), or weft-verify's `verify_file` example (same
#   library call and exit codes, without building the whole CLI: `cargo build --release -p
#   weft-verify --example verify_file`, WEFT=target/release/examples/verify_file)
#   DIR: GPUVerify's repository, its testsuite/ folder, or any folder of labelled kernels
#   (searched recursively for .cu and .cl files). To get the whole suite (Ms-PL):
#     git clone --depth 1 https://github.com/mc-imperial/gpuverify ~/.cache/weft/gpuverify
#     scripts/verify-gpuverify-suite.sh ~/.cache/weft/gpuverify/testsuite
#   -> one TSV line per kernel on stdout (file, label, weft exit code, agreement, seconds) and a
#   summary on stderr (counts, median and p95 time per kernel, and every xfail kernel weft
#   calls verified: the unsound answers).
# A kernel's first line is `//pass` or `//PASS` (must verify: exit 0) or `//xfail:KIND` /
# `//XFAIL:KIND` (an error must be reported: exit 1); `xfail:CLANG_ERROR` and
# `xfail:COMMAND_LINE_ERROR` kernels are left out (they test the compiler and GPUVerify's
# option parser), and so are files without a label (headers, host code).
# Exit 2/3 (not accepted: unsupported construct, solver timeout, something not checked) count
# as not accepted. Among the xfail kernels weft verifies, those labelled BUGLE_ERROR or
# GPUVERIFYVCGEN_ERROR (GPUVerify's own front end failed: the label says nothing of the
# kernel) are listed apart from NOT_ALL_VERIFIED / BOOGIE_ERROR ones (GPUVerify found an error).
set -uo pipefail
dir=$1
weft=${2:-target/release/weft}
jobs=${JOBS:-1}
limit=${TIMEOUT:-120}
[ -d "$dir/testsuite" ] && dir=$dir/testsuite
one() {
  f=$1
  label=$(head -1 "$f" | tr -d '\r')
  case "$label" in
    //pass|//PASS) want=0 ;;
    //xfail:CLANG_ERROR*|//xfail:COMMAND_LINE_ERROR*) return ;;
    //xfail:*|//XFAIL:*) want=1 ;;
    *) return ;;
  esac
  t0=$(date +%s.%N)
  case "$weft" in
    *verify_file) timeout "$limit" "$weft" --solver-timeout 20 "$f" >/dev/null 2>&1 ;;
    *) timeout "$limit" "$weft" verify --solver-timeout 20 "$f" >/dev/null 2>&1 ;;
  esac
  rc=$?
  t1=$(date +%s.%N)
  verdict=not-accepted
  if [ $rc = 0 ] || [ $rc = 1 ]; then
    if [ $rc = $want ]; then verdict=agree; else verdict=disagree; fi
  fi
  printf '%s\t%s\t%s\t%s\t%.2f\n' "$f" "$label" "$rc" "$verdict" "$(echo "$t1 - $t0" | bc)"
}
export -f one
export weft limit
tmp=$(mktemp)
find "$dir" \( -name '*.cu' -o -name '*.cl' \) | sort \
  | xargs -P "$jobs" -I{} bash -c 'one "$@"' _ {} \
  | if [ -n "${PROGRESS:-}" ]; then tee -a "$PROGRESS"; else cat; fi | sort >"$tmp"
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
uns=$(awk -F'\t' 'tolower($2) ~ /xfail/ && $2 !~ /BUGLE_ERROR|GPUVERIFYVCGEN_ERROR/ && $3 == 0' "$tmp")
echo "xfail kernels weft verifies (unsound unless GPUVerify's label is a false alarm): $(printf '%s' "$uns" | grep -c .)" >&2
[ -n "$uns" ] && printf '%s\n' "$uns" | cut -f1 >&2
tool=$(awk -F'\t' '$2 ~ /BUGLE_ERROR|GPUVERIFYVCGEN_ERROR/ && $3 == 0' "$tmp")
echo "kernels labelled with a GPUVerify front-end failure that weft verifies: $(printf '%s' "$tool" | grep -c .)" >&2
[ -n "$tool" ] && printf '%s\n' "$tool" | cut -f1 >&2
rm -f "$tmp"
