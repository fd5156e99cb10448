#!/usr/bin/env bash
# Regina at scale, one command:
#   bench/scale.sh restart [messages]        restart time with N messages stored (default 1,000,000)
#   bench/scale.sh failed-jobs [rows]        failed-jobs table at N rows (default 1,000,000): pages, count,
#                                            text search, retry-all, pop latency during retry-all
#   bench/scale.sh all                       both
# Each starts its own broker jar (io.regina.testing.BrokerProcess) on free loopback ports with a temp
# data dir and stops it. Environment: MVN_FLAGS (e.g. -o), BROKER_HEAP (default 4g).
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
size=${2:-1000000}
MVN="mvn -q ${MVN_FLAGS:-}"
mkdir -p target/bench
if ! ls target/regina-*.jar >/dev/null 2>&1; then
  $MVN -DskipTests package
fi
$MVN -DskipTests test-compile
CP_FILE=target/bench/classpath.txt
if [ ! -s "$CP_FILE" ] || [ pom.xml -nt "$CP_FILE" ]; then
  $MVN dependency:build-classpath -Dmdep.outputFile="$CP_FILE" -Dmdep.includeScope=test >&2
fi
CP="target/test-classes:target/classes:$(cat "$CP_FILE")"
HEAP="-Dbroker.heap=-Xmx${BROKER_HEAP:-4g}"
case "$what" in
  restart) java "$HEAP" -cp "$CP" io.regina.bench.RestartBenchmark "$size" ;;
  failed-jobs) java "$HEAP" -cp "$CP" io.regina.bench.FailedJobsBenchmark "$size" ;;
  all)
    java "$HEAP" -cp "$CP" io.regina.bench.RestartBenchmark "$size"
    java "$HEAP" -cp "$CP" io.regina.bench.FailedJobsBenchmark "$size"
    ;;
  *) echo "usage: bench/scale.sh restart|failed-jobs|all [count]" >&2; exit 2 ;;
esac
