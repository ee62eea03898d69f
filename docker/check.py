#!/usr/bin/env python3
"""Checks puzzled through a container or a proxy (docker/test.sh calls it; standard library only).

  check.py examples URL ORACLE_URL   every puzzle's example (JSON and contest text) from GET
                                     /puzzles, answered by URL exactly as by ORACLE_URL (the same
                                     sources built on the host, whose answers the ctest suite
                                     checks against the contests' data)
  check.py rubiks URL [ID]           a scrambled 1000 x 1000 Rubik's Rectangle: the answer is
                                     replayed here and must sort the board
  check.py drain URL CONTAINER       SIGTERM (podman kill) while a job runs and a 1000 x 1000
                                     solve waits: both answered, the container exits 0
  check.py spread URL ORACLE_URL N ID_PREFIX [STOP_CONTAINER]
                                     N requests (4 at a time) with ids ID_PREFIX-<i>, each answer
                                     and its echoed X-Request-Id checked; with STOP_CONTAINER,
                                     that container is stopped (podman stop: SIGTERM, drain)
                                     after N/4 answers and requests go on until it has exited
                                     and N more were answered
Prints what it saw; exits non-zero on the first thing that is wrong.
"""
import json
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request


def call(url, method="GET", body=None, ctype=None, headers=None, timeout=120):
    """(status, headers, body bytes); status 0 with the error text when no HTTP answer came."""
    req = urllib.request.Request(url, data=body, method=method)
    if ctype:
        req.add_header("Content-Type", ctype)
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()
    except Exception as e:  # connection refused, reset, truncated chunked answer, timeout
        return 0, {}, str(e).encode()


def fail(msg):
    print("FAIL:", msg, flush=True)
    sys.exit(1)


def wait_ready(url, seconds=60):
    end = time.time() + seconds
    while time.time() < end:
        if call(url + "/readyz", timeout=2)[0] == 200:
            return
        time.sleep(0.2)
    fail(f"{url}/readyz never answered 200")


def example_requests(url):
    status, _, body = call(url + "/puzzles")
    if status != 200:
        fail(f"GET /puzzles: {status}")
    for p in json.loads(body)["puzzles"]:
        yield p["slug"], "json", json.dumps(p["example"]).encode(), "application/json"
        yield p["slug"], "text", p["example_text"].encode(), "text/plain"


def examples(url, oracle):
    wait_ready(url)
    n = 0
    for slug, kind, body, ctype in example_requests(oracle):
        got = call(f"{url}/solve/{slug}", "POST", body, ctype)
        want = call(f"{oracle}/solve/{slug}", "POST", body, ctype)
        if got[0] != 200 or want[0] != 200 or got[2] != want[2]:
            fail(f"{slug} {kind}: got {got[0]} {got[2][:200]!r}, want {want[0]} {want[2][:200]!r}")
        print(f"  {slug:17} {kind:4}: 200, {len(got[2])} bytes, same as the host build")
        n += 1
    print(f"examples: {n} answers, all equal to the host build's")


def scrambled_board(h=1000, w=1000, flips=3000, seed=7):
    rnd = random.Random(seed)
    cells = list(range(1, h * w + 1))
    for _ in range(flips):
        flip(cells, h, w, ("R" if rnd.random() < 0.5 else "C") + str(rnd.randrange(1, 1001)))
    return cells


def flip(cells, h, w, move):
    k = int(move[1:]) - 1
    if move[0] == "R" and 0 <= k < h:
        cells[k * w:(k + 1) * w] = cells[k * w:(k + 1) * w][::-1]
    elif move[0] == "C" and 0 <= k < w:
        cells[k::w] = cells[k::w][::-1]
    else:
        fail(f"bad move {move}")


def board_json(cells, h=1000, w=1000):
    rows = (",".join(map(str, cells[i * w:(i + 1) * w])) for i in range(h))
    return ('{"board":[' + ",".join("[" + r + "]" for r in rows) + "]}").encode()


def replay_rubiks(cells, status, body, h=1000, w=1000):
    if status != 200:
        fail(f"1000 x 1000: status {status}: {body[:200]!r}")
    answer = json.loads(body)
    moves = answer["moves"]
    if not answer["solvable"] or answer["move_count"] != len(moves) or len(moves) > 10 * h * w:
        fail(f"1000 x 1000: unexpected answer header {dict(list(answer.items())[:3])}")
    cells = list(cells)
    for m in moves:
        flip(cells, h, w, m)
    if cells != list(range(1, h * w + 1)):
        fail("1000 x 1000: the moves do not sort the board")
    return len(moves)


def rubiks(url, rid="rubiks-1000"):
    wait_ready(url)
    cells = scrambled_board()
    body = board_json(cells)
    t = time.time()
    status, headers, answer = call(url + "/solve/rubiks-rectangle", "POST", body,
                                   "application/json", {"X-Request-Id": rid})
    took = time.time() - t
    n = replay_rubiks(cells, status, answer)
    print(f"rubiks 1000 x 1000: {len(body)} bytes in, {len(answer)} bytes out "
          f"({headers.get('Transfer-Encoding')}), {took:.2f} s, {n} flips replayed: sorted; "
          f"X-Request-Id {headers.get('X-Request-Id')}")


