# A throwaway PostgreSQL cluster for the benchmarks, sourced:  . scripts/bench/pg-cluster.sh
#   require_pg                             fails early, saying so, without PostgreSQL's server
#   start_pg_cluster WORK DB [SETTING...]  a cluster in WORK/pg on a free loopback port, run as
#                                          postgres when root, fsync on, WAL room for a bulk load,
#                                          stopped at exit; creates DB and sets pgurl to it. Each
#                                          SETTING is a server setting, such as max_connections=100.
require_pg() {
  pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -x "$pgbin/initdb" ] || { echo "PostgreSQL is needed: apt-get install postgresql" >&2; exit 1; }
}

start_pg_cluster() {
  local work=$1 db=$2 settings="-c shared_buffers=512MB -c max_wal_size=4GB" setting
  shift 2
  for setting in "$@"; do settings+=" -c $setting"; done
  require_pg
  as_pg=(); [ "$(id -u)" = 0 ] && { chown postgres "$work"; as_pg=(runuser -u postgres --); }
  pgport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "${as_pg[@]}" "$pgbin/initdb" -D "$work/pg" -A trust -U postgres -E UTF8 >/dev/null
  "${as_pg[@]}" "$pgbin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w \
    -o "-p $pgport -k $work -c listen_addresses=127.0.0.1 $settings" start >/dev/null
  pg_work=$work
  trap '"${as_pg[@]}" "$pgbin/pg_ctl" -D "$pg_work/pg" -m fast stop >/dev/null 2>&1 || true' EXIT
  psql -q "postgres://postgres@127.0.0.1:$pgport/postgres" -c "CREATE DATABASE $db"
  pgurl="postgres://postgres@127.0.0.1:$pgport/$db?sslmode=disable"
}
