#!/usr/bin/env python3
"""Turns a soak run (bench/soak/soak.sh's scratch directory) into bench/RESULTS-soak.md and the
series bench/soak/soak.gp plots.

usage: report.py WORK_DIR RESULTS_MD SERIES_DAT CONDITIONS

Latencies per puzzle are the server's own (duration_ms in its access log, from arrival to the
last byte handed to the connection); requests/s and the overall percentiles are wrk's, as the
client saw them. A request's kind, puzzle and expected status travel in its X-Request-Id
(bench/soak/mixed.lua)."""
import collections
import datetime
import os
import re
import sys

work, results, series, conditions = sys.argv[1:5]
here = os.path.dirname(series)


def epoch(iso):
    t = datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%f")
    return t.replace(tzinfo=datetime.timezone.utc).timestamp()


def pct(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100.0 * (len(s) - 1))))]


phases = {}
for line in open(os.path.join(work, "phases.txt")):
    name, t = line.split()
    phases[name] = float(t)
t0 = phases["idle-start"]
windows = {c: (phases[c + "-start"], phases[c + "-end"]) for c in ("c1", "c64")}


def phase_of(t):
    for c, (a, b) in windows.items():
        if a - 0.5 <= t <= b + 0.5:
            return c
    return None


requests = []  # (t, path, status, ms, puzzle, kind, expected)
for line in open(os.path.join(work, "requests.txt")):
    parts = line.split()
    if len(parts) != 5:
        continue
    iso, path, status, ms, rid = parts
    bits = rid.split(".")
    if len(bits) >= 3 and bits[-1].isdigit():
        puzzle, kind, expected = bits[0], ".".join(bits[1:-1]), int(bits[-1])
    else:
        puzzle, kind, expected = "other", path, None
    requests.append((epoch(iso), path, int(status), float(ms), puzzle, kind, expected))


def wrk_summary(c):
    text = open(os.path.join(work, "wrk-%s.txt" % c)).read()
    out = {"rps": re.search(r"Requests/sec:\s+([\d.]+)", text).group(1)}
    out["total"] = re.search(r"(\d+) requests in", text).group(1)
    for p in ("50", "99"):
        m = re.search(r"^\s+%s%%\s+(\S+)" % p, text, re.M)
        out["p" + p] = m.group(1) if m else "?"
    m = re.search(r"Socket errors: (.*)", text)
    out["socket"] = m.group(1).strip() if m else "none"
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    out["non2xx"] = m.group(1) if m else "0"
    return out


rss = []
for line in open(os.path.join(work, "rss.txt")):
    parts = line.split()
    if len(parts) == 2:
        rss.append((float(parts[0]) - t0, int(parts[1]) / 1024.0))


def rss_in(a, b):
    vals = [m for t, m in rss if a <= t <= b]
    return max(vals) if vals else float("nan")


