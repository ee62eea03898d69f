#!/usr/bin/env bash
# Builds the image and the compose set-up and tests them for real with podman (no Docker engine
# or registry needed), on loopback only:
#   1. a debian:bookworm-slim base made here with debootstrap (mirror: apt's own sources), kept
#      between runs as a cache (podman rmi debian:bookworm-slim drops it);
#   2. docker/Dockerfile built (--format docker keeps the HEALTHCHECK): size and time printed;
#   3. the image on 127.0.0.1:<free port>: non-root, HEALTHCHECK healthy, every puzzle's example
#      answered as by the host build, a 1000 x 1000 Rubik's Rectangle replayed;
#   4. SIGTERM during a long job with another queued: both answered, exit status 0;
#   5. docker/compose.yaml (nginx + three replicas): requests spread over the replicas (their
#      access logs), then one replica stopped mid-run with no request failing;
#   6. everything it made removed (containers, network, images; the base image stays).
# Run as root from anywhere: docker/test.sh. Prints SKIPPED and exits 0 only when podman cannot
# run here.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

say() { printf '[containers %3ds] %s\n' "$SECONDS" "$*"; }

if ! command -v podman >/dev/null || ! command -v podman-compose >/dev/null; then
    echo "SKIPPED: podman or podman-compose is not installed (.ci/packages/container.txt)"
    exit 0
fi

work=$(mktemp -d /tmp/puzzled-containers-XXXXXX)
tag=test-$$
image=localhost/puzzled:$tag
proxy_image=localhost/puzzled-proxy:$tag
project=puzzled-test-$$
single=puzzled-test-$$-single
drainer=puzzled-test-$$-drain
oracle_pid=""

# crun cannot set some limits on these machines: runc, cgroupfs, and explicit ulimits.
CONTAINERS_CONF=$(pwd)/docker/podman-containers.conf
export CONTAINERS_CONF

cleanup() {
    local status=$?
    set +e
    say "teardown"
    [ -n "$oracle_pid" ] && kill "$oracle_pid" 2>/dev/null && wait "$oracle_pid" 2>/dev/null
    if [ -f "$work/compose.env" ]; then
        (cd docker && env $(cat "$work/compose.env") podman-compose -p "$project" \
            -f compose.yaml down -t 5) >"$work/down.log" 2>&1
    fi
    local ids
    ids=$(podman ps -aq --filter "label=io.podman.compose.project=$project"; podman ps -aq \
        --filter "name=^$single\$" --filter "name=^$drainer\$")
    [ -n "$ids" ] && podman rm -f -t 0 $ids >/dev/null 2>&1
    podman network rm -f "${project}_default" >/dev/null 2>&1
    podman rmi -f "$image" "$proxy_image" >/dev/null 2>&1
    say "left: $(podman ps -aq | wc -l) containers; images: $(podman images --format '{{.Repository}}:{{.Tag}}' | tr '\n' ' ')"
    rm -rf "$work"
    exit $status
}
trap cleanup EXIT INT TERM

podman info >/dev/null 2>"$work/info.err" || {
    cat "$work/info.err"
    echo "SKIPPED: podman cannot run here"
    exit 0
}
# podman may start and still not store an image (inside another container: overlay on overlayfs
# without fuse-overlayfs): store an empty one first.
if ! tar -cf - -T /dev/null | podman import - "localhost/puzzled-probe:$tag" >/dev/null 2>"$work/probe.err"; then
    tail -3 "$work/probe.err"
    echo "SKIPPED: podman cannot store an image here"
    exit 0
