#!/bin/sh
# The proxy image's entrypoint: nginx, reloaded whenever the address of a replica that
# puzzled.conf names changes. nginx 1.22 looks upstream names up only when it starts or
# reloads, and a replica that is restarted or recreated may come back on another address
# (podman's bridge network gives a container a new one on every start): without a reload, the
# old address keeps getting that replica's share of the requests.
#
# Signals go to nginx: SIGQUIT (the image's STOPSIGNAL) lets it finish the requests in flight.
set -u
conf=/etc/nginx/conf.d/puzzled.conf
hosts=$(sed -n 's/^[[:space:]]*server[[:space:]]\{1,\}\([^:[:space:]]*\):.*/\1/p' "$conf")
# One line per name: its address, or "-" while it has none (a replica that is stopped).
addresses() {
    for h in $hosts; do
        getent hosts "$h" || echo "- $h"
    done
}

nginx -e stderr -g 'daemon off;' "$@" &
pid=$!
trap 'kill -QUIT "$pid"' QUIT
trap 'kill -TERM "$pid"' TERM INT
seen=$(addresses)
while kill -0 "$pid" 2>/dev/null; do
    sleep 2 &
    wait $! # returns at once when a signal comes, so the trap runs without delay
    now=$(addresses)
    if [ "$now" != "$seen" ]; then
        # While a name has no address the reload fails and nginx keeps the configuration it
        # has; the next change (the replica back) reloads again.
        echo "reload-on-dns: a replica's address changed: reloading nginx" >&2
        nginx -e stderr -s reload
        seen=$now
    fi
done
wait "$pid"
