#!/usr/bin/env bash
# Browser test of the campaign web app (issue 16): builds the web app (npm) and weft, then
# runs web/tests/browser.mjs: `weft serve` on 127.0.0.1, Debian's Chromium headless with
# WebGPU on SwiftShader, driven by playwright-core. Screenshots go to a temporary directory,
# and to docs/campaign/ only with WEFT_UPDATE_SCREENSHOTS=1 (`WEFT_UPDATE_SCREENSHOTS=1
# scripts/test-browser.sh` refreshes the committed ones).
# Also checks that the committed web/dist is what the sources build (the binary embeds it),
# that web/src/api-types.ts is current, and that no page assigns markup outside html.ts.
# Runtime: about 16 s after the builds on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
weft_install_deps
weft_install_browser_deps
# Pages render through the escaping template layer (web/src/html.ts) only: no markup
# assigned by hand anywhere else (issue 29 item 13).
if grep -rn --include='*.ts' -e 'innerHTML' -e 'outerHTML' -e 'insertAdjacentHTML' web/src | grep -v '^web/src/html.ts:'; then
  echo "test-browser: markup assigned outside web/src/html.ts (use html\`...\` and render())" >&2
  exit 1
fi
(cd web && { [ -d node_modules ] || npm ci --no-audit --no-fund; } && npm run build --silent)
if ! git diff --quiet -- web/dist 2>/dev/null; then
  echo "test-browser: web/dist differs from what web/src builds: commit the rebuilt web/dist" >&2
  git --no-pager diff --stat -- web/dist >&2
  exit 1
fi
cargo build -q -p weft
# The API types the web app is compiled against are what ts-rs generates today.
cargo test -q -p weft-server --test ts_types
node web/tests/browser.mjs target/debug/weft
