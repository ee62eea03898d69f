#!/bin/sh
# Deep Mayan searches over HTTP at a given concurrency: requests per second, latency and the
# server's CPU time, to weigh the helper thread (--solve-threads) against the cores it takes.
#   bench/http/mayan_load.sh [path/to/puzzled] [concurrency=2] [requests=40] [puzzled options...]
# The body is tests/data/mayan/deep-6-none.in (a full 5 x 7 board, n = 6, no solution: about
# 0.13 s in one thread). Only 127.0.0.1 is used; the run is bounded by the request count.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
binary=${1:-$here/../../build/puzzled}
conc=${2:-2}
requests=${3:-40}
[ $# -ge 3 ] && shift 3 || shift $#
body=$here/../../tests/data/mayan/deep-6-none.in
. "$here/start_puzzled.sh"
start_puzzled "$binary" "$@"
url="http://127.0.0.1:$port/solve/mayan"

# One warm-up request (the process's shared bound tables fill on the first deep search).
curl -fs -H 'Content-Type: text/plain' --data-binary @"$body" "$url" >/dev/null

cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
ticks0=$(cpu_ticks)
start=$(date +%s.%N)
i=0
while [ $i -lt "$requests" ]; do
    printf 'url = "%s"\noutput = "/dev/null"\n' "$url"
    i=$((i + 1))
done >"$work/urls"
# (curl 7.88 draws its parallel progress meter on standard error even with -s.)
curl -s --parallel --parallel-max "$conc" -K "$work/urls" -H 'Content-Type: text/plain' \
    --data-binary @"$body" -w '%{http_code} %{time_total}\n' >"$work/times" 2>/dev/null
end=$(date +%s.%N)
ticks1=$(cpu_ticks)
hz=$(getconf CLK_TCK)
python3 - "$work/times" "$start" "$end" "$ticks0" "$ticks1" "$hz" "$conc" "$requests" <<'PY'
import sys
path, start, end, t0, t1, hz, conc, n = sys.argv[1:]
rows = [line.split() for line in open(path)]
codes = {}
for code, _ in rows:
    codes[code] = codes.get(code, 0) + 1
lat = sorted(float(t) for _, t in rows)
wall = float(end) - float(start)
cpu = (int(t1) - int(t0)) / int(hz)
print(f"concurrency {conc}, {n} requests: {len(rows) / wall:.2f} req/s, "
      f"latency median {lat[len(lat) // 2] * 1000:.0f} ms, max {lat[-1] * 1000:.0f} ms, "
      f"server CPU {cpu / len(rows) * 1000:.0f} ms per request, statuses {codes}")
PY
