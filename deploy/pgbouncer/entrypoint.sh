#!/bin/bash
set -euo pipefail
echo "giftcard = host=${DB_HOST} port=5432 dbname=giftcard" > /tmp/pgbouncer-databases.ini
printf '"%s" "%s"\n' "$DB_USER" "$DB_PASSWORD" > /tmp/pgbouncer-userlist.txt
chmod 600 /tmp/pgbouncer-userlist.txt
exec pgbouncer /etc/pgbouncer/pgbouncer.ini
