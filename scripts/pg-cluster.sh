#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the PostgreSQL test suite and benchmarks: initdb in a new temporary
# folder, pg_ctl on a free loopback port, trust authentication (loopback only, nothing of value in it).
#
#   eval "$(bash scripts/pg-cluster.sh start)"   # exports TRACKER_TEST_POSTGRES_URL and TRACKER_PG_CLUSTER
#   bash scripts/pg-cluster.sh stop "$TRACKER_PG_CLUSTER"
#
# PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user that Debian's
# package creates; otherwise to whoever runs this. Finds the server under /usr/lib/postgresql/<version>/bin
# when pg_ctl is not on the PATH.
set -euo pipefail

pg_bin() {
  if command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v pg_ctl)"
    return
  fi
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$found" ] || [ ! -x "$found/pg_ctl" ]; then
    echo "PostgreSQL is not installed (no pg_ctl); apt-get install postgresql" >&2
    exit 1
  fi
  echo "$found"
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  node -e 'const s = require("node:net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

case "${1:-}" in
  start)
    bin=$(pg_bin)
    dir=$(mktemp -d "${TMPDIR:-/tmp}/tracker-pg-XXXXXX")
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    port=$(free_port)
    as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    # Sized for a shared two-core machine: a few connections per server process, memory for the 1M benchmark.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
      -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c max_connections=200 \
          -c shared_buffers=512MB -c work_mem=32MB -c maintenance_work_mem=512MB -c fsync=off \
          -c synchronous_commit=off -c full_page_writes=off -c max_wal_size=4GB" >/dev/null ||
      { cat "$dir/server.log" >&2; exit 1; }
    echo "export TRACKER_PG_CLUSTER='$dir'"
    echo "export TRACKER_TEST_POSTGRES_URL='postgres://postgres@127.0.0.1:$port/postgres'"
    ;;
  stop)
    dir="${2:-}"
    if [ -z "$dir" ] || [ ! -d "$dir/data" ]; then
      echo "usage: bash scripts/pg-cluster.sh stop FOLDER" >&2
      exit 2
    fi
    bin=$(pg_bin)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    rm -rf "$dir"
    ;;
  *)
    echo "usage: bash scripts/pg-cluster.sh start | stop FOLDER" >&2
    exit 2
    ;;
esac