fi
podman rmi -f "localhost/puzzled-probe:$tag" >/dev/null

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# ---- 1. the base image ----
make_base() {
    local mirror
    mirror=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' |
        awk '$2 == "bookworm" { print $1; exit }')
    [ -n "$mirror" ] || { echo "no bookworm source in apt's configuration" >&2; return 1; }
    say "base: debootstrap --variant=minbase bookworm from apt's own mirror"
    debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
        { tail -20 "$work/debootstrap.log"; return 1; }
    # What debian:*-slim leaves out: package caches, lists, documentation, locales.
    rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/cache/apt/*.bin \
        "$work"/rootfs/var/lib/apt/lists/* "$work"/rootfs/usr/share/doc/* \
        "$work"/rootfs/usr/share/man/* "$work"/rootfs/usr/share/locale/* \
        "$work"/rootfs/var/log/*.log
    tar -C "$work/rootfs" -c . |
        podman import --change 'CMD ["bash"]' - docker.io/library/debian:bookworm-slim >/dev/null
    rm -rf "$work/rootfs"
}
start=$SECONDS
if podman image exists docker.io/library/debian:bookworm-slim; then
    say "base: docker.io/library/debian:bookworm-slim already here (cached), reused"
else
    make_base
fi
for name in debian:12-slim debian:bookworm debian:12; do
    podman image exists "docker.io/library/$name" ||
        podman tag docker.io/library/debian:bookworm-slim "docker.io/library/$name"
done
say "base: ready in $((SECONDS - start)) s, $(podman image inspect --format '{{.Size}}' \
    docker.io/library/debian:bookworm-slim | awk '{printf "%.1f MB", $1 / 1e6}')"

# ---- 2. the images ----
start=$SECONDS
podman build --format docker --layers=false -f docker/Dockerfile -t "$image" . \
    >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }
build_s=$((SECONDS - start))
size=$(podman image inspect --format '{{.Size}}' "$image")
say "image: built in ${build_s} s, $(awk -v s="$size" 'BEGIN {printf "%.1f MB", s / 1e6}')"
podman image inspect --format 'image: user {{.Config.User}}, exposes {{.Config.ExposedPorts}}, entrypoint {{.Config.Entrypoint}}, healthcheck {{.Config.Healthcheck.Test}}' "$image" |
    while read -r line; do say "$line"; done
[ "$(podman image inspect --format '{{.Config.User}}' "$image")" = "10001:10001" ]
podman image inspect --format '{{.Config.Healthcheck.Test}}' "$image" | grep -q healthz
start=$SECONDS
podman build --format docker --layers=false -t "$proxy_image" docker/nginx \
    >"$work/build-proxy.log" 2>&1 || { tail -40 "$work/build-proxy.log"; exit 1; }
say "proxy image: built in $((SECONDS - start)) s"

# The oracle: the same sources built on the host (stage 10-release leaves build/puzzled; the
# ctest suite checks its answers against the contests' data).
[ -x build/puzzled ] || .ci/bootstrap build >"$work/host-build.log" 2>&1
build/puzzled --port 0 --bind 127.0.0.1 >"$work/oracle.log" 2>&1 &
oracle_pid=$!
for _ in $(seq 50); do grep -q '"port"' "$work/oracle.log" && break; sleep 0.1; done
oracle=http://127.0.0.1:$(sed -n 's/.*"port":\([0-9]*\).*/\1/p' "$work/oracle.log" | head -1)

# ---- 3. the image alone ----
port=$(free_port)
podman run -d --name "$single" --read-only -p "127.0.0.1:$port:8080" "$image" >/dev/null
say "run: $single on 127.0.0.1:$port (read-only root filesystem)"
ids=$(podman exec "$single" id)
say "run: puzzled runs as $ids"
# Not root, and the image's own /etc/passwd and /etc/group name the user and group it runs as.
[ "$ids" = "uid=10001(puzzled) gid=10001(puzzled) groups=10001(puzzled)" ]
python3 docker/check.py examples "http://127.0.0.1:$port" "$oracle"
podman healthcheck run "$single" 2>/dev/null
say "run: HEALTHCHECK: $(podman inspect --format '{{.State.Health.Status}}' "$single")"
[ "$(podman inspect --format '{{.State.Health.Status}}' "$single")" = healthy ]
python3 docker/check.py rubiks "http://127.0.0.1:$port" "image-1000"
podman stop -t 40 "$single" >/dev/null
say "run: stopped, exit code $(podman inspect --format '{{.State.ExitCode}}' "$single")"
[ "$(podman inspect --format '{{.State.ExitCode}}' "$single")" = 0 ]

# ---- 4. SIGTERM during a long request ----
port=$(free_port)
podman run -d --name "$drainer" -p "127.0.0.1:$port:8080" \
    -e PUZZLED_WORKERS=1 -e PUZZLED_TIME_LIMIT_MS=30000 "$image" >/dev/null
