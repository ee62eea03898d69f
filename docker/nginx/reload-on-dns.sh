#!/bin/sh
# The proxy image's entrypoint: nginx, with the replicas of puzzled.conf that have an address,
# reloaded whenever a replica's address changes. nginx 1.22 looks upstream names up only when it
# starts or reloads, and refuses to do either while a name has no address: a replica that is
# stopped would keep the proxy from starting at all, and a reload from dropping the stopped
# replica's old address (where every try waits for proxy_connect_timeout). A replica that is
# restarted or recreated may come back on another address (podman's bridge network gives a
# container a new one on every start).
#
# So nginx reads a copy of the template (/etc/nginx/puzzled.conf) made here, in /tmp, with the
# server lines of names that have no address left out; with none left, one placeholder marked
# down, so that nginx answers its 503 (no replica) until one is back. Every 2 s the names are
# looked up again, and a change makes a new copy and reloads nginx.
#
# Signals go to nginx: SIGQUIT (the image's STOPSIGNAL) lets it finish the requests in flight.
set -u
template=/etc/nginx/puzzled.conf
conf=/tmp/nginx-conf/puzzled.conf # nginx.conf includes this one
hosts=$(sed -n 's/^[[:space:]]*server[[:space:]]\{1,\}\([^:[:space:]]*\):.*/\1/p' "$template")

# One line per name: its address, or "- name" while it has none (a replica that is stopped).
addresses() {
    for h in $hosts; do
        getent hosts "$h" || echo "- $h"
    done
}

# The copy for the addresses $1 (as addresses() prints them), made by a sed script.
write_conf() {
    mkdir -p "${conf%/*}"
    script=$conf.sed
    : >"$script"
    for h in $(printf '%s\n' "$1" | sed -n 's/^- //p'); do
        printf '/^[[:space:]]*server[[:space:]]\\{1,\\}%s:/s/^/# no address: /\n' "$h" >>"$script"
    done
    if ! printf '%s\n' "$1" | grep -qv '^- '; then
        printf '/^upstream[[:space:]]\\{1,\\}puzzled[[:space:]]*{/a\\\n%s\n' \
            '    server 127.0.0.1:9 down; # no replica has an address' >>"$script"
    fi
    sed -f "$script" "$template" >"$conf.new" && mv "$conf.new" "$conf"
}

seen=$(addresses)
write_conf "$seen"
nginx -e stderr -g 'daemon off;' "$@" &
pid=$!
trap 'kill -QUIT "$pid"' QUIT
trap 'kill -TERM "$pid"' TERM INT
while kill -0 "$pid" 2>/dev/null; do
    sleep 2 &
    wait $! # returns at once when a signal comes, so the trap runs without delay
    now=$(addresses)
    if [ "$now" != "$seen" ]; then
        echo "reload-on-dns: replica addresses now: $(printf '%s' "$now" | tr '\n' ';'): reloading nginx" >&2
        write_conf "$now"
        nginx -e stderr -s reload
        seen=$now
    fi
done
wait "$pid"
