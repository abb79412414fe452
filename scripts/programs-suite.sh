#!/usr/bin/env bash
# The labelled suite of whole CUDA programs (tests/programs/, issue 26 item 5): builds each
# program once with `weft cc`, runs every labelled run under `weft exec`, `weft race` and
# `weft memcheck`, and prints the per-run table with precision and recall over the suite
# (the harness is crates/weft/tests/cli/programs.rs; builds are cached under target/tmp).
#   scripts/programs-suite.sh            the suite written here (tests/programs/FAMILY/)
#   scripts/programs-suite.sh outside    the planted-bug programs written elsewhere, and
#                                        ScoR's microbenchmarks as whole programs (sources
#                                        not in the repository: WEFT_SCOR_DIR, default /work/scor)
#   WEFT_PROGRAMS=bfs,reduce scripts/programs-suite.sh   some families only
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}"
tests=(programs_suite::programs_suite_precision_and_recall)
if [ "${1:-}" = outside ]; then
  tests=(programs_suite::outside_programs_precision_and_recall
    programs_scor::scor_programs_with_default_options)
fi
exec cargo test -p weft --test cli -- --exact --include-ignored --nocapture --test-threads 1 "${tests[@]}"
