# Sourced by the HTTP bench scripts (POSIX sh): a scratch folder $work, removed on exit with the
# server, and start_puzzled BINARY [flags...], which starts it on an ephemeral port of
# 127.0.0.1 (standard output in $work/puzzled.log, errors in $work/puzzled.err) and sets $pid
# and $port once /healthz answers.
work=$(mktemp -d)
pid=""
port=""
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

start_puzzled() {
    _binary=$1
    shift
    "$_binary" --port 0 --bind 127.0.0.1 "$@" >"$work/puzzled.log" 2>"$work/puzzled.err" &
    pid=$!
    for _ in $(seq 100); do
        port=$(sed -n 's/.*"msg":"listening".*"port":\([0-9]*\).*/\1/p' "$work/puzzled.log" 2>/dev/null | head -1)
        [ -n "$port" ] && curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && return 0
        sleep 0.1
    done
    echo "puzzled did not start" >&2
    exit 1
}
