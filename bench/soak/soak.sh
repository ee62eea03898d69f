#!/usr/bin/env bash
# Soak: mixed traffic for every puzzle, hostile requests mixed in (bench/soak/mixed.lua), against
# one puzzled on 127.0.0.1 (a free port it picks itself), for a fixed time at concurrency 1 and
# then 64, sampling the server's resident memory all along, then idle to see memory come back.
#   bench/soak/soak.sh [path/to/puzzled]          (default: build/puzzled, the release build)
# Environment: DURATION (seconds per phase, default 30), SOAK_MAX_BODY (--max-body, 262144),
# SOAK_OUT (the results file, default bench/RESULTS-soak.md).
# Writes bench/RESULTS-soak.md (requests/s, p50/p99 per puzzle, unexpected answers, memory) and
# bench/soak/soak.png (latency, throughput and memory over time). Needs wrk, gnuplot and python3
# (apt-get install wrk gnuplot-nox python3). Loopback only; bounded by DURATION.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=${1:-$root/build/puzzled}
duration=${DURATION:-30}
max_body=${SOAK_MAX_BODY:-262144}
out=${SOAK_OUT:-$root/bench/RESULTS-soak.md}
for tool in wrk gnuplot python3 mawk; do
    command -v "$tool" >/dev/null || { echo "soak: $tool is missing" >&2; exit 1; }
done
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
work=$(mktemp -d)
server=""
sampler=""
cleanup() {
    [ -n "$sampler" ] && kill "$sampler" 2>/dev/null || true
    [ -n "$server" ] && kill "$server" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

# The access log (one JSON line per request) is reduced as it arrives to
# "time path status duration_ms request_id": a 64-connection run writes millions of lines.
reduce='
/"msg":"listening"/ { print > listen; close(listen); next }
/"time":/ {
    t = substr($0, 10, 23)
    match($0, /"path":"[^"]*"/); path = substr($0, RSTART + 8, RLENGTH - 9)
    match($0, /"status":[0-9]+/); status = substr($0, RSTART + 9, RLENGTH - 9)
    match($0, /"duration_ms":[0-9.]+/); ms = substr($0, RSTART + 14, RLENGTH - 14)
    match($0, /"request_id":"[^"]*"/); id = substr($0, RSTART + 14, RLENGTH - 15)
    print t, path, status, ms, id
}'
"$binary" --port 0 --bind 127.0.0.1 --max-body "$max_body" \
    > >(mawk -W interactive -v listen="$work/listen" "$reduce" >"$work/requests.txt") 2>"$work/stderr.txt" &
server=$!
for _ in $(seq 100); do
    [ -s "$work/listen" ] && break
    sleep 0.1
done
port=$(grep -o '"port":[0-9]*' "$work/listen" | cut -d: -f2)
url="http://127.0.0.1:$port"
curl -fs "$url/healthz" >/dev/null

# Resident memory every 0.25 s: "epoch_seconds rss_kib".
(
    while kill -0 "$server" 2>/dev/null; do
        rss=$(awk '/^VmRSS/ {print $2}' "/proc/$server/status" 2>/dev/null) || break
        echo "$(date +%s.%N) $rss"
        sleep 0.25
    done
) >"$work/rss.txt" &
sampler=$!

mark() { echo "$1 $(date +%s.%N)" >>"$work/phases.txt"; }
mark idle-start
sleep 3
for c in 1 64; do
    threads=$([ "$c" -eq 1 ] && echo 1 || echo 2)
    mark "c$c-start"
    wrk -t"$threads" -c"$c" -d"${duration}s" --timeout 20s --latency \
        -s "$here/mixed.lua" "$url" -- "$max_body" >"$work/wrk-c$c.txt"
    mark "c$c-end"
    sleep 3
done
sleep 10 # idle: does memory come back?
mark idle-end
kill -TERM "$server"
wait "$server" || true
server=""
sleep 0.5
kill "$sampler" 2>/dev/null || true
sampler=""

cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
python3 "$here/report.py" "$work" "$out" "$here/soak.dat" \
    "binary: $(realpath --relative-to="$root" "$binary"), workers: default ($(nproc) CPUs, $cpu), max body $max_body, $duration s per phase, load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
gnuplot -e "datafile='$here/soak.dat'; rssfile='$here/soak-rss.dat'; outfile='$here/soak.png'" \
    "$here/soak.gp"
echo "soak: wrote $out and $here/soak.png"
