#!/usr/bin/env bash
# Regina at scale, one command:
#   bench/scale.sh restart [messages]        restart time with N messages stored (default 1,000,000)
#   bench/scale.sh failed-jobs [rows]        failed-jobs table at N rows (default 1,000,000): pages, count,
#                                            text search, restart, retry and flush, and the push / pop latency
#                                            of other queues idle, during a fill acked completed and one
#                                            dead-lettered at the same pace (FILL_RATE rows/s, default 20000;
#                                            0: as fast as it goes), the retry and the flush
#   bench/scale.sh partitions [n]            one message in each of N partitions (default 5,000) drained by 10
#                                            concurrent wildcard pops of batch 1, against the same drain over 10
#                                            partitions: messages/s and broker CPU per 1,000 messages
#   bench/scale.sh auth                      push (one message per request, 16 connections) and pop+ack (16
#                                            workers) for 5 s each, against a broker with API auth off and one
#                                            with auth on (HS256, a read-write token on every request):
#                                            messages/s and broker CPU per 1,000 messages side by side
#   bench/scale.sh workers [lane]            the worker lanes with queue:work (pool, burst, paced, requests; default
#                                            all): jobs/s, broker CPU, workers' PSS, autoscaling burst, paced
#                                            latency, HTTP requests per job
#   bench/scale.sh all                       restart and failed-jobs
# Each starts its own broker jar (io.regina.testing.BrokerProcess) on free loopback ports with a temp
# data dir and stops it. Environment: MVN_FLAGS (e.g. -o), BROKER_HEAP (default 4g), FILL_RATE.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
if [ "$what" = partitions ]; then
  size=${2:-5000}
else
  size=${2:-1000000}
fi
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
  failed-jobs) java "$HEAP" -Dfill.rate="${FILL_RATE:-20000}" -cp "$CP" io.regina.bench.FailedJobsBenchmark "$size" ;;
  partitions) java "$HEAP" -Dclk.tck="$(getconf CLK_TCK)" -cp "$CP" io.regina.bench.PartitionsBenchmark "$size" ;;
  auth) java "$HEAP" -Dclk.tck="$(getconf CLK_TCK)" -cp "$CP" io.regina.bench.AuthBenchmark ;;
  workers) java -Dbroker.heap="-Xmx${BROKER_HEAP:-2g}" -Dclk.tck="$(getconf CLK_TCK)" -cp "$CP" \
      io.regina.bench.WorkerBenchmark "${2:-all}" ;;
  all)
    java "$HEAP" -cp "$CP" io.regina.bench.RestartBenchmark "$size"
    java "$HEAP" -Dfill.rate="${FILL_RATE:-20000}" -cp "$CP" io.regina.bench.FailedJobsBenchmark "$size"
    ;;
  *) echo "usage: bench/scale.sh restart|failed-jobs|partitions|auth|workers|all [count|lane]" >&2; exit 2 ;;
esac
