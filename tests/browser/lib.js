/* Shared by the browser tests: start puzzled on loopback, launch Debian's chromium through
 * playwright-core (never a downloaded browser), serve a page from another loopback port, and a
 * tiny runner that prints "N passed, N failed". */
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const http = require("http");
const os = require("os");
const path = require("path");
const { chromium } = require("playwright-core");

const ROOT = path.resolve(__dirname, "..", "..");
const BINARY = process.env.PUZZLED_BINARY || path.join(ROOT, "build", "puzzled");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const SHOTS = path.join(ROOT, "ci-artifacts", "screenshots");

/* Starts puzzled with --port 0 on 127.0.0.1 and reads the port from its first line. */
function startPuzzled(args = []) {
  return new Promise((resolve, reject) => {
    const proc = spawn(BINARY, ["--port", "0", "--bind", "127.0.0.1", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let buf = "", done = false;
    const timer = setTimeout(() => fail(new Error("puzzled did not say its port within 10 s")), 10000);
    const fail = (e) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      proc.kill("SIGKILL");
      reject(e);
    };
    proc.on("error", fail);
    proc.on("exit", (code) => fail(new Error(`puzzled exited (${code}) before listening: ${buf}`)));
    proc.stderr.on("data", () => {});
    proc.stdout.on("data", (d) => {
      if (done) return; /* the access log: read and dropped */
      buf += d;
      const m = /"port":(\d+)/.exec(buf);
      if (!m) return;
      done = true;
      clearTimeout(timer);
      const port = Number(m[1]);
      resolve({
        port,
        url: `http://127.0.0.1:${port}`,
        stop: () =>
          new Promise((res) => {
            if (proc.exitCode !== null) return res(proc.exitCode);
            proc.once("exit", (c) => res(c));
            proc.kill("SIGTERM");
          }),
      });
    });
  });
}

/* A fresh profile every run, so nothing leaks between runs or from a person's browser. */
async function launchBrowser() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "puzzled-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/* A static page on its own loopback port: another origin than puzzled's. */
function staticServer(html) {
  return new Promise((resolve) => {
    const server = http.createServer((req, res) => {
      if (req.url === "/" || req.url.startsWith("/?")) {
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        res.end(html);
      } else {
        res.writeHead(404, { "Content-Type": "text/plain" });
        res.end("not here");
      }
    });
    server.listen(0, "127.0.0.1", () => {
      const port = server.address().port;
      resolve({
        port,
        origin: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((r) => {
            server.close(r);
            server.closeAllConnections(); /* the browser keeps its connections alive */
          }),
      });
    });
  });
}

/* One request on a fresh connection (no keep-alive pool between polls): {status, body}. */
function request(url, { method = "GET", headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      let data = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (data += d));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: data }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/* A slow request whose length does not depend on the machine, the same as the C tests'
 * harness_slow_mayan (tests/e2e/harness.c): a full 16 x 16 Mayan board of three colours with
 * no run (colour 1 + (x + 2y) mod 3) in 10 moves, which the search does not finish, so it runs
 * until the time budget ends. */
const SLOW_MAYAN = JSON.stringify({
  moves: 10,
  width: 16,
  height: 16,
  columns: Array.from({ length: 16 }, (_, x) => Array.from({ length: 16 }, (_, y) => 1 + ((x + 2 * y) % 3))),
});

/* Fills a --workers 1 --queue 1 server: one slow job running, one waiting, so the next request
 * is refused with 503. Returns the two requests' promises. */
async function fillQueue(base) {
  const slow = () => request(base + "/solve/mayan", { method: "POST", headers: { "Content-Type": "application/json" }, body: SLOW_MAYAN });
  const waitFor = async (what, ok) => {
    for (let i = 0; i < 200; i++) {
      if (ok(await request(base + what))) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error("the server never reached the state " + what);
  };
  const first = slow();
  await waitFor("/metrics", (r) => /^puzzled_workers_busy 1$/m.test(r.body));
  const second = slow();
  await waitFor("/readyz", (r) => r.status === 503);
  return [first, second];
}

/* Tests run one after another; each failure is printed with its reason. */
function runner() {
  const results = [];
  return {
    async test(name, fn) {
      const t0 = Date.now();
      try {
        await fn();
        results.push(true);
        console.log(`ok   ${name} (${Date.now() - t0} ms)`);
      } catch (e) {
        results.push(false);
        console.log(`FAIL ${name}: ${e && e.stack ? e.stack : e}`);
      }
    },
    counts: () => ({ passed: results.filter(Boolean).length, failed: results.filter((r) => !r).length }),
  };
}

function assert(cond, msg) {
  if (!cond) throw new Error(msg || "assertion failed");
}
function assertEq(got, want, msg) {
  const g = JSON.stringify(got), w = JSON.stringify(want);
  if (g !== w) throw new Error(`${msg || "not equal"}:\n  got  ${g.slice(0, 600)}\n  want ${w.slice(0, 600)}`);
}

async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, name + ".png"), fullPage: true });
}

module.exports = { request, fillQueue, SLOW_MAYAN, startPuzzled, launchBrowser, staticServer, runner, assert, assertEq, shot, ROOT, BINARY };
