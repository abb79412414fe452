#!/usr/bin/env bash
# Installs the Debian packages weft uses, each only when its command is missing.
# Sourced by setup.sh and test.sh; safe to run on its own.
set -euo pipefail

weft_install_deps() {
  local need=()
  command -v cc >/dev/null 2>&1 || need+=(build-essential)
  command -v clang-19 >/dev/null 2>&1 || command -v clang >/dev/null 2>&1 || need+=(clang-19)
  [ -f /usr/lib/clc/nvptx64--nvidiacl.bc ] || need+=(libclc-19)  # OpenCL built-ins (weft-cuda)
  command -v dot >/dev/null 2>&1 || need+=(graphviz)
  # SMT solver for `weft verify` (cvc5 is optional: `--solver cvc5`).
  command -v z3 >/dev/null 2>&1 || need+=(z3)
  # Mesa's lavapipe: a Vulkan device on the CPU, so wgpu runs litmus tests without a GPU.
  ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1 || need+=(mesa-vulkan-drivers)
  [ -e /usr/lib/x86_64-linux-gnu/libvulkan.so.1 ] || [ -e /usr/lib/aarch64-linux-gnu/libvulkan.so.1 ] ||
    ldconfig -p 2>/dev/null | grep -q 'libvulkan\.so\.1' || need+=(libvulkan1)
  if [ ${#need[@]} -gt 0 ]; then
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "deps: installing ${need[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi
  command -v cargo >/dev/null 2>&1 || { echo "deps: cargo (Rust toolchain) is required: https://rustup.rs" >&2; return 3; }
}

# The campaign web app's browser test (scripts/test-browser.sh): Node.js with npm, and
# Debian's Chromium (WebGPU on SwiftShader, driven headless by playwright-core).
weft_install_browser_deps() {
  local need=()
  command -v npm >/dev/null 2>&1 || need+=(nodejs npm)
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  if [ ${#need[@]} -gt 0 ]; then
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "deps: installing ${need[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  weft_install_deps
fi
