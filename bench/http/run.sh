#!/bin/sh
# HTTP benchmark: puzzled beside nginx on the same machine, in the same run, loopback only.
#   bench/http/run.sh [path/to/puzzled]      (default: build/puzzled)
#   env: DURATION (5s per measurement), ROUNDS (3), SCENARIOS (all: see below), RUBIKS (1),
#        NGINX_WORKERS (1: nginx's worker processes; puzzled uses one HTTP thread per core)
# nginx answers a fixed JSON body (the nine sample's answer, bench/http/nginx.conf, one worker
# process); puzzled solves the nine sample (bench/http/post_nine.lua) with its defaults. For
# each scenario the two targets alternate, ROUNDS times, so that a change in the machine's load
# hits both; it prints each measurement, then the medians and the ratio puzzled / nginx of the
# median requests per second. Scenarios:
#   keepalive  wrk -t2 -c64, keep-alive connections (the figure the README quotes)
#   c1         wrk -t1 -c1: one connection, one request at a time (latency-bound)
#   close      wrk -t2 -c64 with Connection: close (a TCP connection per request; the header is
#              set by post_nine.lua, since wrk's -H "Connection:close" is not honoured by
#              libmicrohttpd 0.9.75)
#   healthz    GET /healthz against nginx's fixed body (the HTTP layer alone, no worker hop)
# Then bench/http/rubiks_1000.sh: a 1000 x 1000 Rubik's Rectangle answer's time to last byte.
# Ports are ephemeral (puzzled --port 0; nginx on a port found free just before).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
binary=${1:-$here/../../build/puzzled}
duration=${DURATION:-5s}
rounds=${ROUNDS:-3}
scenarios=${SCENARIOS:-keepalive c1 close healthz}
work=$(mktemp -d)
nginx_pid=""
puzzled_pid=""
cleanup() {
    [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null || true
    [ -n "$puzzled_pid" ] && kill "$puzzled_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

mkdir -p "$work/tmp"
nginx_port=$(free_port)
sed -e "s/@PORT@/$nginx_port/" -e "s/^worker_processes 1;/worker_processes ${NGINX_WORKERS:-1};/" \
    "$here/nginx.conf" >"$work/nginx.conf"
nginx -p "$work" -c "$work/nginx.conf" &
nginx_pid=$!
"$binary" --port 0 --bind 127.0.0.1 >"$work/puzzled.log" 2>"$work/puzzled.err" &
puzzled_pid=$!
puzzled_port=""
for _ in $(seq 100); do
    [ -z "$puzzled_port" ] &&
        puzzled_port=$(sed -n 's/.*"msg":"listening".*"port":\([0-9]*\).*/\1/p' "$work/puzzled.log" 2>/dev/null | head -1)
    if [ -n "$puzzled_port" ] && curl -fs "http://127.0.0.1:$nginx_port/" >/dev/null &&
        curl -fs "http://127.0.0.1:$puzzled_port/healthz" >/dev/null; then break; fi
    sleep 0.1
done
[ -n "$puzzled_port" ] || { echo "puzzled did not start" >&2; exit 1; }
nginx_url="http://127.0.0.1:$nginx_port/solve/nine"
solve_url="http://127.0.0.1:$puzzled_port/solve/nine"
healthz_url="http://127.0.0.1:$puzzled_port/healthz"
post="-s $here/post_nine.lua"

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, $duration per measurement, nginx worker_processes ${NGINX_WORKERS:-1}"
# The nine table and the allocator warm up before anything is measured.
wrk -t1 -c4 -d1s -s "$here/post_nine.lua" "$solve_url" >/dev/null

# measure NAME WRK-ARGS...: one wrk run; appends "rps p99_ms errors" to $work/NAME.
measure() {
    name=$1
    shift
    out=$(env CONNECTION_CLOSE="$close" wrk --latency "$@")
    rps=$(printf '%s\n' "$out" | awk '/Requests\/sec/ {print $2}')
    p99=$(printf '%s\n' "$out" | awk '$1 == "99%" {
        v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v)
        if (u == "us") v /= 1000; else if (u == "s") v *= 1000
        print v }')
    errors=$(printf '%s\n' "$out" | awk '/Non-2xx|Socket errors/' | tr -s ' \n' ' ')
    echo "$rps $p99" >>"$work/$name"
    printf '  %-8s %-8s %10.0f req/s  p99 %7.2f ms  %s\n' "$scenario" "$name" "$rps" "$p99" "$errors"
}

median() { # file column
    sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}

summary=""
for scenario in $scenarios; do
    rm -f "$work/nginx" "$work/puzzled"
    close=0
    case $scenario in
    keepalive) args="-t2 -c64 -d$duration" ours="$post $solve_url" theirs="$post $nginx_url" ;;
    c1) args="-t1 -c1 -d$duration" ours="$post $solve_url" theirs="$post $nginx_url" ;;
    close) args="-t2 -c64 -d$duration" ours="$post $solve_url" theirs="$post $nginx_url" close=1 ;;
    healthz) args="-t2 -c64 -d$duration" ours="$healthz_url" theirs="http://127.0.0.1:$nginx_port/" ;;
    *) echo "unknown scenario $scenario" >&2; exit 2 ;;
    esac
    for _ in $(seq "$rounds"); do
        # shellcheck disable=SC2086 # word splitting of the argument lists is intended
        measure nginx $args $theirs
        # shellcheck disable=SC2086
        measure puzzled $args $ours
    done
    n_rps=$(median "$work/nginx" 1)
    p_rps=$(median "$work/puzzled" 1)
    line=$(awk -v s="$scenario" -v n="$n_rps" -v p="$p_rps" -v np="$(median "$work/nginx" 2)" \
        -v pp="$(median "$work/puzzled" 2)" 'BEGIN {
        printf "%-9s nginx %8.0f req/s p99 %6.2f ms | puzzled %8.0f req/s p99 %6.2f ms | ratio %.2f",
            s, n, np, p, pp, p / n }')
    summary="$summary$line
"
done
echo "medians of $rounds alternating rounds (puzzled / nginx):"
printf '%s' "$summary"
if [ "${RUBIKS:-1}" = 1 ]; then
    echo "1000 x 1000 Rubik's Rectangle, time to last byte:"
    sh "$here/rubiks_1000.sh" "$binary" 40000 3
fi
