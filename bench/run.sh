#!/usr/bin/env bash
# Regina's benchmark in one command:
#   bench/run.sh            full run: 3 runs per lane, median and spread (about 8-10 minutes)
#   bench/run.sh --quick    one run per lane, smaller lanes (about 2 minutes)
# Other arguments go to the client (io.regina.bench.Benchmark), e.g. --lanes push,pool or --runs 5.
# Environment: MVN_FLAGS (e.g. -o for offline), BROKER_HEAP (default 2g), BENCH_TIMEOUT (seconds).
#
# Builds the jar when missing, starts it as a child process on free loopback ports with a fresh temp
# data dir, waits for GET /health = 200, runs the client, stops the broker by its PID and prints the
# Markdown table. Results: target/bench/results.csv and target/bench/results.md; broker log:
# target/bench/broker.log.
set -euo pipefail
cd "$(dirname "$0")/.."

QUICK=0
CLIENT_ARGS=()
for a in "$@"; do
  case "$a" in
    --quick) QUICK=1; CLIENT_ARGS+=(--quick) ;;
    *) CLIENT_ARGS+=("$a") ;;
  esac
done
if [ "$QUICK" = 1 ]; then LIMIT=${BENCH_TIMEOUT:-300}; else LIMIT=${BENCH_TIMEOUT:-900}; fi

MVN="mvn -q ${MVN_FLAGS:-}"
mkdir -p target/bench

jar() { ls target/regina-*.jar 2>/dev/null | grep -v -- '-plain\.jar$' | head -1 || true; }

if [ -z "$(jar)" ]; then
  echo "building the broker jar (mvn -q -DskipTests package)..." >&2
  $MVN -DskipTests package
elif [ ! -f target/test-classes/io/regina/bench/Benchmark.class ] \
    || [ src/test/java/io/regina/bench/Benchmark.java -nt target/test-classes/io/regina/bench/Benchmark.class ]; then
  echo "compiling the benchmark client (mvn -q -DskipTests test-compile)..." >&2
  $MVN -DskipTests test-compile
fi
JAR=$(jar)
[ -n "$JAR" ] || { echo "no target/regina-*.jar after the build" >&2; exit 1; }

CP_FILE=target/bench/classpath.txt
if [ ! -s "$CP_FILE" ] || [ pom.xml -nt "$CP_FILE" ]; then
  $MVN dependency:build-classpath -Dmdep.outputFile="$CP_FILE" -Dmdep.includeScope=test >&2
fi
CP="target/test-classes:target/classes:$(cat "$CP_FILE")"

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
  local p
  while :; do
    p=$(( 20000 + RANDOM % 30000 ))
    if port_free "$p"; then echo "$p"; return; fi
  done
}
HTTP_PORT=$(free_port)
RAFT_PORT=$(free_port)
while [ "$RAFT_PORT" = "$HTTP_PORT" ]; do RAFT_PORT=$(free_port); done

DATA_DIR=$(mktemp -d "${TMPDIR:-/tmp}/regina-bench.XXXXXX")
LOG=target/bench/broker.log
BROKER_PID=""

stop_broker() {
  if [ -n "$BROKER_PID" ] && kill -0 "$BROKER_PID" 2>/dev/null; then
    kill "$BROKER_PID" 2>/dev/null || true
    for _ in $(seq 1 200); do
      kill -0 "$BROKER_PID" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$BROKER_PID" 2>/dev/null; then
      echo "broker $BROKER_PID did not stop in 20 s: SIGKILL" >&2
      kill -9 "$BROKER_PID" 2>/dev/null || true
    fi
    wait "$BROKER_PID" 2>/dev/null || true
  fi
  BROKER_PID=""
  rm -rf "$DATA_DIR"
}
trap stop_broker EXIT
trap 'stop_broker; exit 130' INT TERM

BROKER_HEAP=${BROKER_HEAP:-2g}
echo "starting $JAR: http 127.0.0.1:$HTTP_PORT, raft $RAFT_PORT, data $DATA_DIR, -Xmx$BROKER_HEAP" >&2
java -Xmx"$BROKER_HEAP" -jar "$JAR" --server.port="$HTTP_PORT" --regina.data-dir="$DATA_DIR" \
  --regina.raft-port="$RAFT_PORT" >"$LOG" 2>&1 &
BROKER_PID=$!

URL="http://127.0.0.1:$HTTP_PORT"
for i in $(seq 1 600); do
  if ! kill -0 "$BROKER_PID" 2>/dev/null; then
    echo "the broker exited before it was healthy; last lines of $LOG:" >&2
    tail -40 "$LOG" >&2
    exit 1
  fi
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$URL/health" || true)
  [ "$code" = 200 ] && break
  if [ "$i" = 600 ]; then
    echo "the broker was not healthy after 60 s; last lines of $LOG:" >&2
    tail -40 "$LOG" >&2
    exit 1
  fi
  sleep 0.1
done
echo "broker healthy (pid $BROKER_PID)" >&2

COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
JAVA_VERSION=$(java -version 2>&1 | head -2 | tail -1)
set +e
timeout --signal=TERM "$LIMIT" java -Xmx1g -cp "$CP" io.regina.bench.Benchmark --url "$URL" \
  --broker-pid "$BROKER_PID" --nproc "$(nproc)" --clk-tck "$(getconf CLK_TCK)" \
  --java "$JAVA_VERSION" --broker "$(basename "$JAR") @ $COMMIT, -Xmx$BROKER_HEAP, single node" \
  --csv target/bench/results.csv --md target/bench/results.md "${CLIENT_ARGS[@]}"
STATUS=$?
set -e
if [ "$STATUS" = 124 ]; then
  echo "the benchmark client hit the ${LIMIT} s limit and was stopped: no table" >&2
fi
PAUSES=$(grep -c "Detected pause" "$LOG" || true)
LONGEST=$(grep -o "approximately [0-9.]*s" "$LOG" | sort -t' ' -k2 -g | tail -1 | cut -d' ' -f2 || true)
NOTE="- broker log ($LOG): $PAUSES JVM/host pauses reported by Ratis' JvmPauseMonitor${LONGEST:+, longest $LONGEST}"
echo "$NOTE"
[ -f target/bench/results.md ] && echo "$NOTE" >> target/bench/results.md
stop_broker
trap - EXIT
exit "$STATUS"
