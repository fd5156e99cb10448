#!/usr/bin/env bash
# Regina side by side with its peers, in one command:
#   bench/run.sh                 full run: every lane, 3 runs each, median and spread (about 40 minutes)
#   bench/run.sh --quick         one short run of every lane (about 5 minutes)
#   bench/run.sh --lanes pool,paced --runs 2 --workers 32 --rates 500
#   bench/run.sh --systems regina,redis     only these (of regina, redis, rabbitmq)
# Other arguments go to the client (io.regina.bench.Benchmark): --jobs N, --job-ms 10,0, --paced-seconds N,
# --slow-push-ms N (list the paced pushes slower than N ms in target/bench/slow-pushes.txt: when, how late the
# pusher began, how long the request took).
# Environment: MVN_FLAGS (e.g. -o for offline), BROKER_JAVA_OPTS (Regina's JVM flags; default none, the
# jar's own defaults), BENCH_TIMEOUT (seconds).
#
# Installs redis-server and rabbitmq-server with apt-get where missing; starts Regina (the jar), Redis
# (appendonly yes, appendfsync always, no AOF rewrite) and RabbitMQ (own epmd; the client declares a quorum
# queue) on free loopback ports with their data in one fresh temp dir; runs the client, which drives all of
# them with the same worker model; stops each by its PID. Results: target/bench/results.md, results.csv and
# chart.svg; logs beside them.
set -euo pipefail
cd "$(dirname "$0")/.."

QUICK=0
SYSTEMS=regina,redis,rabbitmq
CLIENT_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1; CLIENT_ARGS+=(--quick) ;;
    --systems) SYSTEMS=$2; shift ;;
    --systems=*) SYSTEMS=${1#--systems=} ;;
    *) CLIENT_ARGS+=("$1") ;;
  esac
  shift
done
want() { [[ ",$SYSTEMS," == *",$1,"* ]]; }
if [ "$QUICK" = 1 ]; then LIMIT=${BENCH_TIMEOUT:-900}; else LIMIT=${BENCH_TIMEOUT:-5400}; fi
OUT=target/bench
mkdir -p "$OUT"

# ------------------------------------------------------------------ what the peers need
RABBIT_BIN=/usr/lib/rabbitmq/bin
missing=()
if want redis && ! command -v redis-server >/dev/null; then missing+=(redis-server redis-tools); fi
if want rabbitmq && [ ! -x "$RABBIT_BIN/rabbitmq-server" ]; then missing+=(rabbitmq-server); fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} (apt-get; services are not started by it here)..." >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi

# ------------------------------------------------------------------ the broker jar and the client
MVN="mvn -q ${MVN_FLAGS:-}"
jar() { ls target/regina-*.jar 2>/dev/null | grep -v -- '-plain\.jar$' | head -1 || true; }
if [ -z "$(jar)" ]; then
  echo "building the broker jar (mvn -q -DskipTests package)..." >&2
  $MVN -DskipTests package
elif [ ! -f target/test-classes/io/regina/bench/Benchmark.class ] \
    || [ -n "$(find src/test/java/io/regina/bench -newer target/test-classes/io/regina/bench/Benchmark.class)" ]; then
  echo "compiling the benchmark client (mvn -q -DskipTests test-compile)..." >&2
  $MVN -DskipTests test-compile
fi
JAR=$(jar)
[ -n "$JAR" ] || { echo "no target/regina-*.jar after the build" >&2; exit 1; }
CP_FILE=$OUT/classpath.txt
if [ ! -s "$CP_FILE" ] || [ pom.xml -nt "$CP_FILE" ]; then
  $MVN dependency:build-classpath -Dmdep.outputFile="$CP_FILE" -Dmdep.includeScope=test >&2
fi
CP="target/test-classes:target/classes:$(cat "$CP_FILE")"

