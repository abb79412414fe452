#!/usr/bin/env bash
# weft verify against a folder of kernels labelled race-free or racy by their authors
# (issue 27's acceptance, second bullet: kernels written elsewhere, tried as a new user would).
# usage: [OPTS='--only-intra-group ...'] [TIMEOUT=S] [JOBS=N] scripts/verify-labelled.sh DIR [WEFT]
#   DIR: a folder with `labels.tsv` (tests/verify/faial/): one row per run, tab-separated
#     file, args, label, authors, source, commit, note; `args` is one extra argument of that
#     run (`-DMACRO=+ 1`, `--gridDim=3`) or empty; `label` is `drf` (race-free: weft must
#     verify, exit 0), `racy` (weft must report a race: exit 1 and a `race` finding) or
#     `error` (the authors expect the input to be refused: exit 2). Lines starting with `#`
#     are comments.
#   WEFT: the weft binary (default target/release/weft); OPTS: options added to every run
#     (none by default: `weft verify FILE` as a new user runs it).
# -> one TSV line per row on stdout (file, args, label, exit code, outcome, agreement,
#   seconds, first line of the output) and a summary on stderr: rows, accepted (exit 0 or 1),
#   agree, and every row labelled racy that weft calls verified (the unsound answers).
# Outcome: `verified` (exit 0), `race` (exit 1 with a race finding), `other-error` (exit 1,
# no race finding: an assertion, an uninitialised read, a null pointer...), `refused`
# (exit 2), `undecided` (exit 3), `timeout` (past TIMEOUT, default 120 s).
set -uo pipefail
dir=$1
weft=${2:-target/release/weft}
limit=${TIMEOUT:-120}
jobs=${JOBS:-1}
opts=${OPTS:-}
one() {
  # (not `read`: a tab is IFS white space, and an empty `args` field would vanish)
  file=$(cut -f1 <<<"$1"); arg=$(cut -f2 <<<"$1"); label=$(cut -f3 <<<"$1")
  local extra=()
  [ -n "$arg" ] && extra=("$arg")
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  out=$(timeout "$limit" "$weft" verify --solver-timeout 20 $opts "${extra[@]}" "$dir/$file" 2>&1)
  rc=$?
  t1=$(date +%s.%N)
  case $rc in
    0) outcome=verified ;;
    1) if grep -q 'error: possible [a-z-]* race' <<<"$out"; then outcome=race; else outcome=other-error; fi ;;
    2) outcome=refused ;;
    3) outcome=undecided ;;
    *) outcome=timeout ;;
  esac
  case "$label:$outcome" in
    drf:verified | racy:race | error:refused) agree=agree ;;
    *) agree=disagree ;;
  esac
  first=$(head -1 <<<"$out" | tr '\t' ' ' | cut -c1-200)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\n' "$file" "$arg" "$label" "$rc" "$outcome" "$agree" \
    "$(echo "$t1 - $t0" | bc)" "$first"
}
export -f one
export weft limit opts dir
tmp=$(mktemp)
grep -v '^#' "$dir/labels.tsv" | grep . \
  | while IFS= read -r row; do printf '%s\0' "$row"; done \
  | xargs -0 -P "$jobs" -I{} bash -c 'one "$@"' _ {} | sort >"$tmp"
cat "$tmp"
n=$(wc -l <"$tmp")
acc=$(awk -F'\t' '$4 == 0 || $4 == 1' "$tmp" | wc -l)
ag=$(awk -F'\t' '$6 == "agree"' "$tmp" | wc -l)
uns=$(awk -F'\t' '$3 == "racy" && $4 == 0' "$tmp")
printf 'rows %d, accepted %d (%.1f%%), agree %d (%.1f%% of all rows), verified on a racy row: %d\n' \
  "$n" "$acc" "$(echo "100 * $acc / ($n + ($n == 0))" | bc -l)" "$ag" \
  "$(echo "100 * $ag / ($n + ($n == 0))" | bc -l)" "$(printf '%s' "$uns" | grep -c .)" >&2
[ -n "$uns" ] && printf '%s\n' "$uns" | cut -f1,2 >&2
rm -f "$tmp"
