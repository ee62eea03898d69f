/* The page at GET /, driven as a person would (by role and name): for every puzzle load the
 * example, solve it, and check what the page shows against boards this file computes itself
 * (the solved board, the example as sent) and counts fetched from the API directly. */
"use strict";
const { startPuzzled, fillQueue, SLOW_MAYAN, assert, assertEq, shot } = require("./lib");

const MOVES = ["nine", "rubiks-rectangle", "mayan"];
const COUNTS = ["invariant-boards", "maze-tac-toe"];

/* ---- boards computed here, independently of the page ---------------------------------------- */

function solvedBoard(slug, ex) {
  if (slug === "nine") {
    const n = ex.a.length;
    return { A: Array.from({ length: n }, () => "0".repeat(n)), B: Array.from({ length: n }, () => "1".repeat(n)) };
  }
  if (slug === "rubiks-rectangle") {
    const h = ex.board.length, w = ex.board[0].length;
    return { "": Array.from({ length: h }, (_, r) => Array.from({ length: w }, (_, c) => String(r * w + c + 1)).join(",")) };
  }
  const w = ex.width || 5, h = ex.height || 7;
  return { "": Array.from({ length: h }, () => Array(w).fill("0").join(",")) };
}

function sentBoard(slug, ex) {
  if (slug === "nine") return { A: ex.a, B: ex.b };
  if (slug === "rubiks-rectangle") return { "": ex.board.map((r) => r.join(",")) };
  const w = ex.width || 5, h = ex.height || 7;
  return { "": Array.from({ length: h }, (_, r) => Array.from({ length: w }, (_, x) => String(ex.columns[x][h - 1 - r] || 0)).join(",")) };
}

/* The answer board as the page shows it: per row group, one string per row. */
async function readBoard(page, slug) {
  return page.evaluate((slug) => {
    const grid = document.querySelector('[role="grid"][aria-label="Answer board"]');
    const out = {};
    for (const group of grid.querySelectorAll('[role="rowgroup"]')) {
      const label = slug === "nine" ? group.getAttribute("aria-label") : "";
      const rows = [];
      for (const cell of group.querySelectorAll('[role="gridcell"]')) {
        const r = Number(cell.dataset.r), c = Number(cell.dataset.c);
        (rows[r] = rows[r] || [])[c] = cell.dataset.v;
      }
      out[label] = rows.map((r) => r.join(slug === "nine" ? "" : ","));
    }
    return out;
  }, slug);
}

async function api(base, slug, body, ctype = "application/json") {
  const res = await fetch(`${base}/solve/${slug}`, { method: "POST", headers: { "Content-Type": ctype }, body });
  return { status: res.status, json: ctype === "application/json" ? await res.json() : await res.text() };
}

/* ---- helpers that act as a user -------------------------------------------------------------- */

const button = (page, name) => page.getByRole("button", { name, exact: true });

async function choose(page, slug) {
  await page.getByRole("combobox", { name: "Puzzle" }).selectOption(slug);
}

/* The puzzle's example, edited as a board. */
async function exampleBoard(page, slug) {
  await choose(page, slug);
  await page.getByLabel("Edit as").selectOption("board");
  await button(page, "Example").click();
}

async function solveAndWait(page) {
  await button(page, "Solve").click();
  await page.waitForSelector("#answer[data-ready]", { timeout: 60000 });
}

async function stepTo(page, key) {
  const slider = page.getByRole("slider", { name: "Step" });
  await slider.focus();
  await slider.press(key);
}

/* Steps to the end of the replay and waits until the page shows the board solved. */
async function replayToSolved(page) {
  await stepTo(page, "End");
  await page.waitForFunction(() => document.getElementById("answer-board").dataset.solved === "1");
}

async function waitStep(page, step) {
  await page.waitForFunction((s) => document.getElementById("answer-board").dataset.step === String(s), step, { timeout: 60000 });
}

async function requestText(page) {
  const details = page.locator("details", { has: page.locator("#request") });
  if (!(await details.evaluate((d) => d.open))) await details.locator("summary").click();
  await page.waitForTimeout(150); /* the preview follows edits after a short debounce */
  return page.locator("#request").textContent();
}