say "drain: $drainer on 127.0.0.1:$port with one worker and a 30 s budget"
python3 docker/check.py drain "http://127.0.0.1:$port" "$drainer"
podman logs "$drainer" 2>/dev/null | grep -E '"msg"|drain-' | sed 's/^/  /'

# ---- 5. nginx in front of three replicas ----
port=$(free_port)
printf 'PUZZLED_IMAGE=%s\nPUZZLED_PROXY_IMAGE=%s\nPUZZLED_PROXY_PORT=%s\n' \
    "$image" "$proxy_image" "$port" >"$work/compose.env"
(cd docker && env $(cat "$work/compose.env") podman-compose -p "$project" -f compose.yaml up -d) \
    >"$work/up.log" 2>&1 || { cat "$work/up.log"; exit 1; }
say "compose: $(podman ps --filter "label=io.podman.compose.project=$project" --format '{{.Names}}' | tr '\n' ' ')up, proxy on 127.0.0.1:$port"
replica() { echo "${project}_puzzled-$1_1"; }
proxy_uid=$(podman exec "${project}_proxy_1" id -u)
say "compose: nginx runs as uid $proxy_uid"
[ "$proxy_uid" != 0 ]
count_ids() { podman logs "$(replica "$1")" 2>/dev/null | grep -c "\"request_id\":\"$2-" || true; }

python3 docker/check.py spread "http://127.0.0.1:$port" "$oracle" 300 spread
counts=""
for i in 1 2 3; do
    c=$(count_ids "$i" spread)
    counts+="puzzled-$i $c, "
    [ "$c" -ge 30 ] || { say "compose: replica $i answered only $c of 300"; exit 1; }
done
say "compose: spread over the replicas: ${counts%, }"

python3 docker/check.py spread "http://127.0.0.1:$port" "$oracle" 400 stop "$(replica 2)"
counts=""
for i in 1 2 3; do counts+="puzzled-$i $(count_ids "$i" stop), "; done
say "compose: answered by: ${counts%, }; puzzled-2 exit code $(podman inspect --format '{{.State.ExitCode}}' "$(replica 2)")"
retried=$(podman logs "${project}_proxy_1" 2>&1 | grep -c '"upstream":"[^"]*, ' || true)
say "compose: nginx log lines where a request went on to another replica: $retried"

# With a replica stopped, its name has no address: the proxy must still start (nginx refuses a
# name it cannot look up; the entrypoint leaves it out), and answer from the other two.
podman restart "${project}_proxy_1" >/dev/null
up=""
for _ in $(seq 1 50); do
    up=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz" || true)
    [ "$up" = 200 ] && break
    sleep 0.2
done
say "compose: the proxy restarted while puzzled-2 is stopped answers /healthz $up"
[ "$up" = 200 ]
# HTTP/1.0 may send no Host: the proxy still passes the request on (puzzled wants a Host).
h10=$(curl -s -0 -H 'Host:' -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz")
say "compose: an HTTP/1.0 request without Host through the proxy: $h10"
[ "$h10" = 200 ]

# Started again, a replica may come back on another address (podman gives one on each start):
# the proxy's entrypoint (nginx/reload-on-dns.sh) reloads nginx when it does, so the requests
# reach the replica again instead of its old address.
ip() { podman inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$1"; }
reloads_before=$(podman logs "${project}_proxy_1" 2>&1 | grep -c 'reload-on-dns' || true)
podman start "$(replica 2)" >/dev/null
sleep 5 # the entrypoint looks every 2 s
python3 docker/check.py spread "http://127.0.0.1:$port" "$oracle" 300 back
c=$(count_ids 2 back)
reloads=$(podman logs "${project}_proxy_1" 2>&1 | grep -c 'reload-on-dns' || true)
say "compose: puzzled-2 started again at $(ip "$(replica 2)"): it answered $c of 300; the proxy reloaded $((reloads - reloads_before)) time(s) since"
[ "$c" -ge 30 ] || { say "compose: the started replica answered only $c of 300"; exit 1; }
say "all container checks passed"
