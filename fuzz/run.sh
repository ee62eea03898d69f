#!/usr/bin/env bash
# Runs every libFuzzer target of a PUZZLED_FUZZ build for a fixed time each, $JOBS at a time:
#   fuzz/run.sh <build dir> [seconds per target, default 15]
# Each target starts from its seeds (fuzz/seeds/<puzzle>-<format>/) and writes what it finds
# to a scratch corpus in <build dir>/fuzz/corpus/ (not the repository). A crash fails the run
# with the input saved as <build dir>/fuzz/<target>-crash-* (or -timeout-*, -oom-*) and the target's log
# printed; replay it with `<target> <file>`, fix the code, and copy the file into
# fuzz/regressions/<puzzle>-<format>-<what> so tests/api/test_fuzz_regressions.c keeps it fixed.
set -euo pipefail
build=${1:?usage: fuzz/run.sh <build dir> [seconds per target]}
seconds=${2:-15}
jobs=${JOBS:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
# Symbolized crash reports (Debian installs the symbolizer under the LLVM directory).
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && [ -x /usr/lib/llvm-14/bin/llvm-symbolizer ]; then
    export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
fi
cd "$build/fuzz"

# run_target BIN: one target for $seconds; its log in BIN.log; exit status 0 when nothing broke.
run_target() {
    local bin=$1 name slug fmt
    name=${bin#fuzz_}         # nine_json, rubiks_rectangle_text, ...
    fmt=${name##*_}           # json | text
    slug=${name%_*}
    slug=${slug//_/-}         # nine, rubiks-rectangle, ...
    mkdir -p "corpus/$slug-$fmt"
    # -rss_limit_mb: the worst case of a small input stays far below (the Mayan table is capped
    # at 64 MiB); -max_len: bigger bodies only slow parsing; -timeout: far beyond the 20 ms
    # budget per input, allowing for nine's once-per-size library build (about 1 s here).
    ./"$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=4096 -timeout=30 \
        -dict="$root/fuzz/dict/$fmt.dict" -artifact_prefix="$PWD/$bin-" -print_final_stats=1 \
        "corpus/$slug-$fmt" "$root/fuzz/seeds/$slug-$fmt" >"$bin.log" 2>&1
}

pids=() bins=()
status=0
for bin in fuzz_*; do
    [ -x "$bin" ] && [ -f "$bin" ] || continue
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    run_target "$bin" &
    pids+=($!) bins+=("$bin")
done
for i in "${!pids[@]}"; do
    bin=${bins[$i]}
    if wait "${pids[$i]}"; then
        printf '%-30s ok: %s runs, peak %s MB\n' "$bin" \
            "$(sed -n 's/^stat::number_of_executed_units: *//p' "$bin.log")" \
            "$(sed -n 's/^stat::peak_rss_mb: *//p' "$bin.log")"
    else
        echo "$bin FAILED; the end of its log:"
        tail -n 60 "$bin.log"
        ls "$bin"-* 2>/dev/null || true
        status=1
    fi
done
exit $status
