#!/bin/sh
# `puzzled solve` over files of many instances: instances per second, wall time and peak memory
# for each batch. Inputs are generated here (python3, fixed seeds):
#   - nine: 10 000 random solvable 3 x 3 states, JSON Lines (every orbit of A and B together
#     holds as many ones as it has cells, the solvability criterion of
#     solvers/nine.c, nine_solvable)
#   - rubiks-rectangle: 1 000 random 100 x 100 boards, each scrambled by 4 000 random flips, in
#     the contest text format (one file, T = 1000), streamed instance by instance
#   - invariant-boards: every n from 1 to 2000, JSON Lines
#   bench/cli/run.sh [path/to/puzzled]      (needs python3 and GNU time's /usr/bin/time, or not)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
binary=${1:-$here/../../build/puzzled}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

python3 - "$work" <<'PY'
import json, random, sys
work = sys.argv[1]

random.seed(1)
def nine_state(n=3):
    a = [[0] * n for _ in range(n)]
    b = [[0] * n for _ in range(n)]
    seen = set()
    for r in range(n):
        for c in range(n):
            orbit = []
            rr, cc = r, c
            for _ in range(4):
                if (rr, cc) not in orbit:
                    orbit.append((rr, cc))
                rr, cc = cc, n - 1 - rr
            key = tuple(sorted(orbit))
            if key in seen:
                continue
            seen.add(key)
            slots = [("a", p) for p in orbit] + [("b", p) for p in orbit]
            for m, (i, j) in random.sample(slots, len(orbit)):
                (a if m == "a" else b)[i][j] = 1
    rows = lambda m: ["".join(map(str, row)) for row in m]
    return {"a": rows(a), "b": rows(b)}
with open(f"{work}/nine.jsonl", "w") as f:
    for _ in range(10000):
        f.write(json.dumps(nine_state(), separators=(",", ":")) + "\n")

random.seed(2)
with open(f"{work}/rubiks.txt", "w") as f:
    h = w = 100
    f.write("1000\n")
    for _ in range(1000):
        b = [[i * w + j + 1 for j in range(w)] for i in range(h)]
        for _ in range(4000):
            if random.random() < 0.5:
                b[random.randrange(h)].reverse()
            else:
                c = random.randrange(w)
                col = [b[i][c] for i in range(h)][::-1]
                for i in range(h):
                    b[i][c] = col[i]
        f.write(f"\n{w} {h}\n")
        f.write("\n".join(" ".join(map(str, row)) for row in b) + "\n")

with open(f"{work}/invariant.jsonl", "w") as f:
    for n in range(1, 2001):
        f.write(json.dumps({"n": n}) + "\n")
PY

printf '%-18s %10s %10s %12s %12s %10s\n' puzzle instances bytes_in seconds instances/s peak_MiB
run() { # puzzle count file [flags]
    puzzle=$1 count=$2 file=$3
    shift 3
    start=$(date +%s.%N)
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f '%M' -o "$work/rss" "$binary" solve "$puzzle" "$file" "$@" >"$work/out"
        rss=$(awk '{printf "%.1f", $1 / 1024}' "$work/rss")
    else
        "$binary" solve "$puzzle" "$file" "$@" >"$work/out"
        rss=-
    fi
    end=$(date +%s.%N)
    printf '%-18s %10d %10d %12.3f %12.0f %10s\n' "$puzzle" "$count" "$(wc -c <"$file")" \
        "$(echo "$end - $start" | bc -l)" "$(echo "$count / ($end - $start)" | bc -l)" "$rss"
}
run nine 10000 "$work/nine.jsonl" --json
run rubiks-rectangle 1000 "$work/rubiks.txt"
run invariant-boards 2000 "$work/invariant.jsonl" --json
