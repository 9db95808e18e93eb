#!/usr/bin/env bash
# Starts the machine's PostgreSQL (Debian's cluster) if it is down, makes sure the test role and database
# exist, and prints the URL the tests use. Run by Tests/run.sh; needs root or sudo.
set -euo pipefail
# Only the URL goes to stdout (the caller captures it); pg_ctlcluster and friends talk on stderr.
exec 3>&1 1>&2
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
as_postgres() { as_root su postgres -c "$1"; }
cluster=$(pg_lsclusters --no-header | awk 'NR == 1 {print $1, $2, $3, $4}')
[ -n "$cluster" ] || { echo "no PostgreSQL cluster (apt-get install postgresql)" >&2; exit 1; }
read -r version name port status <<<"$cluster"
# 3>&- keeps the postmaster from inheriting the caller's stdout pipe (which would never close).
[ "$status" = online ] || as_root pg_ctlcluster "$version" "$name" start 3>&-
for _ in $(seq 50); do as_postgres "psql -p $port -qAtc 'select 1'" >/dev/null 2>&1 && break; sleep 0.2; done
as_postgres "psql -p $port -qc \"DO \\\$\\\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'storegate_test')
    THEN CREATE ROLE storegate_test LOGIN PASSWORD 'storegate_test'; END IF; END \\\$\\\$;\"" >/dev/null
# A fresh database for every run: schemas made by earlier runs go with it.
as_postgres "dropdb -p $port --if-exists storegate_test && createdb -p $port -O storegate_test storegate_test"
echo >&3 "postgres://storegate_test:storegate_test@127.0.0.1:$port/storegate_test"
