#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL server:
#   scripts/with-postgres.sh npx vitest run apps/api/src/db
# Starts a new server in a temporary folder on a free 127.0.0.1 port, exports TEST_DATABASE_URL
# (postgres://postgres@127.0.0.1:<port>/postgres, trust auth), runs the command, then stops the server and
# deletes the folder whatever happened (exit, error, Ctrl-C, SIGTERM). Every run is independent: nothing is
# shared with another run or with a system cluster, so runs can be repeated, nested or run side by side.
# Exits with the command's status.
#
# Needs PostgreSQL's server binaries: PG_BIN=/path/to/bin, else initdb on PATH, else the newest
# /usr/lib/postgresql/*/bin (Debian/Ubuntu: apt-get install postgresql). initdb refuses to run as root, so
# as root the server runs as the `postgres` user (or `nobody` if there is none); the command itself runs as
# the caller.
set -euo pipefail

if [[ $# -eq 0 ]]; then
  echo "usage: $0 command [args…]" >&2
  exit 2
fi

find_bin() {
  if [[ -n "${PG_BIN:-}" ]]; then
    echo "$PG_BIN"
  elif command -v initdb >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
  else
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    [[ -n "$dir" ]] && echo "$dir"
  fi
}
PG_BIN=$(find_bin || true)
if [[ -z "$PG_BIN" || ! -x "$PG_BIN/initdb" || ! -x "$PG_BIN/pg_ctl" ]]; then
  echo "with-postgres: PostgreSQL server binaries not found (set PG_BIN, or apt-get install postgresql)" >&2
  exit 127
fi

as_server=()
if [[ $(id -u) -eq 0 ]]; then
  server_user=postgres
  id -u "$server_user" >/dev/null 2>&1 || server_user=nobody
  as_server=(runuser -u "$server_user" --)
fi

workdir=$(mktemp -d "${TMPDIR:-/tmp}/guildhall-pg.XXXXXX")
[[ ${#as_server[@]} -gt 0 ]] && chown "$server_user" "$workdir"
data="$workdir/data"
log="$workdir/server.log"

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [[ -f "$data/postmaster.pid" ]]; then
    "${as_server[@]}" "$PG_BIN/pg_ctl" -D "$data" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
  fi
  rm -rf "$workdir"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"${as_server[@]}" "$PG_BIN/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
  --no-sync >"$workdir/initdb.log" 2>&1 || {
  cat "$workdir/initdb.log" >&2
  exit 1
}

free_port() {
  node -e "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

# Another process may take the port between choosing and binding it: try a few ports.
started=
for _ in 1 2 3 4 5; do
  port=$(free_port)
  # A throwaway server: durability off (faster), sockets in our folder, room for parallel test files.
  if "${as_server[@]}" "$PG_BIN/pg_ctl" -D "$data" -l "$log" -w -t 60 start -o "-h 127.0.0.1 -p $port \
    -k $workdir -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    >/dev/null 2>&1; then
    started=1
    break
  fi
done
if [[ -z "$started" ]]; then
  echo "with-postgres: the server did not start; its log:" >&2
  cat "$log" >&2 || true
  exit 1
fi

export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
echo "with-postgres: PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') at $TEST_DATABASE_URL" >&2

set +e
"$@"
status=$?
set -e
exit "$status"
