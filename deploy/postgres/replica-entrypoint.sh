#!/bin/bash
# The replica: on first start, a base backup of the primary (pg_basebackup -R
# writes standby.signal and primary_conninfo); then a hot standby streaming WAL.
set -euo pipefail
export PGPASSWORD="$REPLICATION_PASSWORD"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_isready -h "$PRIMARY_HOST" -p 5432; do sleep 1; done
  rm -rf "${PGDATA:?}"/*
  pg_basebackup -h "$PRIMARY_HOST" -p 5432 -U replicator -D "$PGDATA" -R -X stream -S replica1
  chmod 0700 "$PGDATA"
fi
exec postgres -c hot_standby=on -c max_connections=200
