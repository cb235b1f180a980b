#!/usr/bin/env bash
# npm run test:cluster — the tests of running beyond one machine (test/cluster/*.cluster.ts, outside npm test's
# glob): a six-node Redis Cluster, a Redis Sentinel set, and a MariaDB primary with a GTID replica, each started by
# its test on spare loopback ports and stopped by pid when it ends. The shared MariaDB (3306) and Redis (6379) are
# never touched. Mocha runs in a process group of its own: whatever a crashed test left running is stopped too.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in redis-server redis-cli mariadbd mariadb-install-db; do
  command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || { echo "test:cluster needs $tool" >&2; exit 1; }
done

# The tests choose their own servers: nothing from the caller's environment may point them at shared ones.
setsid env -u DATABASE_URL -u REDIS_URL -u REDIS_CLUSTER_NODES -u DATABASE_READ_URLS \
  npx mocha --timeout 300000 'test/cluster/**/*.cluster.ts' "$@" &
group=$!
trap 'kill -TERM -- "-$group" 2>/dev/null || true' INT TERM
status=0
wait "$group" || status=$?
kill -KILL -- "-$group" 2>/dev/null || true
exit "$status"
