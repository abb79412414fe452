#!/usr/bin/env bash
# Installs the Debian packages weft uses, each only when its command is missing.
# Sourced by setup.sh and test.sh; safe to run on its own.
set -euo pipefail

weft_install_deps() {
  local need=()
  command -v cc >/dev/null 2>&1 || need+=(build-essential)
  command -v clang-19 >/dev/null 2>&1 || command -v clang >/dev/null 2>&1 || need+=(clang-19)
  command -v dot >/dev/null 2>&1 || need+=(graphviz)
  if [ ${#need[@]} -gt 0 ]; then
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "deps: installing ${need[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi
  command -v cargo >/dev/null 2>&1 || { echo "deps: cargo (Rust toolchain) is required: https://rustup.rs" >&2; return 3; }
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  weft_install_deps
fi