md = []
md.append("# Soak: mixed traffic with hostile requests, concurrency 1 and 64")
md.append("")
md.append("Measured %s UTC by `bench/soak/soak.sh` (rerun it to refresh this file and the plot)."
          % datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M"))
md.append("Conditions: %s. The machine is a shared 2-core VM: other builds and tests ran at the "
          "same time, so absolute figures are noisy; the shape (errors, memory) is the point."
          % conditions)
md.append("")
md.append("The mix (`bench/soak/mixed.lua`): every puzzle in JSON and contest text, small and "
          "medium instances, plus about one request in seven hostile: malformed JSON, wrong types, "
          "a non-object body, 5 000-deep nesting, an unknown puzzle, missing and wrong "
          "Content-Type, invalid UTF-8, an out-of-range number, an oversize body (413), and two "
          "bodies within the size limit but wide (a JSON array of ~87 000 `{}`; ~26 000 text "
          "instances of a 2 x 1 board).")
md.append("")
md.append("## Throughput (wrk, client side)")
md.append("")
md.append("| connections | requests | requests/s | p50 | p99 | socket errors | non-2xx (expected: the hostile ones) |")
md.append("|---|---|---|---|---|---|---|")
for c in ("c1", "c64"):
    w = wrk_summary(c)
    md.append("| %s | %s | %s | %s | %s | %s | %s |" % (c[1:], w["total"], w["rps"], w["p50"],
                                                       w["p99"], w["socket"], w["non2xx"]))
md.append("")
md.append("## Latency per puzzle (server side, ms from arrival to the last byte handed over)")
md.append("")
md.append("| connections | puzzle | requests | p50 ms | p99 ms | max ms | unexpected status | "
          "unanswered (wrk stopped) |")
md.append("|---|---|---|---|---|---|---|---|")
unexpected_all = collections.Counter()
for c in ("c1", "c64"):
    by = collections.defaultdict(list)
    bad = collections.Counter()
    gone = collections.Counter()
    for t, path, status, ms, puzzle, kind, expected in requests:
        if phase_of(t) != c:
            continue
        by[puzzle].append(ms)
        if status == 0:
            gone[puzzle] += 1  # wrk closed the connection at the end of the phase
        elif expected is not None and status != expected:
            bad[puzzle] += 1
            unexpected_all[(puzzle, kind, expected, status)] += 1
    for puzzle in sorted(by):
        v = by[puzzle]
        md.append("| %s | %s | %d | %.2f | %.2f | %.1f | %d | %d |"
                  % (c[1:], puzzle, len(v), pct(v, 50), pct(v, 99), max(v), bad[puzzle],
                     gone[puzzle]))
md.append("")
md.append("## Answers by kind (both phases)")
md.append("")
md.append("| kind | expected | requests | statuses seen (0: unanswered when wrk stopped) | p99 ms |")
md.append("|---|---|---|---|---|")
kinds = collections.defaultdict(list)
for t, path, status, ms, puzzle, kind, expected in requests:
    if expected is not None and phase_of(t):
        kinds[(puzzle + "." + kind, expected)].append((status, ms))
for (kind, expected), v in sorted(kinds.items()):
    seen = collections.Counter(s for s, _ in v)
    md.append("| %s | %d | %d | %s | %.1f |" % (kind, expected, len(v),
              ", ".join("%d x %d" % (n, s) for s, n in sorted(seen.items())),
              pct([m for _, m in v], 99)))
md.append("")
if unexpected_all:
    md.append("Unexpected statuses: " + "; ".join(
        "%s.%s expected %d got %d (%d x)" % (p, k, e, s, n)
        for (p, k, e, s), n in sorted(unexpected_all.items())) + ".")
else:
    md.append("Every request got the status its kind expects.")
md.append("")
md.append("## Resident memory (VmRSS, sampled every 0.25 s)")
md.append("")
idle0 = rss_in(0, windows["c1"][0] - t0)
md.append("| when | MiB |")
md.append("|---|---|")
md.append("| idle before | %.1f |" % idle0)
md.append("| peak at 1 connection | %.1f |" % rss_in(windows["c1"][0] - t0, windows["c1"][1] - t0))
md.append("| peak at 64 connections | %.1f |" % rss_in(windows["c64"][0] - t0, windows["c64"][1] - t0))
end = phases["idle-end"] - t0
md.append("| idle, 10 s after the load | %.1f |" % rss_in(end - 1.5, end))
md.append("")
md.append("![latency, throughput and memory over time](soak/soak.png)")
md.append("")
open(results, "w").write("\n".join(md))

# Per-second series for the plot: t, requests, p50, p99 (all requests arriving that second).
per = collections.defaultdict(list)
for t, path, status, ms, puzzle, kind, expected in requests:
    per[int(t - t0)].append(ms)
with open(series, "w") as f:
    f.write("# t_s requests p50_ms p99_ms\n")
    for s in range(0, int(end) + 1):
        v = per.get(s, [])
        if v:
            f.write("%d %d %.3f %.3f\n" % (s, len(v), pct(v, 50), pct(v, 99)))
        else:
            f.write("%d 0 NaN NaN\n" % s)
with open(os.path.join(here, "soak-rss.dat"), "w") as f:
    f.write("# t_s rss_mib\n")
    for t, m in rss:
        f.write("%.2f %.1f\n" % (t, m))
with open(os.path.join(here, "soak-phases.gp"), "w") as f:
    f.write("set xrange [0:%d]\n" % (int(end) + 1))
    for i, c in enumerate(("c1", "c64")):
        a, b = windows[c]
        f.write("set object %d rect from %.1f, graph 0 to %.1f, graph 1 behind "
                "fillcolor rgb '%s' fillstyle solid 0.15 noborder\n"
                % (i + 1, a - t0, b - t0, "#4477aa" if c == "c1" else "#cc6677"))
