#!/bin/sh
# A scrambled 1000 x 1000 Rubik's Rectangle over HTTP: time from the first byte sent to the last
# byte of the (chunked, ~1.5 MB) answer received, measured by curl, on loopback.
#   bench/http/rubiks_1000.sh [path/to/puzzled] [flips=40000] [runs=5]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
binary=${1:-$here/../../build/puzzled}
flips=${2:-40000}
runs=${3:-5}
. "$here/start_puzzled.sh"

python3 - "$flips" >"$work/body.json" <<'PY'
import random, sys
h = w = 1000
flips = int(sys.argv[1])
random.seed(1)
b = [[i * w + j + 1 for j in range(w)] for i in range(h)]
for _ in range(flips):
    if random.random() < 0.5:
        r = random.randrange(h); b[r].reverse()
    else:
        c = random.randrange(w); col = [b[i][c] for i in range(h)][::-1]
        for i in range(h): b[i][c] = col[i]
sys.stdout.write('{"board":[' + ','.join('[' + ','.join(map(str, row)) + ']' for row in b) + ']}')
PY

start_puzzled "$binary"
echo "body: $(wc -c <"$work/body.json") bytes, $flips random flips"
for i in $(seq "$runs"); do
    curl -s -o "$work/answer.json" -w "run $i: %{http_code} %{time_total}s total, %{size_download} bytes answer\n" \
        -H 'Content-Type: application/json' --data-binary @"$work/body.json" \
        "http://127.0.0.1:$port/solve/rubiks-rectangle"
done
python3 -c "import json,sys; a=json.load(open(sys.argv[1])); print('moves:', a['move_count'])" "$work/answer.json"
