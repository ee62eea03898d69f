/* puzzled page: the editor, the request, the answer and its replay. Puzzle rules and drawing live
 * in puzzles.js; this file only knows the adapters' common shape. */
"use strict";

(function () {
  const P = window.Puzzles;
  const el = P.el;
  const $ = (id) => document.getElementById(id);
  const MODES = { board: "Board", json: "JSON", text: "Contest text" };
  const BIG_BODY = 200000; /* characters: above this the request preview shows only a summary */

  let puzzles = [];
  const states = {}; /* per puzzle: what was typed, kept while another puzzle is shown */
  let replay = null; /* the replay in progress */
  let boardsView = null; /* the listed boards being paged */
  let warnings = 0; /* warnings said so far: Ctrl+Enter does not send past a value just refused */

  const info = () => puzzles.find((p) => p.slug === $("puzzle").value);
  const adapter = () => P[$("puzzle").value];
  const state = () => states[$("puzzle").value];

  /* ---- status and messages ------------------------------------------------------------- */

  /* aboutBody: the message is about the body in the editor (a text not applied, nothing to
   * send): it goes once the mode or the puzzle changes. An Undo belongs to the puzzle it was
   * offered for, and goes with the message. */
  let statusAboutBody = false;
  function setStatus(text, kind, undo, aboutBody = false) {
    if (kind === "warn") warnings++;
    const s = $("status");
    s.className = "status " + (kind || "");
    s.replaceChildren(text);
    statusAboutBody = aboutBody;
    if (undo) {
      const slug = $("puzzle").value;
      const b = el("button", { type: "button", class: "link", text: "Undo" });
      b.addEventListener("click", () => {
        states[slug] = undo;
        if ($("puzzle").value === slug) showPuzzle();
        setStatus("Undone.");
      });
      s.append(" ", b);
    }
  }

  /* ---- the limits, in words -------------------------------------------------------------- */

  const NAMES = { n: "n", height: "height", width: "width", moves: "moves", colours: "colours", max_moves: "max_moves (optional)" };
  function limitsInWords(lim) {
    const out = [];
    for (const [k, v] of Object.entries(lim)) {
      if (v && typeof v === "object" && "min" in v) {
        let s = `${NAMES[k] || k} from ${fmt(v.min)} to ${fmt(v.max)}`;
        if ("default" in v) s += ` (${fmt(v.default)} when not given)`;
        out.push(s);
      } else if (k === "optimal") out.push(`answers are proven shortest when ${String(v).replace("<=", "≤")}`);
      else if (k === "n9_max_moves") out.push(`a 9 × 9 answer has at most ${fmt(v)} moves`);
      else if (k === "max_moves") out.push(`an answer has at most ${String(v).replace(/\*/g, "·")} moves`);
      else if (k === "boards_max") out.push(`boards are listed only while there are at most ${fmt(v)}`);
      else if (k === "boards_bytes_max") out.push(`and while their listing takes at most ${fmt(v)} bytes`);
      else if (k === "text_board") out.push(`the contest text format takes ${String(v).replace("x", " × ")} boards only`);
      else out.push(`${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`);
    }
    return "Limits: " + out.join("; ") + ".";
  }
  const fmt = (n) => (typeof n === "number" ? n.toLocaleString("en-US").replace(/,/g, " ") : String(n));

  /* ---- the editor ------------------------------------------------------------------------ */

  function newState(p) {
    const a = P[p.slug];
    return {
      model: a.fromJSON(p.example),
      mode: "board",
      texts: { json: "", text: "" },
      edited: { json: false, text: false }, /* typed, not yet applied to the model */
      pinned: { json: false, text: false }, /* a text loaded as is (the contest example) */
      colour: 1,
      maze: { kind: "###", i: 1, j: 1 },
    };
  }

  function generate(mode) {
    const st = state(), a = adapter();
    return mode === "json" ? a.toPrettyJSON(st.model) : a.toText(st.model);
  }

  /* Applies a typed text to the model; false (and the text kept) when it does not parse. */
  function applyText(mode) {
    const st = state(), a = adapter();
    const text = st.texts[mode];
    try {
      let note = "";
      if (mode === "json") {
        let o;
        try {
          o = JSON.parse(text);
        } catch (e) {
          throw new Error("It is not JSON: " + e.message);
        }
        st.model = a.fromJSON(o);
      } else {
        const r = a.fromText(text);
        st.model = r.model;
        note = r.note || "";
      }
      st.edited[mode] = false;
      st.pinned = { json: false, text: false }; /* an example text no longer matches the board */
      setStatus(note || `Your ${MODES[mode]} is applied to the board.`);
      return true;
    } catch (e) {
      setStatus(`Your ${MODES[mode]} is kept as typed but was not applied to the board: ${e.message}`, "warn", null, true);
      return false;
    }
  }

  function switchMode(mode) {
    const st = state();
    const old = st.mode;
    if (old === mode) return;
    /* A typed body the board cannot show keeps its mode: the warning says why. */
    if (old !== "board" && st.edited[old] && !applyText(old)) {
      $("format").value = old;
      return;
    }
    st.mode = mode;
    if (statusAboutBody) setStatus("");
    /* A typed body may have changed the size or the options: the fields follow the model. */
    showSizes();
    showOptions();
    showEditor();
  }

  function showPuzzle() {
    const p = info(), a = adapter();
    if (!states[p.slug]) states[p.slug] = newState(p);
    const st = state();
    $("summary").textContent = p.summary;
    $("limits").textContent = limitsInWords(p.limits);
    $("format").value = st.mode;
    $("format").querySelector('option[value="text"]').textContent = "Contest text (text/plain)";
    $("scramble").hidden = !a.scramble;
    solving = null; /* an answer still on its way belongs to the puzzle left behind */
    $("solve").removeAttribute("aria-busy");
    showSizes();
    showOptions();
    showEditor();
    clearAnswer();
    clearErrors();
  }

  /* The size fields of the puzzle shown: built when the puzzle changes, else only given their
   * values, so that the field being typed in or stepped with the arrow keys keeps the focus. */
  function showSizes() {
    const a = adapter(), size = a.getSize(state().model);
    const box = $("sizes");
    const fields = a.sizes(info().limits);
    if (box.dataset.puzzle === a.slug) {
      for (const f of fields) $("size-" + f.key).value = size[f.key];
      return;
    }
    box.dataset.puzzle = a.slug;
    box.replaceChildren();
    for (const f of fields) {
      const id = "size-" + f.key;
      const inp = el("input", { id, type: "number", min: f.min, max: f.max, value: size[f.key], "data-path": f.path, inputmode: "numeric" });
      inp.addEventListener("change", () => {
        const st = state(); /* Undo puts a copy in its place */
        const v = P.clampInt(inp.value, f.min, f.max);
        inp.value = v;
        const before = structuredClone(st);
        const s = a.getSize(st.model);
        s[f.key] = v;
        st.model = a.resize(st.model, s);
        modelChanged();
        setStatus(`Resized to ${Object.values(a.getSize(st.model)).join(" × ")}.`, "", before);
      });
      box.append(el("div", { class: "field" }, el("label", { for: id, text: `${f.label}, ${fmt(f.min)} to ${fmt(f.max)}` }), inp));
    }
  }

  function showOptions() {
    const a = adapter(), st = state();
    const box = $("options");
    box.replaceChildren();
    for (const f of a.options(info().limits)) {
      const id = "opt-" + f.key;
      const inp = el("input", { id, type: f.type, "data-path": f.path });
      if (f.type === "checkbox") inp.checked = !!st.model.opts[f.key];
      else {
        inp.min = f.min;
        inp.max = f.max;
        inp.inputMode = "numeric";
        inp.value = st.model.opts[f.key] ?? "";
      }
      inp.addEventListener("change", () => {
        st.model.opts[f.key] = f.type === "checkbox" ? inp.checked : inp.value === "" ? undefined : Number(inp.value);
        modelChanged(false);
      });
      const label = el("label", { for: id, text: f.label });
      box.append(el("div", { class: "field" + (f.type === "checkbox" ? " check" : "") }, f.type === "checkbox" ? inp : label, f.type === "checkbox" ? label : inp));
    }
  }

  const ui = {
    colour: () => state().colour,
    mazeToken(kind) {
      const mz = state().maze;
      const k = kind || mz.kind;
      return k === "M" || k === "O" ? `${k}${mz.i}${mz.j}` : k;
    },
  };

  function showPalette() {
    const a = adapter(), st = state(), box = $("palette");
    box.replaceChildren();
    const palette = typeof a.palette === "function" ? a.palette(st.model) : a.palette;
    box.hidden = !(palette && st.mode === "board");
    if (box.hidden) return;
    if (a.slug === "mayan") {
      const fs = el("fieldset", { class: "palette" }, el("legend", { text: "Colour to place (keys 1–9, 0 for 10; Delete removes)" }));
      for (let c = 0; c <= 10; c++) {
        const id = "colour-" + c;
        const r = el("input", { type: "radio", name: "colour", id, value: c });
        r.checked = st.colour === c;
        r.addEventListener("change", () => (st.colour = c));
        const sw = el("label", { for: id, class: "swatch" + (c ? " block" : " erase"), text: c ? String(c) : "Remove" });
        if (c) sw.setAttribute("style", `background:${colourHex(c)};color:${P.mayanText(c)};text-shadow:none`);
        fs.append(el("span", { class: "swatch-wrap" }, r, sw));
      }
      box.append(fs);
    } else {
      const fs = el("fieldset", { class: "palette" }, el("legend", { text: "Cell to place (keys # . B M O)" }));
      for (const k of a.mazeKinds) {
        const id = "kind-" + k.key;
        const r = el("input", { type: "radio", name: "kind", id, value: k.id });
        r.checked = st.maze.kind === k.id;
        r.addEventListener("change", () => (st.maze.kind = k.id));
        fs.append(el("span", { class: "swatch-wrap" }, r, el("label", { for: id, class: "swatch maze-kind", text: k.label })));
      }
      for (const axis of ["i", "j"]) {
        const id = "maze-" + axis;
        const s = el("select", { id });
        for (let v = 1; v <= 3; v++) s.append(el("option", { value: v, text: v }));
        s.value = st.maze[axis];
        s.addEventListener("change", () => (st.maze[axis] = Number(s.value)));
        fs.append(el("span", { class: "field inline" }, el("label", { for: id, text: axis === "i" ? "row" : "column" }), s));
      }
      box.append(fs);
    }
  }
  const colourHex = (c) => getComputedStyle(document.documentElement).getPropertyValue("--c" + c) || "#888";

  function showEditor(at) {
    const st = state(), a = adapter();
    $("format").value = st.mode;
    const board = st.mode === "board";
    $("editor").hidden = !board;
    /* Sizes and options edit the board; a typed body carries its own. */
    $("sizes").hidden = !board;
    $("options").hidden = !board;
    $("text-editor").hidden = board;
    showPalette();
    if (board) {
      const ed = a.editor(st.model, (where) => {
        if (where && where.redraw === false) modelChanged(false);
        else modelChanged(true, where);
        /* A good edit after a refused one (warn: ""): the warning was about a value gone. */
        if (where && where.warn) setStatus(where.warn, "warn");
        else if (where && where.warn === "" && $("status").classList.contains("warn")) setStatus("");
      }, ui);
      $("editor").replaceChildren(ed || el("p", { class: "hint", text: "Only n: set it above." }));
      if (at) P.refocus($("editor"), at);
    } else {
      let note = "";
      if (st.pinned[st.mode]) note = "";
      else if (!st.edited[st.mode]) {
        try {
          st.texts[st.mode] = generate(st.mode);
        } catch (e) {
          st.texts[st.mode] = ""; /* never an older body, for another board */
          note = e.message;
        }
      } else note = "This text has edits that are not applied to the board yet.";
      $("body-label").textContent = st.mode === "json" ? "Request body (JSON)" : "Request body (contest input, sent as text/plain)";
      $("body").value = st.texts[st.mode];
      $("body-note").textContent = note;
    }
    updateRequest();
  }

  /* The model changed through the editor, a size or an option. */
  function modelChanged(redraw = true, at) {
    /* Texts that were generated follow the model; typed ones are the user's and stay. */
    state().pinned = { json: false, text: false };
    markAnswerStale();
    if (redraw) {
      showSizes();
      showEditor(at);
    } else updateRequest();
    clearErrors();
  }

  /* ---- the request ------------------------------------------------------------------------- */

  function request() {
    const st = state(), a = adapter();
    const url = new URL("solve/" + a.slug, location.href).href;
    if (st.mode === "board") return { url, ctype: "application/json", body: a.toJSONText(st.model) };
    return { url, ctype: st.mode === "json" ? "application/json" : "text/plain", body: st.texts[st.mode] };
  }

  let requestTimer = 0;
  function updateRequest() {
    clearTimeout(requestTimer);
    $("curl-box").hidden = true; /* a copied command is stale once the request changes */
    requestTimer = setTimeout(() => {
      const st = state(), a = adapter();
      const huge = st.mode === "board" && a.hugeBody && a.hugeBody(st.model);
      if (huge) {
        $("request").textContent = `POST ${new URL("solve/" + a.slug, location.href).href}\nContent-Type: application/json\n\n(${huge}: the body is built when you solve or copy it)`;
        return;
      }
      const r = request();
      const body = r.body.length > BIG_BODY ? r.body.slice(0, BIG_BODY) + `\n… (${fmt(r.body.length)} characters in all)` : r.body;
      $("request").textContent = `POST ${r.url}\nContent-Type: ${r.ctype}\n\n${body}`;
    }, 60);
  }

  const shellQuote = (s) => "'" + s.replace(/'/g, "'\\''") + "'";
  async function copyCurl() {
    const r = request();
    const cmd = `curl -sS -H ${shellQuote("Content-Type: " + r.ctype)} --data-binary ${shellQuote(r.body)} ${shellQuote(r.url)}`;
    $("curl").textContent = cmd.length > BIG_BODY ? cmd.slice(0, BIG_BODY) + " …" : cmd;
    $("curl-box").hidden = false;
    try {
      await navigator.clipboard.writeText(cmd);
      setStatus(`Copied the curl command (${fmt(cmd.length)} characters).`, "ok");
    } catch (e) {
      setStatus("The clipboard is not available here: select the command below and copy it.", "warn");
    }
  }

  /* ---- errors ----------------------------------------------------------------------------------- */

  function clearErrors() {
    for (const e of document.querySelectorAll("[aria-invalid]")) {
      e.removeAttribute("aria-invalid");
      e.removeAttribute("aria-describedby");
    }
    for (const e of document.querySelectorAll(".field-error")) e.remove();
    $("explain").textContent = "";
  }

  /* The elements a JSON Pointer names: the exact path, else everything under it, else the
   * nearest named parent. */
  function findPath(path) {
    const scope = $("input");
    let p = path;
    for (;;) {
      const exact = scope.querySelectorAll(`[data-path="${CSS.escape(p)}"]`);
      if (exact.length) return [...exact];
      const under = [...scope.querySelectorAll("[data-path]")].filter((e) => e.dataset.path.startsWith(p + "/"));
      if (under.length) return under;
      if (!p) return [];
      p = p.slice(0, p.lastIndexOf("/"));
    }
  }

  /* Errors about the server, not about a field: explained in words, not placed. */
  const NOT_A_FIELD = ["overloaded", "time_limit", "body_too_large", "internal_error", "unsupported_media_type"];

  function placeError(err) {
    const st = state();
    if (NOT_A_FIELD.includes(err.code)) return false;
    const msg = el("p", { class: "field-error", id: "field-error", role: "alert" });
    const path = err.path || "";
    if (st.mode !== "board") {
      msg.textContent = (path ? `At ${path}: ` : "") + err.message;
      $("body").setAttribute("aria-invalid", "true");
      $("body").setAttribute("aria-describedby", "field-error");
      $("text-editor").append(msg);
      return;
    }
    const targets = path ? findPath(path) : [];
    if (!targets.length) return false;
    msg.textContent = err.message;
    for (const t of targets) {
      t.setAttribute("aria-invalid", "true");
      t.setAttribute("aria-describedby", "field-error");
    }
    /* Right below the grid or the field that holds the first target. */
    const holder = targets[0].closest('.field, [role="grid"]');
    holder.after(msg);
    return true;
  }

  function explainStatus(res, err) {
    const code = err && err.code;
    if (res.status === 413)
      return "The request is larger than this server accepts (its --max-body). Send a smaller board, or ask the operator to raise the limit.";
    if (code === "time_limit")
      return "The solver ran out of its time budget before it finished. Try a smaller or easier instance; the operator can raise --time-limit-ms.";
    if (res.status === 503) {
      const after = res.headers.get("Retry-After");
      return `The server is busy: every worker is solving and the waiting line is full. It asks you to try again${after ? " in " + after + " second" + (after === "1" ? "" : "s") : " shortly"}.`;
    }
    if (res.status === 415) return "The server takes application/json or text/plain bodies only.";
    if (res.status === 422 && code === "too_many_boards") return "There are too many boards to list: untick the list option to get the count alone.";
    return "";
  }

  /* ---- solving and the answer ----------------------------------------------------------------- */

  let solving = null;
  async function solve() {
    if ($("solve").disabled) return; /* Ctrl+Enter too: nothing to solve without the list */
    clearErrors();
    stopPlay();
    const st = state(), a = adapter(), p = info();
    if (st.mode !== "board" && st.edited[st.mode]) st.texts[st.mode] = $("body").value;
    if (st.mode !== "board" && !st.texts[st.mode].trim()) {
      setStatus(`Nothing to send: the ${MODES[st.mode]} body is empty. ${$("body-note").textContent}`.trim(), "err", null, true);
      return;
    }
    const req = request();
    const sent = { model: answerModel(st, a, req), text: req.ctype === "text/plain" ? req.body : null };
    const ticket = { title: p.title };
    solving = ticket;
    $("answer").removeAttribute("data-ready"); /* the answer shown is the previous one */
    setStatus(`Solving ${p.title}…`);
    $("solve").setAttribute("aria-busy", "true");
    const started = performance.now();
    let res, text;
    try {
      res = await fetch(req.url, { method: "POST", headers: { "Content-Type": req.ctype }, body: req.body });
      text = await res.text();
    } catch (e) {
      if (solving !== ticket) return;
      solving = null;
      $("solve").removeAttribute("aria-busy");
      setStatus("Could not reach the server: " + e.message, "err");
      return;
    }
    if (solving !== ticket) return;
    solving = null;
    $("solve").removeAttribute("aria-busy");
    const ms = performance.now() - started;
    $("raw").textContent = text.length > BIG_BODY ? text.slice(0, BIG_BODY) + `\n… (${fmt(text.length)} characters in all)` : text || "(no body)";
    const type = res.headers.get("Content-Type") || "";
    const json = type.startsWith("application/json");
    if (!res.ok) {
      let err = null;
      try {
        err = JSON.parse(text).error;
      } catch (e) {
        /* not the error shape */
      }
      if (!err || typeof err.code !== "string" || typeof err.message !== "string") err = null;
      clearAnswer();
      if (err) {
        setStatus(`${res.status} ${err.code}: ${err.message}`, "err");
        $("explain").textContent = explainStatus(res, err);
        placeError(err);
      } else {
        setStatus(`${res.status} ${res.statusText || "error"}, and not from puzzled: its errors are JSON.`, "err");
        $("explain").textContent = (explainStatus(res, null) + " Something between the page and the service (a proxy or a gateway) answered instead: the service may be down, restarting or too slow for it. The raw answer is below.").trim();
        showRawOnly(`Not an answer from puzzled: ${res.status} ${res.statusText || ""}`.trim() + ".");
      }
      return;
    }
    /* The answer comes in the format of the request: anything else is not from puzzled (a
     * captive portal, say), and a JSON answer that does not parse was cut off on its way. */
    let answer = text;
    const notAnswer = (why) => {
      clearAnswer();
      setStatus(`${res.status}, but ${why}; the raw answer is below.`, "err");
      $("explain").textContent = "Something between the page and the service may have changed or cut the answer. Try again.";
      showRawOnly(`Not an answer from puzzled: ${why}.`);
    };
    if (!type.startsWith(req.ctype)) return notAnswer(`the answer is ${type || "of no type"}, not ${req.ctype}`);
    if (json) {
      try {
        answer = JSON.parse(text);
      } catch (e) {
        return notAnswer(`the answer is not whole JSON (${fmt(text.length)} characters arrived)`);
      }
    }
    showAnswer(a, sent, answer, json, ms);
  }

  /* The instance as it was sent, for the replay: later edits must not change it. */
  function answerModel(st, a, req) {
    try {
      if (st.mode === "board") return structuredClone(st.model);
      if (req.ctype === "application/json") return a.fromJSON(JSON.parse(req.body));
      return a.fromText(req.body).model;
    } catch (e) {
      return null;
    }
  }

  function clearAnswer() {
    stopPlay();
    replay = null;
    boardsView = null;
    $("answer").hidden = true;
    $("replay").hidden = true;
    $("count-box").hidden = true;
    $("boards-box").hidden = true;
    $("answer-board").replaceChildren();
    $("instance-box").hidden = true;
    $("answer-stale").hidden = true;
    $("answer").removeAttribute("data-ready");
  }

  /* What arrived was not puzzled's answer: only the raw answer is shown, opened. */
  function showRawOnly(summary) {
    $("answer").hidden = false;
    $("answer-summary").textContent = summary;
    $("raw").closest("details").open = true;
  }

  /* An answer on screen belongs to the instance as it was sent: say so once that is edited. */
  function markAnswerStale() {
    if (!$("answer").hidden) $("answer-stale").hidden = false;
  }

  function showAnswer(a, sent, answer, json, ms) {
    clearAnswer();
    $("answer").hidden = false;
    const took = `answered in ${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
    if (a.kind === "count") {
      const c = json ? a.countFromAnswer(answer) : { count: answer.trim(), extra: "" };
      $("count").textContent = P.spaced(c.count);
      $("count").dataset.value = c.count;
      $("count-extra").textContent = c.extra;
      $("count-box").hidden = false;
      $("answer-summary").textContent = `Count: ${c.count}; ${took}.`;
      const boards = json ? a.boardsFromAnswer(answer) : null;
      if (boards) showBoards(a, boards);
      setStatus(`Solved: count ${c.count}, ${took}.`, "ok");
      $("answer").dataset.ready = "1";
      return;
    }
    let list = null;
    try {
      if (!json && sent.text !== null && a.instances) list = a.instances(sent.text, answer);
    } catch (e) {
      list = null; /* the first instance's replay below still works */
    }
    if (list && list.length > 1) return showInstances(a, list, took);
    const model = sent.model;
    const moves = json ? a.movesFromAnswer(answer) : a.movesFromText(answer);
    if (!moves) {
      const why = json && answer.reason ? ": " + answer.reason : "";
      $("answer-summary").textContent = `Not solvable${why}. (${took})`;
      setStatus(`Not solvable; ${took}.`, "ok");
      $("answer").dataset.ready = "1";
      return;
    }
    let opt = "";
    if (json && answer.optimal === true) opt = " (proven shortest)";
    else if (json && answer.optimal === false) opt = " (not proven shortest)";
    $("answer-summary").textContent = `${fmt(moves.length)} move${moves.length === 1 ? "" : "s"}${opt}; ${took}.`;
    setStatus(`Solved: ${fmt(moves.length)} move${moves.length === 1 ? "" : "s"}${opt}, ${took}.`, "ok");
    if (!model) {
      $("answer-summary").textContent += " (The request could not be read back for a replay: see the raw answer.)";
      return;
    }
    try {
      startReplay(a.replay(model, moves));
    } catch (e) {
      $("answer-summary").textContent += " The replay failed: " + e.message;
    }
    $("answer").dataset.ready = "1";
  }

  /* A contest text of several instances: the answer to each, and a replay of the one picked. */
  function showInstances(a, list, took) {
    const solvable = list.filter((x) => x.moves).length;
    const each = list.map((x, i) => `${i + 1}: ${x.moves ? `${fmt(x.moves.length)} move${x.moves.length === 1 ? "" : "s"}` : "not solvable"}`);
    $("answer-summary").textContent = `${list.length} instances (${solvable} solvable; ${each.join(", ")}); ${took}.`;
    setStatus(`Solved ${list.length} instances, ${took}.`, "ok");
    const pick = $("instance");
    pick.replaceChildren(...list.map((x, i) => el("option", { value: i, text: `Instance ${i + 1} (${x.model.h} × ${x.model.w}): ${each[i].replace(/^\d+: /, "")}` })));
    $("instance-box").hidden = false;
    const show = (i) => {
      stopPlay();
      const x = list[i];
      $("instance-note").textContent = x.moves ? "" : `Instance ${i + 1} is not solvable: nothing to replay.`;
      $("replay").hidden = true;
      replay = null;
      if (!x.moves) return;
      try {
        startReplay(a.replay(x.model, x.moves));
      } catch (e) {
        $("instance-note").textContent = "The replay failed: " + e.message;
      }
    };
    pick.onchange = () => show(Number(pick.value));
    show(0);
    $("answer").dataset.ready = "1";
  }

  /* ---- the replay --------------------------------------------------------------------------- */
  /* Steps are applied in slices of a few milliseconds, so that jumping across 200 000 flips of a
   * 1000 x 1000 board keeps the page responsive; a newer target supersedes an older one. */

  function startReplay(rep) {
    replay = { rep, pos: 0, target: 0, running: false, playing: 0 };
    $("replay").hidden = false;
    $("step").max = rep.total;
    $("step").value = 0;
    render();
  }

  async function goTo(k) {
    if (!replay) return;
    const R = replay;
    R.target = Math.max(0, Math.min(R.rep.total, k));
    if (R.running) return;
    R.running = true;
    try {
      while (R.pos !== R.target) {
        const t0 = performance.now();
        let n = 0;
        while (R.pos !== R.target) {
          /* pos moves only once the step is applied: a step that throws leaves it where the
           * board is. */
          if (R.pos < R.target) R.rep.apply(R.pos, false), R.pos++;
          else R.rep.apply(R.pos - 1, true), R.pos--;
          if (++n % 32 === 0 && performance.now() - t0 > 12) break;
        }
        if (R.pos !== R.target) {
          $("step-label").textContent = `Replaying… step ${fmt(R.pos)} of ${fmt(R.rep.total)}`;
          await new Promise((r) => setTimeout(r, 0));
          if (replay !== R) return;
        }
      }
    } catch (e) {
      /* A move this page cannot play (not one puzzled sends): said where the replay stops. */
      R.running = false;
      R.target = R.pos;
      stopPlay();
      render();
      $("step-label").textContent = `The replay failed at step ${fmt(R.pos + 1)}: ${e.message}`;
      return;
    }
    R.running = false;
    render();
  }

  function render() {
    const R = replay;
    const { rep, pos } = R;
    rep.render($("answer-board"), pos - 1);
    $("step").value = pos;
    $("step").setAttribute("aria-valuetext", `step ${pos} of ${rep.total}`);
    const what = pos ? rep.describe(pos - 1) : "the board as sent";
    const solved = rep.solved();
    $("step-label").textContent = `Step ${fmt(pos)} of ${fmt(rep.total)}: ${what}.`;
    $("solved-flag").textContent = solved ? "Solved ✓" : pos === rep.total ? "Not solved: the replay does not end solved" : "";
    $("solved-flag").className = solved ? "ok" : pos === rep.total ? "err" : "";
    $("answer-board").dataset.step = pos;
    $("answer-board").dataset.solved = solved ? "1" : "0";
    /* A button that disables itself would drop the keyboard focus to the page: the slider
     * takes it. */
    const focused = document.activeElement;
    $("prev").disabled = pos === 0;
    $("next").disabled = pos === rep.total;
    if (focused && focused.disabled) $("step").focus();
  }

  function stopPlay() {
    if (replay && replay.playing) clearInterval(replay.playing);
    if (replay) replay.playing = 0;
    $("play").textContent = "Play";
    $("play").setAttribute("aria-pressed", "false");
  }

  function togglePlay() {
    if (!replay) return;
    if (replay.playing) return stopPlay();
    const R = replay, total = R.rep.total;
    if (R.target >= total) goTo(0);
    /* Long answers play by ranges of steps, so any length plays in about ten seconds. */
    const stride = Math.max(1, Math.ceil(total / 150));
    const tick = total <= 40 ? 450 : 60;
    $("play").textContent = "Pause";
    $("play").setAttribute("aria-pressed", "true");
    R.playing = setInterval(() => {
      if (R.running) return;
      if (R.target >= total) return stopPlay();
      goTo(R.target + stride);
    }, tick);
  }

  /* ---- listed boards, paged ------------------------------------------------------------------ */

  function showBoards(a, boards) {
    const per = a.slug === "maze-tac-toe" ? 48 : boards[0] && boards[0].length > 12 ? 12 : 24;
    boardsView = { a, boards, per, page: 0 };
    $("boards-box").hidden = false;
    drawBoardsPage();
  }
  function drawBoardsPage() {
    const { a, boards, per, page } = boardsView;
    const pages = Math.max(1, Math.ceil(boards.length / per));
    const from = page * per, to = Math.min(boards.length, from + per);
    const list = $("boards");
    list.replaceChildren();
    for (let i = from; i < to; i++) {
      const pic = a.drawBoard(boards[i]);
      pic.setAttribute("aria-label", `Board ${i + 1}: ${boards[i].join(" / ")}`.slice(0, 300));
      list.append(el("li", {}, pic, el("span", { class: "board-no", text: String(i + 1) })));
    }
    $("boards-label").textContent = `Boards ${fmt(from + 1)}–${fmt(to)} of ${fmt(boards.length)} (page ${page + 1} of ${pages})`;
    $("boards-pager").hidden = pages === 1;
    $("page-prev").disabled = page === 0;
    $("page-next").disabled = page >= pages - 1;
  }

  /* ---- wiring --------------------------------------------------------------------------------- */

  function loadExample() {
    const st = state(), p = info(), a = adapter();
    const before = structuredClone(st);
    st.model = a.fromJSON(p.example);
    st.edited = { json: false, text: false };
    /* The contest example may hold more instances than the board shows: keep it whole. */
    st.texts.text = p.example_text;
    st.pinned = { json: false, text: true };
    showSizes();
    showOptions();
    showEditor();
    clearErrors();
    markAnswerStale();
    setStatus("Example loaded.", "", before);
  }

  function scramble() {
    const st = state(), a = adapter();
    /* No Undo for a huge board: a copy of a million cells per click is not worth keeping. */
    const before = a.hugeBody && a.hugeBody(st.model) ? null : structuredClone(st);
    st.model = a.scrambleModel(st.model);
    st.edited = { json: false, text: false };
    st.pinned = { json: false, text: false };
    showEditor();
    markAnswerStale();
    setStatus(a.scrambleNote(st.model), "", before);
  }

  async function load() {
    const res = await fetch("puzzles");
    if (!res.ok || !(res.headers.get("Content-Type") || "").startsWith("application/json"))
      throw new Error(`it answered ${res.status} ${res.statusText}, not the list. This page works only when the puzzled server serves it.`);
    puzzles = (await res.json()).puzzles;
    for (const p of puzzles) $("puzzle").append(el("option", { value: p.slug, text: p.title }));
    const want = location.hash.slice(1);
    if (puzzles.some((p) => p.slug === want)) $("puzzle").value = want;
    history.replaceState(null, "", "#" + $("puzzle").value); /* Back to here shows this puzzle */
    showPuzzle();
    setStatus("Ready: edit the board, or load the example, then Solve.");
  }

  /* Shows another puzzle; the one left keeps what was typed (the body's input handler keeps
   * its text as it is typed). */
  function switchPuzzle(slug) {
    $("puzzle").value = slug;
    const left = solving ? solving.title : "";
    showPuzzle();
    /* A message (and its Undo) is about the puzzle left behind. */
    setStatus(left ? `The answer to ${left} still on its way is dropped: you switched puzzles.` : "");
  }
  $("puzzle").addEventListener("change", () => {
    history.pushState(null, "", "#" + $("puzzle").value); /* Back returns to the one before */
    switchPuzzle($("puzzle").value);
  });
  /* The hash names the puzzle: edited in the address bar, or Back and Forward. */
  const followHash = () => {
    const want = location.hash.slice(1);
    if (want !== $("puzzle").value && puzzles.some((p) => p.slug === want)) switchPuzzle(want);
  };
  window.addEventListener("hashchange", followHash);
  window.addEventListener("popstate", followHash);
  $("format").addEventListener("change", () => switchMode($("format").value));
  $("body").addEventListener("input", () => {
    const st = state();
    st.pinned[st.mode] = false;
    st.texts[st.mode] = $("body").value;
    st.edited[st.mode] = true;
    $("body-note").textContent = "";
    markAnswerStale();
    updateRequest();
  });
  $("solve").addEventListener("click", solve);
  $("example").addEventListener("click", loadExample);
  $("scramble").addEventListener("click", scramble);
  $("copy-curl").addEventListener("click", copyCurl);
  $("prev").addEventListener("click", () => {
    stopPlay();
    if (replay) goTo(replay.target - 1);
  });
  $("next").addEventListener("click", () => {
    stopPlay();
    if (replay) goTo(replay.target + 1);
  });
  $("play").addEventListener("click", togglePlay);
  $("step").addEventListener("input", () => {
    stopPlay();
    goTo(Number($("step").value));
  });
  $("page-prev").addEventListener("click", () => {
    boardsView.page--;
    drawBoardsPage();
  });
  $("page-next").addEventListener("click", () => {
    boardsView.page++;
    drawBoardsPage();
  });
  document.addEventListener("keydown", (ev) => {
    if (!((ev.ctrlKey || ev.metaKey) && ev.key === "Enter")) return;
    /* A field applies its value when it loses the focus (change): let the one being typed in
     * apply it first, so that what is on screen is what is sent. */
    const f = document.activeElement;
    if (f && f.matches("input, select")) {
      const before = warnings;
      f.blur();
      if (f.isConnected) f.focus();
      /* A refused value (the field keeps its old one) is said, not sent: the board on screen
       * is not the one that was typed. */
      if (warnings !== before) return;
    }
    solve();
  });

  load().catch((e) => {
    /* Nothing works without the list: say so, and leave nothing to press. */
    for (const id of ["solve", "example", "scramble", "copy-curl", "puzzle", "format"]) $(id).disabled = true;
    setStatus("Cannot load the puzzle list (GET /puzzles): " + e.message + " Reload the page to try again.", "err");
  });
})();