async function noOverflow(page, what) {
  const bad = await page.evaluate(() => {
    const W = window.innerWidth;
    const out = [];
    if (document.scrollingElement.scrollWidth > W) out.push(`scrollWidth ${document.scrollingElement.scrollWidth} > ${W}`);
    for (const e of document.querySelectorAll("body *")) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.width > W + 0.5 || r.right > W + 0.5) out.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className} right ${Math.round(r.right)} width ${Math.round(r.width)}`);
    }
    return out.slice(0, 5);
  });
  assert(bad.length === 0, `${what}: overflows 375 px: ${bad.join("; ")}`);
}

/* A page that fails the test on a script error or a missing file (a 404 in the console). */
async function openPage(ctx, base, problems, viewport) {
  const page = await ctx.context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  page.on("pageerror", (e) => problems.push("script error: " + e.message));
  page.on("response", (r) => {
    if (r.status() === 404) problems.push("404: " + r.url());
  });
  await page.goto(base + "/");
  await page.waitForFunction(() => document.getElementById("puzzle").options.length === 5);
  return page;
}

/* ---- the tests --------------------------------------------------------------------------------- */

async function pageTests(t, browser, report) {
  const srv = await startPuzzled(["--time-limit-ms", "4000"]);
  const base = srv.url;
  const problems = [];
  try {
    const list = (await (await fetch(base + "/puzzles")).json()).puzzles;
    const info = Object.fromEntries(list.map((p) => [p.slug, p]));
    const page = await openPage(browser, base, problems);

    await t.test("accessible names: Puzzle select, buttons, editor grid, live status", async () => {
      await page.getByRole("combobox", { name: "Puzzle" }).waitFor();
      for (const name of ["Solve", "Example", "Copy as curl"]) await button(page, name).waitFor();
      const cells = await page.getByRole("grid", { name: "Board editor" }).getByRole("gridcell").count();
      assert(cells === 18, `nine's 3 x 3 editor shows A and B: 18 cells, got ${cells}`);
      assertEq(await page.locator("#status").getAttribute("aria-live"), "polite", "status is a live region");
      const limits = await page.locator("#limits").textContent();
      assert(/n from 1 to 64/.test(limits) && !/[{}]/.test(limits), "limits in words: " + limits);
      assert((await page.locator('link[rel="icon"]').count()) === 1, "a favicon is named");
    });

    for (const slug of MOVES) {
      await t.test(`${slug}: example solved, replayed to the solved board, stepped back and forth`, async () => {
        const ex = info[slug].example;
        await choose(page, slug);
        await button(page, "Example").click();
        await solveAndWait(page);
        const direct = await api(base, slug, JSON.stringify(ex));
        const total = direct.json.moves.length;
        const summary = await page.locator("#answer-summary").textContent();
        assert(summary.startsWith(`${total} move`), `summary "${summary}" names ${total} moves`);
        if (slug === "nine") assert(/proven shortest/.test(summary), "nine says optimal: " + summary);
        assert(/answered in \d/.test(summary), "time taken shown: " + summary);
        const grid = page.getByRole("grid", { name: "Answer board" });
        await grid.waitFor();
        assertEq(await readBoard(page, slug), sentBoard(slug, ex), "step 0 shows the board as sent");
        await stepTo(page, "End");
        await waitStep(page, total);
        assertEq(await readBoard(page, slug), solvedBoard(slug, ex), "after the last step the board is solved");
        assert((await page.locator("#answer-board .hl").count()) > 0, "the moved row, column or block is highlighted");
        await button(page, "Previous").click();
        await waitStep(page, total - 1);
        const before = await readBoard(page, slug);
        assert(JSON.stringify(before) !== JSON.stringify(solvedBoard(slug, ex)), "one step before the end is not solved");
        await button(page, "Next").click();
        await waitStep(page, total);
        assertEq(await readBoard(page, slug), solvedBoard(slug, ex), "Next returns to the solved board");
        await stepTo(page, "Home");
        await waitStep(page, 0);
        await button(page, "Play").click();
        await button(page, "Pause").waitFor();
        await waitStep(page, total);
        await button(page, "Play").waitFor({ timeout: 10000 });
        assertEq(await readBoard(page, slug), solvedBoard(slug, ex), "Play ends on the solved board");
        await shot(page, `desktop-${slug}`);
      });
    }

    for (const slug of COUNTS) {
      await t.test(`${slug}: example counted as the API counts, boards listed`, async () => {
        const ex = info[slug].example;
        await choose(page, slug);
        await button(page, "Example").click();
        await solveAndWait(page);
        const direct = await api(base, slug, JSON.stringify(ex));
        assertEq(await page.locator("#count").getAttribute("data-value"), String(direct.json.count), "count");
        const shown = await page.locator("#boards li").count();
        assertEq(shown, direct.json.boards.length, "every board of the example is drawn");
        await shot(page, `desktop-${slug}`);
      });
    }

    await t.test("edit a cell (or n) and the request changes, for every puzzle", async () => {
      /* nine: Space on A's first cell turns its 1 into 0. */
      await choose(page, "nine");
      await button(page, "Example").click();
      let before = await requestText(page);
      assert(before.includes('"100"'), "nine request holds A's first row");
      const cell = page.getByRole("grid", { name: "Board editor" }).getByRole("gridcell").first();
      await cell.focus();
      await cell.press(" ");
      let after = await requestText(page);
      assert(after.includes('"a":["000","000","000"]'), "nine: the toggled cell is in the request: " + after);
      /* The keyboard moves between cells: ArrowRight then "1". */
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("1");
      after = await requestText(page);
      assert(after.includes('"a":["010","000","000"]'), "nine: arrow key and 1: " + after);

      await choose(page, "rubiks-rectangle");
      await button(page, "Example").click();
      const input = page.getByRole("grid", { name: "Board editor" }).getByRole("textbox", { name: "Row 1 column 1" });
      await input.fill("7");
      await input.press("Enter");
      after = await requestText(page);
      assert(after.includes("[7,2,3]"), "rubiks: the typed number is in the request: " + after);
      /* Example replaces the board, and offers to undo that. */
      await button(page, "Example").click();
      assert((await requestText(page)).includes("[1,2,3]"), "the example again");
      await button(page, "Undo").click();
      assert((await requestText(page)).includes("[7,2,3]"), "Undo brings the typed board back");

      await choose(page, "mayan");
      await button(page, "Example").click();
      await page.getByRole("gridcell", { name: "Column 0 row 3, empty" }).click(); /* lands on top of the stack */
      after = await requestText(page);
      assert(after.includes('"columns":[[1,1]'), "mayan: the block stacked on column 0: " + after);

      await choose(page, "maze-tac-toe");
      await button(page, "Example").click();
      await page.getByRole("gridcell", { name: "Row 2 column 2: place O at row 1, column 1" }).click(); /* paints a wall */
      after = await requestText(page);
      assert(after.includes('"#########...###M13###"'), "maze: the painted wall is in the request: " + after);

      await choose(page, "invariant-boards");
      await button(page, "Example").click();
      await page.getByLabel(/Board size n/).fill("7");
      await page.getByLabel(/Board size n/).press("Enter");
      after = await requestText(page);
      assert(after.includes('"n":7'), "invariant-boards: n is in the request: " + after);
    });

    await t.test("an API error is shown next to the cell its path names", async () => {
      await choose(page, "rubiks-rectangle");
      await button(page, "Example").click();
      const input = page.getByRole("textbox", { name: "Row 1 column 1" });
      await input.fill("9"); /* 9 twice: the server names the second one, /board/2/0 */
      await input.press("Enter");
      await button(page, "Solve").click();
      const err = page.locator("#field-error");
      await err.waitFor();
      const text = await err.textContent();
      assert(/second time/.test(text), "the API's message: " + text);
      const bad = page.locator('[data-path="/board/2/0"]');
      assertEq(await bad.getAttribute("aria-invalid"), "true", "the named cell is marked");
      assertEq(await bad.getAttribute("aria-describedby"), "field-error", "the cell is described by the message");
      const g = await page.getByRole("grid", { name: "Board editor" }).boundingBox();
      const e = await err.boundingBox();
      assert(e.y >= g.y + g.height - 1 && e.y - (g.y + g.height) < 40, "the message sits right below the grid");
      assert(/422/.test(await page.locator("#status").textContent()), "the status names the status code");
      await shot(page, "desktop-error-next-to-cell");
      /* A field error on an input: n = 0 is refused by the API with path /n. */
      await choose(page, "invariant-boards");
      await page.getByLabel("Edit as").selectOption("json");
      await page.getByLabel(/Request body/).fill('{"n": 0}');
      await button(page, "Solve").click();
      await page.locator("#field-error").waitFor();
      assert(/At \/n: .*2000/.test(await page.locator("#field-error").textContent()), "JSON mode names the path");
      await page.getByLabel("Edit as").selectOption("board");
    });

    await t.test("switching format and puzzle keeps what was typed", async () => {
      await choose(page, "nine");
      await page.getByLabel("Edit as").selectOption("json");
      const typed = '{"a": ["11", "00"], "b": ["00", "11"]';
      await page.getByLabel(/Request body/).fill(typed); /* not valid JSON yet */
      await page.getByLabel("Edit as").selectOption("board");
      assert(/kept as typed/.test(await page.locator("#status").textContent()), "the page says the text was kept");
      assertEq(await page.getByLabel("Edit as").inputValue(), "json", "and stays in JSON, where it can be mended");
      await choose(page, "mayan");
      await choose(page, "nine");
      await page.getByLabel("Edit as").selectOption("json");
      assertEq(await page.getByLabel(/Request body/).inputValue(), typed, "the typed text survives");
      await page.getByLabel(/Request body/).fill(typed + "}");
      await page.getByLabel("Edit as").selectOption("text");
      assertEq(await page.getByLabel(/Request body/).inputValue(), "11\n00\n00\n11\n", "JSON applied, then shown as contest text");
      await page.getByLabel("Edit as").selectOption("board");
      assertEq(await page.getByRole("grid", { name: "Board editor" }).getByRole("gridcell").count(), 8, "a 2 x 2 board now");
      await solveAndWait(page);
      await replayToSolved(page);
    });

    await t.test("contest text in, text answer replayed", async () => {
      await choose(page, "mayan");
      await page.getByLabel("Edit as").selectOption("text");
      await button(page, "Example").click();
      assertEq(await page.getByLabel(/Request body/).inputValue(), info.mayan.example_text, "the contest example");
      await solveAndWait(page);
      await stepTo(page, "End");
      await waitStep(page, 3);
      assertEq(await readBoard(page, "mayan"), solvedBoard("mayan", info.mayan.example), "empty after the text answer's moves");
      await page.getByLabel("Edit as").selectOption("board");
    });

    await t.test("copy as curl gives a command that works", async () => {
      await choose(page, "nine");
      await button(page, "Example").click();
      await button(page, "Copy as curl").click();
      const cmd = await page.locator("#curl").textContent();
      assert(cmd.startsWith("curl ") && cmd.includes("Content-Type: application/json") && cmd.includes(base + "/solve/nine"), cmd);
      const m = /--data-binary '([^']*)'/.exec(cmd);
      const r = await api(base, "nine", m[1]);
      assertEq(r.status, 200, "the copied body solves");
    });

    await t.test("8356 boards of n = 19 are paged, the page stays responsive", async () => {
      await choose(page, "invariant-boards");
      await page.getByLabel(/Board size n/).fill("19");
      await page.getByLabel(/Board size n/).press("Enter");
      await page.getByLabel(/List one board per class/).check();
      const t0 = Date.now();
      await solveAndWait(page);
      const ms = Date.now() - t0;
      assertEq(await page.locator("#count").getAttribute("data-value"), "8356", "count for n = 19");
      const label = await page.locator("#boards-label").textContent();
      assert(/of 8 356/.test(label), label);
      const first = await page.locator("#boards li").count();
      assert(first > 0 && first <= 24, "one page of boards: " + first);
      await button(page, "Next page").click();
      assert(/^Boards 13–24|^Boards 25–48/.test(await page.locator("#boards-label").textContent()), "next page");
      report.push(`invariant-boards n = 19 with 8 356 boards: ${ms} ms from Solve to the first page drawn`);
      await shot(page, "desktop-invariant-boards-n19");
    });

    await t.test("contract page and favicon load without errors", async () => {
      const p2 = await browser.context.newPage();
      const bad = [];
      p2.on("response", (r) => r.status() >= 400 && bad.push(r.status() + " " + r.url()));
      p2.on("pageerror", (e) => bad.push(e.message));
      await p2.goto(base + "/");
      await p2.getByRole("link", { name: "read it here" }).click();
      await p2.waitForSelector("#routes li");
      const routes = await p2.locator("#routes li").allTextContents();
      assert(routes.some((r) => r.startsWith("/solve/{puzzle} POST")), routes.join(" | "));
      const fav = await fetch(base + "/favicon.ico");
      assertEq(fav.status, 200, "favicon.ico");
      assertEq(bad, [], "no failed request or script error");
      await shot(p2, "desktop-contract");
      await p2.close();
    });

    await t.test("at 375 px nothing overflows, for every puzzle and its answer", async () => {
      const phone = await openPage(browser, base, problems, { width: 375, height: 800 });
      await noOverflow(phone, "start");
      for (const slug of MOVES.concat(COUNTS)) {
        await choose(phone, slug);
        await button(phone, "Example").click();
        await noOverflow(phone, slug + " editor");
        await solveAndWait(phone);
        if (MOVES.includes(slug)) {
          await replayToSolved(phone);
        }
        await noOverflow(phone, slug + " answer");
        await shot(phone, `phone-${slug}`);
      }
      await choose(phone, "nine");
      await phone.getByLabel(/Size n/).fill("9");
      await phone.getByLabel(/Size n/).press("Enter");
      await noOverflow(phone, "nine 9 x 9 editor");
      /* Mayan 16 columns wide: each frame of a move as wide as its picture, none over another. */
      await choose(phone, "mayan");
      await button(phone, "Example").click();
      await phone.getByLabel(/Width/).fill("16");
      await phone.getByLabel(/Width/).press("Enter");
      await solveAndWait(phone);
      await stepTo(phone, "End");
      await phone.waitForSelector(".frames li");
      const frames = await phone.evaluate(() =>
        [...document.querySelectorAll(".frames li")].map((li) => {
          const a = li.getBoundingClientRect(), m = li.querySelector(".mini").getBoundingClientRect();
          return { left: a.left, right: a.right, top: a.top, mLeft: m.left, mRight: m.right };
        }),
      );
      for (const [i, f] of frames.entries()) {
        assert(f.mLeft >= f.left - 0.5 && f.mRight <= f.right + 0.5, `frame ${i}: its picture inside it: ${JSON.stringify(f)}`);
        const g = frames[i + 1];
        if (g && Math.abs(g.top - f.top) < 1) assert(g.left >= f.right, `frames ${i} and ${i + 1} overlap`);
      }
      await noOverflow(phone, "mayan 16 wide answer");
      await phone.close();
    });

    await t.test("1000 x 1000 Rubik's Rectangle: answer on the page, replayed by ranges without freezing", async () => {
      await choose(page, "rubiks-rectangle");
      await page.getByLabel(/Height/).fill("1000");
      await page.getByLabel(/Height/).press("Enter");
      await page.getByLabel(/Width/).fill("1000");
      await page.getByLabel(/Width/).press("Enter");
      await button(page, "Scramble").click();
      await page.waitForFunction(() => /Scrambled/.test(document.getElementById("status").textContent));
      const t0 = Date.now();
      await button(page, "Solve").click();
      await page.waitForSelector("#answer[data-ready]", { timeout: 120000 });
      const toPage = Date.now() - t0;
      const summary = await page.locator("#answer-summary").textContent();
      const total = Number(summary.split(" move")[0].replace(/\s/g, ""));
      assert(total > 1000, "a long answer: " + summary);
      /* Jump to the end: the page applies the flips in slices; probe that it still answers. */
      const t1 = Date.now();
      await stepTo(page, "End");
      let worst = 0;
      while ((await page.locator("#answer-board").getAttribute("data-step")) !== String(total)) {
        const p0 = Date.now();
        await page.evaluate(() => 1);
        worst = Math.max(worst, Date.now() - p0);
        await page.waitForTimeout(20);
        assert(Date.now() - t1 < 120000, "replay to the end took over 2 minutes");
      }
      const toEnd = Date.now() - t1;
      assertEq(await page.locator("#answer-board").getAttribute("data-solved"), "1", "sorted after the last flip");
      assert(worst < 1000, `the page answered within 1 s while replaying (worst ${worst} ms)`);
      const fetchMs = (/answered in (\d+)/.exec(summary) || [])[1];
      report.push(`rubiks-rectangle 1000 x 1000: ${total} flips; ${toPage} ms from Solve to the answer on the page (of which ${fetchMs} ms the HTTP request, 6.9 MB up, 1.5 MB down); ${toEnd} ms to replay to the last flip (page answered a probe within ${worst} ms meanwhile)`);
      await shot(page, "desktop-rubiks-1000");
    });

    await t.test("a JSON body of another size: the size field follows it on the board", async () => {
      await choose(page, "nine");
      await page.getByLabel("Edit as").selectOption("json");
      await page.getByLabel(/Request body/).fill('{"a": ["1100", "0000", "0000", "0000"], "b": ["0011", "1111", "1111", "1111"], "max_moves": 50}');
      await page.getByLabel("Edit as").selectOption("board");
      assertEq(await page.getByLabel(/Size n/).inputValue(), "4", "Size n shows the body's n");
      assertEq(await page.getByLabel(/At most this many moves/).inputValue(), "50", "the option shows the body's max_moves");
    });

    await t.test("nine: Scramble gives a solvable 9 x 9 state, solved and replayed", async () => {
      await choose(page, "nine");
      await page.getByLabel(/At most this many moves/).fill(""); /* left at 50 by the test before */
      await page.getByLabel(/At most this many moves/).press("Enter");
      await page.getByLabel(/Size n/).fill("9");
      await page.getByLabel(/Size n/).press("Enter");
      await button(page, "Scramble").click();
      assert(/random solvable 9 × 9/.test(await page.locator("#status").textContent()), "the status says what Scramble made");
      const body = JSON.parse((await requestText(page)).split("\n\n")[1]);
      assertEq(body.a.length, 9, "a 9 x 9 request");
      const ones = (body.a.join("") + body.b.join("")).split("").filter((c) => c === "1").length;
      assertEq(ones, 81, "as many ones as cells in A (every orbit holds its size)");
      assert(body.a.join("") !== "0".repeat(81), "A is scrambled");
      await solveAndWait(page);
      assert(/\d+ moves/.test(await page.locator("#answer-summary").textContent()), "an answer with moves");
      await replayToSolved(page);
    });

    await t.test("rubiks-rectangle: a cell that is no number is refused, a digit replaces the number", async () => {
      await exampleBoard(page, "rubiks-rectangle");
      const first = page.getByRole("textbox", { name: "Row 1 column 1" });
      await first.fill("abc");
      await first.press("Enter");
      assert(/Row 1, column 1: "abc" is not a whole number from 1 to 9; the cell keeps 1/.test(await page.locator("#status").textContent()), "the refusal is said");
      assertEq(await first.inputValue(), "1", "the cell shows its number again");
      assert((await requestText(page)).includes("[1,2,3]"), "the request keeps the number, not 0");
      /* From the first cell, two steps down with the keyboard land on the 9, selected. */
      await first.focus();
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.type("7");
      await page.keyboard.press("Enter");
      assert((await requestText(page)).includes("[7,8,7]"), "the 9 replaced by 7, not 97: " + (await requestText(page)));
    });

    await t.test("rubiks-rectangle: every instance of a contest text answered, each replayed", async () => {
      await choose(page, "rubiks-rectangle");
      await page.getByLabel("Edit as").selectOption("text");
      await button(page, "Example").click();
      await solveAndWait(page);
      const summary = await page.locator("#answer-summary").textContent();
      assert(/^4 instances \(3 solvable; 1: 1 move, 2: 0 moves, 3: \d+ moves, 4: not solvable\)/.test(summary), summary);
      const pick = page.getByRole("combobox", { name: "Replay" });
      assertEq(await pick.locator("option").count(), 4, "one choice per instance");
      await pick.selectOption("2");
      await replayToSolved(page);
      assert(/4 × 4/.test(await pick.locator("option:checked").textContent()), "the choice names the size");
      await pick.selectOption("3");
      assert(/Instance 4 is not solvable/.test(await page.locator("#instance-note").textContent()), "no replay for an impossible one");
      assert(await page.locator("#replay").isHidden(), "the replay is hidden for it");
      await shot(page, "desktop-rubiks-instances");
    });

    await t.test("an edit after an answer marks the answer as for the instance sent", async () => {
      await exampleBoard(page, "mayan");
      await solveAndWait(page);
      assert(await page.locator("#answer-stale").isHidden(), "a fresh answer is not marked");
      await page.getByRole("grid", { name: "Board editor" }).getByRole("gridcell", { name: "Column 0 row 3, empty" }).click();
      assert(await page.locator("#answer-stale").isVisible(), "the edit marks the answer");
      await solveAndWait(page);
      assert(await page.locator("#answer-stale").isHidden(), "solving again clears the mark");
    });

    await t.test("Ctrl+Enter sends the value still being typed in a field", async () => {
      await exampleBoard(page, "rubiks-rectangle");
      const sent = [];
      const listen = (r) => r.url().endsWith("/solve/rubiks-rectangle") && sent.push(r.postData());
      page.on("request", listen);
      /* Row 3 of the example is 7 8 9: type 9 over the 7 and 7 over the 9, leave the focus in the
       * last cell and press Ctrl+Enter. */
      await page.getByRole("textbox", { name: "Row 3 column 1" }).fill("9");
      await page.getByRole("textbox", { name: "Row 3 column 3" }).fill("7");
      await page.keyboard.press("Control+Enter");
      await page.waitForSelector("#answer[data-ready]", { timeout: 60000 });
      page.off("request", listen);
      assertEq(sent.length, 1, "one request");
      assert(sent[0].includes("[9,8,7]"), "the board on screen is the board sent: " + sent[0]);
      await replayToSolved(page);
      /* The same for an option: mayan's moves typed and sent at once. */
      await choose(page, "mayan");
      await button(page, "Example").click();
      await page.getByLabel(/Clear it in exactly/).fill("2");
      await page.keyboard.press("Control+Enter");
      await page.waitForFunction(() => /^(Solved|Not solvable)/.test(document.getElementById("status").textContent));
      assert(/"moves":2/.test(await requestText(page)), "moves 2 sent");
      assert(!/Solved: 3 moves/.test(await page.locator("#status").textContent()), "not the answer to 3 moves");
    });

    await t.test("a value refused while typing is said, and Ctrl+Enter does not send the old board", async () => {
      await exampleBoard(page, "rubiks-rectangle");
      await solveAndWait(page);
      const sent = [];
      const listen = (r) => r.url().endsWith("/solve/rubiks-rectangle") && sent.push(r.postData());
      page.on("request", listen);
      await page.getByRole("textbox", { name: "Row 1 column 1" }).fill("0");
      await page.keyboard.press("Control+Enter");
      await page.waitForTimeout(300);
      page.off("request", listen);
      assertEq(sent.length, 0, "nothing sent");
      const said = await page.locator("#status").textContent();
      assert(/Row 1, column 1: "0" is not a whole number/.test(said), "the refusal stays: " + said);
      /* The next Ctrl+Enter, with nothing refused, sends the board on screen. */
      await page.keyboard.press("Control+Enter");
      await page.waitForFunction(() => /^Solved/.test(document.getElementById("status").textContent));
    });

    await t.test("nine: each matrix keeps its tab stop after a keyboard move in the other", async () => {
      await exampleBoard(page, "nine");
      const b11 = page.getByRole("gridcell", { name: "B row 1 column 1" });
      await b11.focus();
      await b11.press("ArrowRight");
      await page.keyboard.press("Space");
      const stops = await page.evaluate(() =>
        [...document.querySelectorAll('[role="grid"][aria-label="Board editor"] [role="rowgroup"]')].map((g) => g.querySelectorAll('[tabindex="0"]').length),
      );
      assertEq(JSON.stringify(stops), "[1,1]", "one tab stop in A and one in B");
      await page.keyboard.press("Shift+Tab");
      const at = await page.evaluate(() => document.activeElement.getAttribute("aria-label") || "");
      assert(/^A row/.test(at), "Shift+Tab from B goes to A: " + at);
      await button(page, "Example").click();
    });

    await t.test("size fields and replay buttons keep the keyboard focus", async () => {
      await exampleBoard(page, "nine");
      const size = page.getByLabel(/Size n/);
      await size.focus();
      await size.press("ArrowUp");
      await size.press("ArrowUp");
      assertEq(await size.inputValue(), "5", "two steps up from 3");
      assertEq(await page.evaluate(() => document.activeElement.id), "size-n", "the field keeps the focus");
      assert((await requestText(page)).includes('"a":["10000"'), "a 5 x 5 request");
      await button(page, "Example").click();
      await solveAndWait(page);
      const next = button(page, "Next");
      await next.focus();
      for (let i = 0; i < 12 && !(await next.isDisabled()); i++) await page.keyboard.press("Enter");
      assert(await next.isDisabled(), "Next is disabled at the last step");
      assertEq(await page.evaluate(() => document.activeElement.id), "step", "the slider takes the focus");
    });

    await t.test("nine 64 x 64: clicks flip the cell under the pointer, the keyboard edits too", async () => {
      await choose(page, "nine");
      await page.getByLabel("Edit as").selectOption("board");
      await page.getByLabel(/Size n/).fill("64");
      await page.getByLabel(/Size n/).press("Enter");
      const n = 64;
      const body = async () => JSON.parse((await requestText(page)).split("\n\n")[1]);
      const editor = page.getByRole("grid", { name: "Board editor" });
      assertEq(await editor.getAttribute("aria-readonly"), "false", "the picture is an editor");
      /* Cells a map of 2n columns (no blank one between A and B) took for their neighbours;
       * `at`: where in the cell, from its left. The picture is inside a 1 px border. */
      const cases = [["a", 10, 60, 0.4], ["a", 5, 63, 0.4], ["b", 30, 0, 0.6], ["b", 63, 10, 0.6]];
      for (const [which, r, c, at] of cases) {
        const before = await body();
        const box = await page.locator("#editor canvas").boundingBox();
        const k = which === "a" ? c : c + n + 1;
        const x = box.x + 1 + ((k + at) / (2 * n + 1)) * (box.width - 2), y = box.y + 1 + ((r + 0.5) / n) * (box.height - 2);
        await page.mouse.click(Math.round(x), Math.round(y));
        const after = await body();
        const changed = [];
        for (const m of ["a", "b"]) for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (before[m][i][j] !== after[m][i][j]) changed.push(`${m}${i},${j}`);
        assertEq(changed, [`${which}${r},${c}`], `a click on ${which} row ${r} column ${c} flips that cell alone`);
      }
      /* Keyboard: the cursor starts where the last click was (B row 63, column 10, 0-based);
       * two steps left and one up, then 0 on B's 1; nine more steps left cross the blank
       * column into A's last column. */
      await editor.focus();
      for (const key of ["ArrowLeft", "ArrowLeft", "ArrowUp"]) await page.keyboard.press(key);
      await page.keyboard.press("0");
      assertEq((await body()).b[62][8], "0", "0 set B row 62 column 8");
      assert(/Cursor: B row 63 column 9, 0/.test(await editor.textContent()), "the cursor is said in words");
      for (let i = 0; i < 9; i++) await page.keyboard.press("ArrowLeft");
      await page.keyboard.press(" ");
      assertEq((await body()).a[62][63], "1", "Space flipped A row 62 column 63");
      assertEq(await page.evaluate(() => document.activeElement.getAttribute("aria-label")), "Board editor", "the editor keeps the focus");
      /* Ctrl+Enter with the editor focused solves the board as shown: it flips nothing. */
      const shown = await body();
      const sent = [];
      const listen = (req) => req.url().endsWith("/solve/nine") && sent.push(req.postData());
      page.on("request", listen);
      await page.keyboard.press("Control+Enter");
      await page.waitForSelector("#answer[data-ready]", { timeout: 60000 });
      page.off("request", listen);
      assertEq(JSON.parse(sent[0]).a, shown.a, "A sent as shown");
      assertEq(JSON.parse(sent[0]).b, shown.b, "B sent as shown");
      /* A smaller board keeps the cursor in its matrix, at its edge (it was on A row 63, column 64). */
      await page.getByLabel(/Size n/).fill("20");
      await page.getByLabel(/Size n/).press("Enter");
      await editor.focus();
      assert(/Cursor: A row 20 column 20,/.test(await editor.textContent()), "the cursor stays in A: " + (await editor.textContent()));
      await page.getByLabel(/Size n/).fill("3");
      await page.getByLabel(/Size n/).press("Enter");
    });

    await t.test("no body sent that is not the board being edited", async () => {
      /* mayan 6 wide has no contest text: the text field is empty and Solve says why. */
      await choose(page, "mayan");
      await page.getByLabel("Edit as").selectOption("text");
      await page.getByLabel("Edit as").selectOption("board");
      await page.getByLabel(/Width/).fill("6");
      await page.getByLabel(/Width/).press("Enter");
      await page.getByLabel("Edit as").selectOption("text");
      assertEq(await page.getByLabel(/Request body/).inputValue(), "", "no text for a 6-wide board");
      let posted = 0;
      const count = (r) => r.url().includes("/solve/") && posted++;
      page.on("request", count);
      await button(page, "Solve").click();
      assert(/Nothing to send.*5 × 7 boards only/.test(await page.locator("#status").textContent()), "Solve says why it sends nothing");
      page.off("request", count);
      assertEq(posted, 0, "nothing posted");
      await page.getByLabel("Edit as").selectOption("board");
      await page.getByLabel(/Width/).fill("5");
      await page.getByLabel(/Width/).press("Enter");
      /* JSON the board cannot show keeps its mode and says so, instead of being cut. */
      await page.getByLabel("Edit as").selectOption("json");
      await page.getByLabel(/Request body/).fill('{"moves":1,"columns":[[1,2,1,2,1,2,1,2],[],[],[],[]]}');
      await page.getByLabel("Edit as").selectOption("board");
      assertEq(await page.getByLabel("Edit as").inputValue(), "json", "still JSON");
      assert(/Column 0 holds 8 blocks but the board is 7 high/.test(await page.locator("#status").textContent()), "the status says why");
      await choose(page, "rubiks-rectangle");
      await page.getByLabel("Edit as").selectOption("json");
      await page.getByLabel(/Request body/).fill('{"board":[[1,2,3],[4,5,6],[7,8,9.5]]}');
      await page.getByLabel("Edit as").selectOption("board");
      assertEq(await page.getByLabel("Edit as").inputValue(), "json", "a fraction stays in the JSON");
      assert(/9\.5, not a whole number/.test(await page.locator("#status").textContent()), "and is named");
      await page.getByLabel(/Request body/).fill('{"board":[[1,2,3],[4,5,6],[7,8,9]]}');
      await page.getByLabel("Edit as").selectOption("board");
      assert(!/kept as typed/.test(await page.locator("#status").textContent()), "the warning goes once the JSON applies");
      /* An example's contest text is the example's: once typed JSON changes the board, the text
       * is the new board's. */
      await choose(page, "nine");
      await button(page, "Example").click();
      await page.getByLabel("Edit as").selectOption("json");
      await page.getByLabel(/Request body/).fill('{"a":["0"],"b":["1"]}');
      await page.getByLabel("Edit as").selectOption("text");
      assertEq(await page.getByLabel(/Request body/).inputValue(), "0\n1\n", "the text of the typed board");
      await page.getByLabel("Edit as").selectOption("board");
      await button(page, "Example").click();
    });

    await t.test("the hash names the puzzle: typed in the address bar, Back and Forward", async () => {
      await choose(page, "nine");
      await page.evaluate(() => (location.hash = "mayan"));
      await page.waitForFunction(() => document.getElementById("puzzle").value === "mayan");
      await choose(page, "invariant-boards");
      assertEq(new URL(page.url()).hash, "#invariant-boards", "the hash follows the choice");
      await page.goBack();
      await page.waitForFunction(() => document.getElementById("puzzle").value === "mayan");
      await page.goForward();
      await page.waitForFunction(() => document.getElementById("puzzle").value === "invariant-boards");
      /* An Undo is for the puzzle it was offered on: switching puzzles takes it away. */
      await choose(page, "nine");
      await page.getByLabel(/Size n/).fill("5");
      await page.getByLabel(/Size n/).press("Enter");
      assertEq(await button(page, "Undo").count(), 1, "resizing offers Undo");
      await choose(page, "invariant-boards");
      assertEq(await button(page, "Undo").count(), 0, "not on another puzzle");
      /* Back to the page as first opened shows the puzzle it opened on. */
      const fresh = await openPage(browser, base, problems);
      await choose(fresh, "mayan");
      await fresh.goBack();
      await fresh.waitForFunction(() => document.getElementById("puzzle").value === "nine");
      await fresh.close();
    });

    await t.test("no script error and no 404 on the page", async () => {
      assertEq(problems, [], "problems");
    });
    await page.close();
  } finally {
    await srv.stop();
  }
}

