/* Cross-origin: a page served from another loopback port calls puzzled with fetch. The origin on
 * --cors-origins gets its answers and can read the headers the contract gives a meaning to; a
 * preflight for a method or path puzzled does not have fails; another origin is refused. */
"use strict";
const { startPuzzled, staticServer, fillQueue, request, assert, assertEq } = require("./lib");

const BLANK = "<!doctype html><html lang=en><head><meta charset=utf-8><title>other origin</title><link rel=icon href=data:,></head><body><p>a page on another origin</p></body></html>";
const NINE = '{"a":["100","000","000"],"b":["111","111","011"]}';

/* Runs fetch inside the page (so the browser applies CORS) and reports what a script sees. */
function call(page, url, init) {
  return page.evaluate(async ({ url, init }) => {
    try {
      const res = await fetch(url, init);
      const h = (n) => res.headers.get(n);
      return { status: res.status, body: await res.text(), requestId: h("X-Request-Id"), allow: h("Allow"), retryAfter: h("Retry-After") };
    } catch (e) {
      return { refused: String(e) };
    }
  }, { url, init });
}

async function corsTests(t, browser) {
  const allowed = await staticServer(BLANK);
  const other = await staticServer(BLANK);
  const srv = await startPuzzled(["--cors-origins", allowed.origin, "--workers", "1", "--queue", "1", "--time-limit-ms", "1500"]);
  const json = { method: "POST", headers: { "Content-Type": "application/json" }, body: NINE };
  try {
    const page = await browser.context.newPage();
    await page.goto(allowed.origin + "/");

    await t.test("cors: the allowed origin gets the answer and reads X-Request-Id", async () => {
      const r = await call(page, srv.url + "/solve/nine", json);
      assertEq(r.status, 200, "status " + JSON.stringify(r));
      assertEq(JSON.parse(r.body).move_count, 5, "the answer");
      assert(r.requestId && r.requestId.length > 0, "X-Request-Id readable");
    });

    await t.test("cors: the allowed origin reads Allow on a 405", async () => {
      const r = await call(page, srv.url + "/solve/nine", { method: "GET" });
      assertEq(r.status, 405, "status " + JSON.stringify(r));
      assertEq(r.allow, "POST, OPTIONS", "Allow readable");
    });

    await t.test("cors: a preflight for a method the route lacks fails; a path that is none reads its 404", async () => {
      const put = await call(page, srv.url + "/healthz", { method: "PUT" });
      assert(put.refused, "PUT /healthz refused by the browser: " + JSON.stringify(put));
      // openapi.yaml: OPTIONS on any path is 204, so the page reads the request's own 404.
      const nowhere = await call(page, srv.url + "/nowhere", json);
      assertEq(nowhere.status, 404, "POST /nowhere (preflighted) " + JSON.stringify(nowhere));
      assertEq(JSON.parse(nowhere.body).error.code, "not_found", "the error body");
      const pre = await request(srv.url + "/healthz", { method: "OPTIONS", headers: { Origin: allowed.origin, "Access-Control-Request-Method": "PUT" } });
      assertEq(pre.headers["access-control-allow-methods"], "GET, HEAD, OPTIONS", "the route's methods only");
    });

    await t.test("cors: the allowed origin reads Retry-After on a 503", async () => {
      const busy = await fillQueue(srv.url);
      const r = await call(page, srv.url + "/solve/nine", json);
      assertEq(r.status, 503, "status " + JSON.stringify(r));
      assertEq(r.retryAfter, "1", "Retry-After readable");
      assertEq(JSON.parse(r.body).error.code, "overloaded", "the error body");
      await Promise.all(busy);
    });

    await t.test("cors: another origin is refused by the browser", async () => {
      const p2 = await browser.context.newPage();
      await p2.goto(other.origin + "/");
      const post = await call(p2, srv.url + "/solve/nine", json);
      assert(post.refused, "POST from another origin refused: " + JSON.stringify(post));
      const get = await call(p2, srv.url + "/healthz", {});
      assert(get.refused, "even a simple GET cannot be read: " + JSON.stringify(get));
      await p2.close();
    });
    await page.close();
  } finally {
    const t0 = Date.now();
    await srv.stop();
    console.log(`# puzzled stopped in ${Date.now() - t0} ms`);
    await allowed.close();
    await other.close();
  }
}

module.exports = { corsTests };
