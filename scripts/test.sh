#!/usr/bin/env bash
# The whole test suite: formatting, lints, and every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null 2>&1 || { echo "test: cargo (Rust toolchain) is required" >&2; exit 3; }
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -q -- -D warnings
cargo test --workspace --no-fail-fast 2>&1