# ------------------------------------------------------------------ ports, temp dir, clean-up by PID
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
TAKEN=" "
free_port() {
  local p
  while :; do
    p=$(( 20000 + RANDOM % 30000 ))
    if [[ "$TAKEN" != *" $p "* ]] && port_free "$p"; then TAKEN+="$p "; echo "$p"; return; fi
  done
}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/regina-bench.XXXXXX")
REGINA_PID="" REDIS_PID="" RABBIT_PID="" EPMD_PID=""

stop_pid() { # name pid seconds: TERM, wait, then KILL
  local name=$1 pid=$2 i
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 $(( $3 * 10 ))); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  echo "$name ($pid) did not stop in $3 s: SIGKILL" >&2
  kill -KILL "$pid" 2>/dev/null || true
}
cleanup() {
  stop_pid regina "$REGINA_PID" 20
  stop_pid redis "$REDIS_PID" 10
  # the server script stops its node cleanly on TERM; the beam it started goes with it
  stop_pid rabbitmq "$RABBIT_PID" 30
  [ -n "$RABBIT_BEAM" ] && stop_pid rabbitmq-beam "$RABBIT_BEAM" 5
  stop_pid epmd "$EPMD_PID" 5
  wait 2>/dev/null || true
  cp "$DIR"/*.log "$OUT"/ 2>/dev/null || true
  rm -rf "$DIR"
}
RABBIT_BEAM=""
trap cleanup EXIT
trap 'exit 130' INT TERM
ARGS=(--out "$OUT" --nproc "$(nproc)" --clk-tck "$(getconf CLK_TCK)"
      --java "$(java -version 2>&1 | sed -n 2p)")

# ------------------------------------------------------------------ Redis
if want redis; then
  REDIS_PORT=$(free_port)
  mkdir -p "$DIR/redis"
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$DIR/redis" --appendonly yes --appendfsync always \
    --auto-aof-rewrite-percentage 0 --save '' --daemonize yes --pidfile "$DIR/redis/redis.pid" \
    --logfile "$DIR/redis.log"
  for i in $(seq 1 100); do
    [ -s "$DIR/redis/redis.pid" ] && redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break
    [ "$i" = 100 ] && { echo "redis did not start; see $DIR/redis.log" >&2; exit 1; }
    sleep 0.1
  done
  REDIS_PID=$(cat "$DIR/redis/redis.pid")
  echo "redis $(redis-server --version | cut -d' ' -f3) on 127.0.0.1:$REDIS_PORT (pid $REDIS_PID):" \
    "appendfsync $(redis-cli -p "$REDIS_PORT" config get appendfsync | tail -1)" >&2
  ARGS+=(--redis-port "$REDIS_PORT" --redis-pid "$REDIS_PID")
fi

# ------------------------------------------------------------------ RabbitMQ (PEERS.md's recipe)
if want rabbitmq; then
  R=$DIR/rabbit
  mkdir -p "$R/home" "$R/mnesia" "$R/log"
  RABBIT_PORT=$(free_port)
  export ERL_EPMD_PORT=$(free_port) ERL_EPMD_ADDRESS=127.0.0.1
  # our own epmd, so that stopping it by its PID stops nothing anyone else uses
  epmd -address 127.0.0.1 -port "$ERL_EPMD_PORT" >"$DIR/epmd.log" 2>&1 &
  EPMD_PID=$!
  echo "listeners.tcp.default = 127.0.0.1:$RABBIT_PORT" >"$R/rabbitmq.conf"
  echo "[]." >"$R/advanced.config"
  echo "[]." >"$R/enabled_plugins"
  : >"$R/rabbitmq-env.conf"
  rabbit_env() {
    env HOME="$R/home" PATH="$RABBIT_BIN:$PATH" RABBITMQ_NODENAME=bench@localhost \
      RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_NODE_PORT="$RABBIT_PORT" RABBITMQ_DIST_PORT="$RABBIT_DIST" \
      RABBITMQ_MNESIA_BASE="$R/mnesia" RABBITMQ_LOG_BASE="$R/log" RABBITMQ_CONFIG_FILE="$R/rabbitmq.conf" \
      RABBITMQ_ADVANCED_CONFIG_FILE="$R/advanced.config" RABBITMQ_ENABLED_PLUGINS_FILE="$R/enabled_plugins" \
      RABBITMQ_CONF_ENV_FILE="$R/rabbitmq-env.conf" RABBITMQ_PID_FILE="$R/beam.pid" \
      RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}" "$@"
  }
  RABBIT_DIST=$(free_port)
  sleep 0.3
  rabbit_env nohup "$RABBIT_BIN/rabbitmq-server" >"$DIR/rabbitmq.log" 2>&1 &
  RABBIT_PID=$!
  for i in $(seq 1 120); do
    if rabbit_env "$RABBIT_BIN/rabbitmqctl" -q status >/dev/null 2>&1; then break; fi
    if ! kill -0 "$RABBIT_PID" 2>/dev/null || [ "$i" = 120 ]; then
      echo "rabbitmq did not start; last lines of its log:" >&2; tail -30 "$DIR/rabbitmq.log" >&2; exit 1
    fi
    sleep 0.5
  done
  RABBIT_BEAM=$(cat "$R/beam.pid")
  echo "rabbitmq $(rabbit_env "$RABBIT_BIN/rabbitmqctl" -q version) on 127.0.0.1:$RABBIT_PORT" \
    "(server script pid $RABBIT_PID, beam pid $RABBIT_BEAM, epmd pid $EPMD_PID)" >&2
  ARGS+=(--rabbit-port "$RABBIT_PORT" --rabbit-pid "$RABBIT_BEAM")
fi

# ------------------------------------------------------------------ Regina
if want regina; then
  HTTP_PORT=$(free_port)
  RAFT_PORT=$(free_port)
  read -r -a JOPTS <<<"${BROKER_JAVA_OPTS:-}"
  java ${JOPTS[@]+"${JOPTS[@]}"} -jar "$JAR" --server.port="$HTTP_PORT" --regina.data-dir="$DIR/regina" \
    --regina.raft-port="$RAFT_PORT" >"$DIR/regina.log" 2>&1 &
  REGINA_PID=$!
  URL="http://127.0.0.1:$HTTP_PORT"
  for i in $(seq 1 600); do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$URL/health" || true)
    [ "$code" = 200 ] && break
    if ! kill -0 "$REGINA_PID" 2>/dev/null || [ "$i" = 600 ]; then
      echo "regina was not healthy; last lines of its log:" >&2; tail -40 "$DIR/regina.log" >&2; exit 1
    fi
    sleep 0.1
  done
  COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
  echo "regina $(basename "$JAR") @ $COMMIT on $URL (pid $REGINA_PID)" >&2
  ARGS+=(--regina-url "$URL" --regina-pid "$REGINA_PID"
         --regina-build "$(basename "$JAR") @ $COMMIT, JVM flags: ${BROKER_JAVA_OPTS:-none, the jar defaults}")
fi

# ------------------------------------------------------------------ the client
set +e
timeout --signal=TERM "$LIMIT" java -Xmx1g -cp "$CP" io.regina.bench.Benchmark "${ARGS[@]}" \
  ${CLIENT_ARGS[@]+"${CLIENT_ARGS[@]}"}
STATUS=$?
set -e
[ "$STATUS" = 124 ] && echo "the client hit the ${LIMIT} s limit and was stopped: no tables" >&2
if [ -f "$DIR/regina.log" ]; then
  PAUSES=$(grep -c "Detected pause" "$DIR/regina.log" || true)
  NOTE="- Regina's log: $PAUSES JVM/host pauses reported by Ratis' JvmPauseMonitor"
  echo "$NOTE"
  [ -f "$OUT/results.md" ] && echo "$NOTE" >>"$OUT/results.md"
fi
exit "$STATUS"
