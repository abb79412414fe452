#!/usr/bin/env bash
# The whole test suite: formatting, lints, and every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
weft_install_deps
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -q -- -D warnings
cargo test --workspace --no-fail-fast 2>&1
