#!/bin/sh
# Where a request's time goes, per request, measured on the server process under load:
# CPU (user + system, from /proc), context switches (voluntary and involuntary, all threads)
# and system calls by name, counted by the kernel's tracepoints (perf stat; run as root) or,
# with STRACE=1, by strace -c -f (which slows the server: only its counts mean anything).
# Loopback only, bounded runs, an ephemeral port.
#   bench/http/cost.sh [path/to/puzzled] [extra puzzled flags...]
#   env: DURATION (5s), CONNECTIONS (64), TARGET (solve | healthz), STRACE (0 | 1)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
binary=${1:-$here/../../build/puzzled}
[ $# -gt 0 ] && shift
duration=${DURATION:-5s}
conns=${CONNECTIONS:-64}
target=${TARGET:-solve}
. "$here/start_puzzled.sh"
start_puzzled "$binary" "$@"

if [ "$target" = healthz ]; then
    set -- "http://127.0.0.1:$port/healthz"
else
    set -- -s "$here/post_nine.lua" "http://127.0.0.1:$port/solve/nine"
fi
wrk -t1 -c4 -d1s "$@" >/dev/null # warm up (the nine table, the allocator)

# Sums over every thread: utime stime (clock ticks), voluntary and involuntary switches.
snapshot() {
    ticks=0
    vol=0
    invol=0
    for t in /proc/$pid/task/*; do
        set -- $(sed 's/.*) //' "$t/stat")
        ticks=$((ticks + ${12} + ${13}))
        vol=$((vol + $(awk '/^voluntary_ctxt_switches/ {print $2}' "$t/status")))
        invol=$((invol + $(awk '/^nonvoluntary_ctxt_switches/ {print $2}' "$t/status")))
    done
    echo "$ticks $vol $invol"
}
hz=$(getconf CLK_TCK)
before=$(snapshot)
calls="recvfrom sendto sendmsg read write poll epoll_wait epoll_ctl futex accept4 close"
tracer_pid=""
if [ "${STRACE:-0}" = 1 ]; then
    strace -c -f -p "$pid" -o "$work/strace.txt" &
    tracer_pid=$!
    sleep 1
elif perf stat -e syscalls:sys_enter_futex true >/dev/null 2>&1; then
    events=$(for c in $calls; do printf 'syscalls:sys_enter_%s,' "$c"; done)
    perf stat -x, -e "${events%,}" -p "$pid" -o "$work/perf.txt" &
    tracer_pid=$!
    sleep 0.5
fi
out=$(wrk -t2 -c"$conns" -d"$duration" --latency "$@")
if [ -n "$tracer_pid" ]; then
    kill -INT "$tracer_pid"
    wait "$tracer_pid" 2>/dev/null || true
fi
after=$(snapshot)
requests=$(printf '%s\n' "$out" | awk '/requests in/ {print $1}')
rps=$(printf '%s\n' "$out" | awk '/Requests\/sec/ {print $2}')
p99=$(printf '%s\n' "$out" | awk '$1 == "99%" {print $2}')
set -- $before $after
echo "$target c=$conns: $requests requests, $rps req/s, p99 $p99" |
    cat
awk -v r="$requests" -v hz="$hz" -v t0="$1" -v v0="$2" -v i0="$3" -v t1="$4" -v v1="$5" -v i1="$6" 'BEGIN {
    printf "server CPU %.1f us/request; context switches %.2f voluntary + %.2f involuntary per request\n",
        (t1 - t0) * 1e6 / hz / r, (v1 - v0) / r, (i1 - i0) / r }'
if [ -f "$work/perf.txt" ]; then
    echo "system calls per request (kernel tracepoints):"
    awk -F, -v r="$requests" '$3 ~ /^syscalls:sys_enter_/ && $1 ~ /^[0-9]+$/ {
        sub(/^syscalls:sys_enter_/, "", $3); printf "  %-12s %6.2f\n", $3, $1 / r }' "$work/perf.txt" |
        sort -k2 -rn
elif [ "${STRACE:-0}" = 1 ]; then
    echo "system calls per request (strace slows the server: counts only):"
    awk -v r="$requests" '$NF ~ /^[a-z_0-9]+$/ && $4 ~ /^[0-9]+$/ && $NF != "total" {
        printf "  %-20s %6.2f\n", $NF, $4 / r }' "$work/strace.txt" | sort -k2 -rn | head -20
fi
