/* Browser tests of puzzled: the page at GET / and CORS from another origin, in Debian's
 * chromium (headless). Usage: node run.js [page|limits|cors ...]; PUZZLED_BINARY names the binary
 * (default build/puzzled), CHROMIUM the browser (default /usr/bin/chromium). Screenshots go to
 * ci-artifacts/screenshots/. Prints "N passed, N failed"; exits 1 on any failure. */
"use strict";
const fs = require("fs");
const { launchBrowser, runner, BINARY } = require("./lib");
const { pageTests, limitTests } = require("./page.test");
const { corsTests } = require("./cors.test");

(async () => {
  if (!fs.existsSync(BINARY)) {
    console.error(`no puzzled binary at ${BINARY}: build it first (cmake -B build && cmake --build build)`);
    process.exit(2);
  }
  const only = process.argv.slice(2);
  const want = (name) => only.length === 0 || only.includes(name);
  const t = runner();
  const report = [];
  const started = Date.now();
  const phase = (what) => console.log(`# ${what} at ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const browser = await launchBrowser();
  try {
    phase("browser started");
    if (want("page")) await pageTests(t, browser, report);
    phase("page tests done");
    if (want("limits")) await limitTests(t, browser);
    phase("limit tests done");
    if (want("cors")) await corsTests(t, browser);
    phase("cors tests done");
  } catch (e) {
    await t.test("setting up", () => Promise.reject(e));
  } finally {
    await browser.close();
    phase("browser closed");
  }
  for (const line of report) console.log("measured: " + line);
  const { passed, failed } = t.counts();
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})();
