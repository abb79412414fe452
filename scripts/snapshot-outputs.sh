#!/usr/bin/env bash
# Outputs of one weft binary over the corpora and suites, for `diff -r` between two builds
# (issue 25's byte-identity check). Usage: scripts/snapshot-outputs.sh WEFT OUTDIR [--jobs N] [--only sim,show,...]
set -euo pipefail
exec python3 "$(dirname "$0")/snapshot-outputs.py" "$@"
