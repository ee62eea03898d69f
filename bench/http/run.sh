#!/bin/sh
# HTTP benchmark: nginx returning a fixed JSON vs puzzled solving the nine sample, same machine,
# same wrk settings (64 connections, 2 threads, 10 s each), loopback only.
#   bench/http/run.sh [path/to/puzzled]      (default: build/puzzled)
# Prints one line per target: requests/s and p99 latency.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
binary=${1:-$here/../../build/puzzled}
duration=${DURATION:-10s}
nginx_port=${NGINX_PORT:-18080}
puzzled_port=${PUZZLED_PORT_BENCH:-18081}
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

mkdir -p "$work/tmp"
sed "s/@PORT@/$nginx_port/" "$here/nginx.conf" >"$work/nginx.conf"
nginx -p "$work" -c "$work/nginx.conf" &
nginx_pid=$!
"$binary" --port "$puzzled_port" --bind 127.0.0.1 >/dev/null &
puzzled_pid=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do
    if curl -fs "http://127.0.0.1:$nginx_port/" >/dev/null &&
        curl -fs "http://127.0.0.1:$puzzled_port/healthz" >/dev/null; then break; fi
    sleep 0.2
done

measure() { # name url script-args...
    name=$1
    url=$2
    shift 2
    out=$(wrk -t2 -c64 -d"$duration" --latency "$@" "$url")
    rps=$(printf '%s\n' "$out" | awk '/Requests\/sec/ {print $2}')
    p99=$(printf '%s\n' "$out" | awk '$1 == "99%" {print $2}')
    errors=$(printf '%s\n' "$out" | awk '/Non-2xx|Socket errors/' | tr '\n' ' ')
    printf '%-34s %12s req/s   p99 %8s   %s\n' "$name" "$rps" "$p99" "$errors"
}

measure "nginx fixed JSON (POST)" "http://127.0.0.1:$nginx_port/solve/nine" -s "$here/post_nine.lua"
measure "puzzled POST /solve/nine sample" "http://127.0.0.1:$puzzled_port/solve/nine" -s "$here/post_nine.lua"
measure "puzzled GET /healthz" "http://127.0.0.1:$puzzled_port/healthz"