/* 413, 422 time_limit and 503 explained in words, on a server with small limits. */
async function limitTests(t, browser) {
  const srv = await startPuzzled(["--workers", "1", "--queue", "1", "--time-limit-ms", "1500", "--max-body", "20000"]);
  try {
    const problems = [];
    const page = await openPage(browser, srv.url, problems);
    await t.test("413, 422 time_limit and 503 are explained in words", async () => {
      await choose(page, "rubiks-rectangle");
      await page.getByLabel(/Height/).fill("100");
      await page.getByLabel(/Height/).press("Enter");
      await page.getByLabel(/Width/).fill("100");
      await page.getByLabel(/Width/).press("Enter");
      await button(page, "Solve").click();
      await page.waitForFunction(() => /^413/.test(document.getElementById("status").textContent));
      assert(/larger than this server accepts/.test(await page.locator("#explain").textContent()), "413 explained");

      await choose(page, "mayan");
      await page.getByLabel("Edit as").selectOption("json");
      await page.getByLabel(/Request body/).fill(SLOW_MAYAN);
      await button(page, "Solve").click();
      await page.waitForFunction(() => /time_limit/.test(document.getElementById("status").textContent), null, { timeout: 20000 });
      assert(/time budget/.test(await page.locator("#explain").textContent()), "time_limit explained");

      /* Occupy the only worker and the one queue place, then solve from the page. */
      const busy = await fillQueue(srv.url);
      await button(page, "Solve").click();
      await page
        .waitForFunction(() => /^503/.test(document.getElementById("status").textContent), null, { timeout: 10000 })
        .catch(async (e) => {
          throw new Error(`${e.message}; the status says: ${await page.locator("#status").textContent()}`);
        });
      const words = await page.locator("#explain").textContent();
      assert(/busy/.test(words) && /in 1 second/.test(words), "503 explained with its Retry-After: " + words);
      await shot(page, "desktop-503-explained");
      await Promise.all(busy);
    });

    await t.test("switching puzzles while solving drops the late answer and says so", async () => {
      await choose(page, "mayan");
      await page.getByLabel("Edit as").selectOption("json");
      await page.getByLabel(/Request body/).fill(SLOW_MAYAN);
      await button(page, "Solve").click();
      await page.waitForFunction(() => /^Solving/.test(document.getElementById("status").textContent));
      await choose(page, "invariant-boards");
      const said = /still on its way is dropped/;
      assert(said.test(await page.locator("#status").textContent()), "the status says the answer is dropped");
      assertEq(await button(page, "Solve").getAttribute("aria-busy"), null, "Solve is not busy any more");
      await page.waitForTimeout(2500); /* past the server's 1.5 s budget: its 422 arrives and is dropped */
      assert(said.test(await page.locator("#status").textContent()), "the late answer does not overwrite the status");
      assert(await page.locator("#answer").isHidden(), "nothing shown for the puzzle left behind");
    });

    await t.test("an answer that has arrived is not said to be dropped when the puzzle changes", async () => {
      await exampleBoard(page, "nine");
      await solveAndWait(page);
      await choose(page, "mayan");
      assertEq(await page.locator("#status").textContent(), "", "no message about an answer on its way");
    });

    await t.test("answers that are not puzzled's are said to be so", async () => {
      await choose(page, "nine");
      await button(page, "Example").click();
      const cases = [
        { name: "a proxy's HTML 502", status: 502, type: "text/html", body: "<html><body><h1>502 Bad Gateway</h1></body></html>", says: /^502 Bad Gateway, and not from puzzled/ },
        { name: "an empty 504", status: 504, type: "text/plain", body: "", says: /^504 Gateway Timeout, and not from puzzled/ },
        { name: "JSON cut off", status: 200, type: "application/json", body: '{"n":3,"solvable":true,"move_co', says: /^200, but the answer is not whole JSON/ },
        { name: "a portal's HTML 200", status: 200, type: "text/html", body: "<html>Log in to the Wi-Fi</html>", says: /^200, but the answer is text\/html, not application\/json/ },
      ];
      for (const c of cases) {
        await page.route("**/solve/nine", (route) => route.fulfill({ status: c.status, contentType: c.type, body: c.body }));
        await button(page, "Solve").click();
        await page.waitForFunction(() => !/^Solving/.test(document.getElementById("status").textContent));
        const said = await page.locator("#status").textContent();
        assert(c.says.test(said), `${c.name}: the status says: ${said}`);
        assert(!said.includes("<"), `${c.name}: no markup in the status`);
        /* "The raw answer is below": it is, opened, and nothing else of an answer. */
        assert(/^Not an answer from puzzled/.test(await page.locator("#answer-summary").textContent()), `${c.name}: the summary says so`);
        assert(await page.locator("#raw").isVisible(), `${c.name}: the raw answer is shown`);
        assertEq(await page.locator("#raw").textContent(), c.body || "(no body)", `${c.name}: the raw answer`);
        assert(await page.locator("#replay").isHidden(), `${c.name}: no replay`);
        await page.unroute("**/solve/nine");
      }
      /* A move the page cannot play (puzzled never sends one) stops the replay where it is and
       * says why; no script error. */
      await page.route("**/solve/nine", (route) =>
        route.fulfill({ status: 200, contentType: "application/json", body: '{"n":3,"solvable":true,"move_count":2,"moves":["AL","X9"],"optimal":false}' }),
      );
      await button(page, "Solve").click();
      await page.waitForSelector("#answer[data-ready]");
      await stepTo(page, "End");
      await page.waitForFunction(() => /^The replay failed at step 2: /.test(document.getElementById("step-label").textContent));
      assertEq(await page.locator("#answer-board").getAttribute("data-step"), "1", "the replay stops after the move it could play");
      await page.unroute("**/solve/nine");
      await page.locator("#raw").evaluate((r) => (r.closest("details").open = false));
    });

    await t.test("rubiks-rectangle: a click into a cell replaces its number; out of range is refused", async () => {
      await exampleBoard(page, "rubiks-rectangle");
      const five = page.getByRole("textbox", { name: "Row 2 column 2" });
      await five.click();
      await page.keyboard.type("9");
      await page.keyboard.press("Enter");
      assert((await requestText(page)).includes("[4,9,6]"), "5 replaced by 9, not 59: " + (await requestText(page)));
      await five.click();
      await page.keyboard.type("10");
      await page.keyboard.press("Enter");
      assert(/"10" is not a whole number from 1 to 9/.test(await page.locator("#status").textContent()), "10 refused on a 3 x 3 board");
      assertEq(await five.inputValue(), "9", "the cell keeps its number");
      /* The cell keeps the focus, its number selected: the next digit replaces it. */
      await page.keyboard.type("5");
      await page.keyboard.press("Enter");
      assert((await requestText(page)).includes("[4,5,6]"), "9 replaced by 5 after Enter: " + (await requestText(page)));
      assertEq(await page.locator("#status").textContent(), "", "a good edit clears the warning about the refused one");
      /* Shift+Tab from the cell leaves the board at once, to the field before it. */
      await five.focus();
      await page.keyboard.press("Shift+Tab");
      const at = await page.evaluate(() => document.activeElement.getAttribute("aria-label") || document.activeElement.id);
      assert(!/Row|board/i.test(at || "") && (await page.evaluate(() => document.activeElement.tagName)) === "INPUT", "Shift+Tab left the board: " + at);
    });

    await t.test("maze-tac-toe: a maze too large to edit shows no palette, keeps a start and is solved", async () => {
      await choose(page, "maze-tac-toe");
      await page.getByLabel("Edit as").selectOption("board");
      const size = page.getByLabel(/Maze size/);
      await size.fill("20");
      await size.press("Enter");
      assert(await page.locator("#palette").isHidden(), "no palette for a maze drawn as a picture");
      assert((await requestText(page)).includes("BBB"), "the resized maze has a start");
      await solveAndWait(page);
      assert(/^Solved: count \d+/.test(await page.locator("#status").textContent()), "answered: " + (await page.locator("#status").textContent()));
      await size.fill("5");
      await size.press("Enter");
      assert(await page.locator("#palette").isVisible(), "the palette is back for a maze that can be edited");
    });

    await t.test("mayan: every colour's number reads at 4.5:1 or better", async () => {
      await choose(page, "mayan");
      await page.getByLabel("Edit as").selectOption("board");
      const worst = await page.evaluate(() => {
        const lum = (css) => {
          const [r, g, b] = css.match(/\d+/g).map(Number).map((c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        let min = 99;
        for (const e of document.querySelectorAll(".swatch.block")) {
          const st = getComputedStyle(e);
          const a = lum(st.color), b = lum(st.backgroundColor);
          min = Math.min(min, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05));
        }
        return min;
      });
      assert(worst >= 4.5, "the lowest contrast of a colour swatch is " + worst.toFixed(2));
    });

    await t.test("without the puzzle list nothing can be pressed, and the page says why", async () => {
      const bare = await browser.context.newPage();
      const errors = [];
      bare.on("pageerror", (e) => errors.push(e.message));
      await bare.route("**/puzzles", (route) => route.fulfill({ status: 503, contentType: "text/html", body: "<h1>busy</h1>" }));
      await bare.goto(srv.url + "/");
      await bare.waitForFunction(() => /Cannot load the puzzle list/.test(document.getElementById("status").textContent));
      for (const name of ["Solve", "Example"]) assert(await button(bare, name).isDisabled(), name + " is disabled");
      await bare.keyboard.press("Control+Enter");
      await bare.waitForTimeout(200);
      assertEq(errors.join("; "), "", "no script error");
      await bare.close();
    });
    await page.close();
  } finally {
    await srv.stop();
  }
}

module.exports = { pageTests, limitTests };
