#!/usr/bin/env bash
# Starts PgBouncer in transaction pooling mode in front of the PostgreSQL at 127.0.0.1:5432, as
# production may run it, and prints its address (postgres://postgres@127.0.0.1:<port>). Every
# database of that server is reachable through it under its own name. Its configuration, log and
# pid file go in the directory given (made when missing); `kill "$(cat <dir>/pgbouncer.pid)"` stops it.
#   .ci/pgbouncer.sh <dir>
set -euo pipefail

dir=${1:?usage: .ci/pgbouncer.sh <dir>}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

bin=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)
if [ ! -x "$bin" ]; then
  echo "Installing PgBouncer..." >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null
  bin=/usr/sbin/pgbouncer
fi

# A free port, chosen by the system.
port=$(node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")

# trust: PostgreSQL here trusts local connections; the user must still be listed in the auth file.
# default_pool_size: server connections per database and user, what the product's pools share.
# No ignore_startup_parameters: the product sends none that PgBouncer does not know.
cat >"$dir/pgbouncer.ini" <<EOF
[databases]
* = host=127.0.0.1 port=5432

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $dir/users.txt
admin_users = postgres
pool_mode = transaction
max_client_conn = 4000
default_pool_size = 20
reserve_pool_size = 5
server_idle_timeout = 30
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
EOF
echo '"postgres" ""' >"$dir/users.txt"

# PgBouncer refuses to run as root: it runs as postgres, which must reach the directory (one
# directly under /tmp, as mktemp makes it, or under another directory it may enter).
if [ "$(id -u)" = 0 ]; then
  chown -R postgres "$dir"
  chmod 755 "$dir"
  "$bin" -d -u postgres "$dir/pgbouncer.ini" >&2
else
  "$bin" -d "$dir/pgbouncer.ini" >&2
fi

for _ in $(seq 1 100); do
  if pg_isready -q -h 127.0.0.1 -p "$port" -U postgres 2>/dev/null; then
    echo "postgres://postgres@127.0.0.1:$port"
    exit 0
  fi
  sleep 0.1
done
echo "PgBouncer did not start on port $port (see $dir/pgbouncer.log)" >&2
exit 1
