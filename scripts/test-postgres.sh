#!/usr/bin/env bash
# The campaign server's API tests against PostgreSQL (issue 16): starts a throw-away
# PostgreSQL cluster from Debian's `postgresql` package on 127.0.0.1 and a free port, runs
# `cargo test -p weft-server --test api` with WEFT_TEST_POSTGRES pointing at it (every API
# test then also runs on PostgreSQL, each in its own database, the migration of a schema
# version 1 database included), and removes the cluster.
# Runtime: about 20 s after the build on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bin" ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
fi
dir=$(mktemp -d /tmp/weft-pg.XXXXXX)
port=$((20000 + RANDOM % 20000))
as_pg=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres "$dir"
  as_pg=(runuser -u postgres --)
fi
"${as_pg[@]}" "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >/dev/null
"${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
trap '"${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
WEFT_TEST_POSTGRES="postgres://postgres@127.0.0.1:$port/postgres" \
  cargo test -q -p weft-server --test api -- --test-threads 4 "$@"
