#!/usr/bin/env bash
# The whole test suite: formatting, lints, the campaign app's browser and PostgreSQL tests,
# and every test of the workspace (its summary comes last).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
weft_install_deps
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -q -- -D warnings
# The web app in Debian's Chromium with WebGPU on SwiftShader (playwright-core), served by
# `weft serve` on 127.0.0.1; and the server's API tests against a throw-away PostgreSQL.
./scripts/test-browser.sh
./scripts/test-postgres.sh
cargo test --workspace --no-fail-fast 2>&1