def metric(url, name):
    status, _, body = call(url + "/metrics", timeout=5)
    for line in body.decode(errors="replace").splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return -1


def in_thread(fn, *args):
    out = {}
    t = threading.Thread(target=lambda: out.update(r=fn(*args)))
    t.start()
    return t, out


def drain(url, container):
    """Expects the container to run with one worker and a budget that covers a 1000 x 1000
    solve plus the wait before it (queue time counts against the budget)."""
    wait_ready(url)
    cells = scrambled_board()
    t0, running = in_thread(call, url + "/solve/rubiks-rectangle", "POST", board_json(cells),
                            "application/json", {"X-Request-Id": "drain-running"})
    while metric(url, "puzzled_workers_busy") < 1 and t0.is_alive():
        time.sleep(0.01)
    # The statement's sample (n = 4 gives 5), queued behind the long solve.
    t1, queued = in_thread(call, url + "/solve/invariant-boards", "POST", b"4\n", "text/plain",
                           {"X-Request-Id": "drain-queued"})
    deadline = time.time() + 10
    while metric(url, "puzzled_queue_depth") < 1 and t1.is_alive() and time.time() < deadline:
        time.sleep(0.01)
    busy, waiting = metric(url, "puzzled_workers_busy"), metric(url, "puzzled_queue_depth")
    sent = time.time()
    subprocess.run(["podman", "kill", "--signal", "TERM", container], check=True,
                   stdout=subprocess.DEVNULL)
    print(f"drain: SIGTERM sent with {busy:.0f} job running and {waiting:.0f} queued")
    exited = {}

    def wait_exit():
        exited["code"] = subprocess.run(["podman", "wait", container], capture_output=True,
                                        text=True).stdout.strip()
        exited["after"] = time.time() - sent

    t2 = threading.Thread(target=wait_exit)
    t2.start()
    t0.join()
    t1.join()
    t2.join()
    n = replay_rubiks(cells, *running["r"][::2])
    print(f"drain: the running 1000 x 1000 was answered, {n} flips replayed: sorted")
    q_status, _, q_body = queued["r"]
    if q_status != 200 or q_body != b"5\n":
        fail(f"drain: the queued request got {q_status} {q_body[:200]!r}, want 200 5")
    print("drain: the queued request was answered 5 (the statement's sample, n = 4)")
    if exited.get("code") != "0":
        fail(f"drain: container exit code {exited.get('code')}, want 0")
    print(f"drain: container exited 0, {exited['after']:.1f} s after the signal")


def spread(url, oracle, n, prefix, stop=None):
    """n requests; with stop, that container is stopped after n/4 answers and the requests go
    on until it has exited and n more were answered after that (at most 120 s in all)."""
    wait_ready(url)
    reqs = list(example_requests(oracle))
    want = {}
    for slug, kind, body, ctype in reqs:
        want[(slug, kind)] = call(f"{oracle}/solve/{slug}", "POST", body, ctype)[2]
    lock = threading.Lock()
    st = {"next": 0, "done": 0, "bad": [], "stop_at": None, "exited_at": None}
    deadline = time.time() + 120

    def stop_replica():
        subprocess.run(["podman", "stop", "-t", "40", stop], stdout=subprocess.DEVNULL)
        with lock:
            st["exited_at"] = st["done"]

    def more():
        if time.time() > deadline:
            return False
        if not stop:
            return st["next"] < n
        return st["exited_at"] is None or st["next"] < st["exited_at"] + n

    def worker():
        while True:
            with lock:
                if not more():
                    return
                i = st["next"]
                st["next"] += 1
            slug, kind, body, ctype = reqs[i % len(reqs)]
            status, headers, answer = call(f"{url}/solve/{slug}", "POST", body, ctype,
                                           {"X-Request-Id": f"{prefix}-{i}"}, timeout=60)
            ok = (status == 200 and answer == want[(slug, kind)]
                  and headers.get("X-Request-Id") == f"{prefix}-{i}")
            with lock:
                st["done"] += 1
                if not ok:
                    st["bad"].append((i, slug, kind, status, answer[:120]))
                if stop and st["stop_at"] is None and st["done"] >= n // 4:
                    st["stop_at"] = st["done"]
                    threading.Thread(target=stop_replica).start()

    t = time.time()
    threads = [threading.Thread(target=worker) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    msg = f"spread: {st['done']} requests in {time.time() - t:.1f} s, {len(st['bad'])} wrong or failed"
    if stop:
        msg += (f"; podman stop {stop} began after answer {st['stop_at']}, it had exited by "
                f"answer {st['exited_at']}")
        if st["exited_at"] is None:
            fail(f"{stop} did not stop within the time")
    print(msg)
    for b in st["bad"][:10]:
        print("  ", b)
    if st["bad"]:
        fail("requests failed through the proxy")


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "examples" and len(argv) == 4:
        examples(argv[2], argv[3])
    elif cmd == "rubiks" and len(argv) in (3, 4):
        rubiks(*argv[2:])
    elif cmd == "drain" and len(argv) == 4:
        drain(argv[2], argv[3])
    elif cmd == "spread" and len(argv) in (6, 7):
        spread(argv[2], argv[3], int(argv[4]), argv[5], argv[6] if len(argv) == 7 else None)
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv)
