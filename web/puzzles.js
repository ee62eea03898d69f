/* puzzled page: one adapter per puzzle. An adapter turns the editor's model into a request body
 * (JSON or contest text) and back, draws the board editor, and replays an answer with its own
 * simulator of the puzzle's rules (the rules of /openapi.yaml and the contests' statements).
 * No puzzle knowledge lives in app.js. */
"use strict";

(function () {
  const P = {};

  /* ---- shared helpers ------------------------------------------------------------------ */

  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const kid of kids) if (kid) e.append(kid);
    return e;
  };
  P.el = el;

  /* 8356 -> "8 356"; decimal strings of any length too (counts outgrow 64 bits). */
  const spaced = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
  P.spaced = spaced;
  const clampInt = (v, lo, hi) => Math.max(lo, Math.min(hi, Math.trunc(Number(v)) || lo));
  const tokens = (text) => text.split(/\s+/).filter((t) => t.length);
  const lines = (text) => text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length);
  const intToken = (tok, what) => {
    if (!/^-?\d+$/.test(tok || "")) throw new Error(what + " must be an integer, not \"" + (tok ?? "") + "\".");
    return Number(tok);
  };

  /* A grid of cells: rows x cols gridcells inside rowgroup, keyboard-navigable with the arrow
   * keys (one tab stop per grid). cell(r, c) gives {text, cls, path, label, v, style}. */
  function gridRows(rows, cols, cell, opts) {
    const group = el("div", { role: "rowgroup", class: "grid-group", "aria-label": opts.groupLabel });
    group.style.setProperty("--cols", cols);
    for (let r = 0; r < rows; r++) {
      const row = el("div", { role: "row", class: "grid-row" });
      for (let c = 0; c < cols; c++) {
        const d = cell(r, c);
        const g = el("div", {
          role: "gridcell",
          class: "cell " + (d.cls || ""),
          "data-r": r,
          "data-c": c,
          "data-v": d.v,
          "data-path": d.path,
          "aria-label": d.label,
          tabindex: opts.focusable ? (r === 0 && c === 0 ? 0 : -1) : undefined,
          text: d.text,
        });
        if (d.style) g.setAttribute("style", d.style);
        row.append(g);
      }
      group.append(row);
    }
    return group;
  }

  /* A role="grid" made of one or more groups, with arrow-key focus moves inside a group. */
  function grid(label, groups, opts) {
    const g = el("div", { role: "grid", class: "grid " + (opts.cls || ""), "aria-label": label });
    for (const grp of groups) g.append(grp);
    if (opts.focusable) {
      g.addEventListener("keydown", (ev) => {
        const cell = ev.target.closest('[role="gridcell"]');
        if (!cell || ev.ctrlKey || ev.metaKey || ev.altKey) return; /* Ctrl+Enter solves */
        const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[ev.key];
        if (d) {
          const group = cell.closest('[role="rowgroup"]');
          const r = Number(cell.dataset.r) + d[0], c = Number(cell.dataset.c) + d[1];
          const next = group.querySelector(`[data-r="${r}"][data-c="${c}"]`);
          if (next) focusCell(g, next);
          ev.preventDefault();
          return;
        }
        if (opts.onKey && opts.onKey(cell, ev)) ev.preventDefault();
      });
      g.addEventListener("click", (ev) => {
        const cell = ev.target.closest('[role="gridcell"]');
        if (!cell || !opts.onClick) return;
        focusCell(g, cell);
        opts.onClick(cell, ev);
      });
    }
    return g;
  }
  /* Each row group (nine's A and B) keeps its own tab stop: only the group's is moved. */
  function focusCell(g, cell) {
    const group = cell.closest('[role="rowgroup"]') || g;
    for (const c of group.querySelectorAll('[role="gridcell"][tabindex="0"]')) c.tabIndex = -1;
    cell.tabIndex = 0;
    cell.focus();
  }
  /* After a redraw, put the focus back on the cell that had it. */
  function refocus(container, at) {
    if (at.canvas) {
      const g = container.querySelector('[role="grid"]');
      if (g) g.focus();
      return;
    }
    const scope = at.group ? `[role="rowgroup"][aria-label="${at.group}"] ` : "";
    const cell = container.querySelector(`${scope}[role="gridcell"][data-r="${at.r}"][data-c="${at.c}"]`);
    if (!cell) return;
    focusCell(cell.closest('[role="grid"]'), cell);
    const inp = cell.querySelector("input");
    if (inp && at.keep) inp.focus();
  }
  P.grid = grid;
  P.gridRows = gridRows;

  /* A canvas board for sizes a DOM grid cannot carry: one pixel block per cell, scaled by CSS.
   * colour(i) gives 0xRRGGBB of cell i (row-major). Highlights: {rows:[], cols:[]} stripes. */
  function drawCanvas(canvas, h, w, colour, hl) {
    const scale = Math.max(1, Math.floor(600 / Math.max(h, w)));
    const W = w * scale, H = h * scale;
    if (canvas.width !== W || canvas.height !== H) {
      canvas.width = W;
      canvas.height = H;
    }
    const ctx = canvas.getContext("2d");
    const img = ctx.createImageData(W, H);
    const px = new Uint32Array(img.data.buffer);
    for (let r = 0; r < h; r++) {
      for (let c = 0; c < w; c++) {
        const rgb = colour(r * w + c);
        const abgr = 0xff000000 | ((rgb & 0xff) << 16) | (rgb & 0xff00) | ((rgb >> 16) & 0xff);
        if (scale === 1) px[r * W + c] = abgr;
        else for (let y = 0; y < scale; y++) px.fill(abgr, (r * scale + y) * W + c * scale, (r * scale + y) * W + c * scale + scale);
      }
    }
    ctx.putImageData(img, 0, 0);
    if (hl) {
      ctx.fillStyle = "rgba(255, 200, 0, 0.55)";
      const t = Math.max(scale, Math.ceil(Math.max(H, W) / 200));
      for (const r of hl.rows || []) ctx.fillRect(0, r * scale - (t - scale) / 2, W, t);
      for (const c of hl.cols || []) ctx.fillRect(c * scale - (t - scale) / 2, 0, t, H);
    }
  }
  P.drawCanvas = drawCanvas;

  /* Canvas board wrapped as the grid it stands for (no gridcells: too many to name one by one). */
  function canvasGrid(label, describe, onClick) {
    const canvas = el("canvas", { class: "board-canvas", "aria-hidden": "true" });
    const note = el("p", { class: "canvas-note", text: describe });
    /* One row with one cell that holds the picture and says what it shows. */
    const cell = el("div", { role: "gridcell", class: "canvas-cell" }, canvas, note);
    const g = el("div", { role: "grid", "aria-label": label, "aria-readonly": "true", class: "grid canvas-grid", tabindex: 0 }, el("div", { role: "row" }, cell));
    if (onClick) canvas.addEventListener("click", (ev) => {
      /* Inside the border: the picture is the content box. */
      const rect = canvas.getBoundingClientRect();
      const x = ev.clientX - rect.left - canvas.clientLeft, y = ev.clientY - rect.top - canvas.clientTop;
      onClick(Math.min(0.999999, Math.max(0, y / canvas.clientHeight)), Math.min(0.999999, Math.max(0, x / canvas.clientWidth)));
    });
    return { root: g, canvas, note };
  }
  P.canvasGrid = canvasGrid;

  const hueRgb = (h, s, l) => {
    /* HSL (0..360, 0..1, 0..1) to 0xRRGGBB */
    const a = s * Math.min(l, 1 - l);
    const f = (n) => {
      const k = (n + h / 30) % 12;
      return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
    };
    return (f(0) << 16) | (f(8) << 8) | f(4);
  };

  /* ---- 9-Nine --------------------------------------------------------------------------- */
  /* AL: new[i][j] = old[j][n-1-i]; AR: new[i][j] = old[n-1-j][i] (0-based); Ck swaps column k of
   * A and B. Solved: A all 0, B all 1. */
  const NINE_DOM_MAX = 16;
  P.nine = {
    kind: "moves",
    sizes: (lim) => [{ key: "n", label: "Size n (matrices are n × n)", min: lim.n.min, max: lim.n.max, path: "/n" }],
    options: (lim) => [{ key: "max_moves", label: "At most this many moves (optional)", type: "number", min: lim.max_moves.min, max: lim.max_moves.max, path: "/max_moves" }],
    fromJSON(o) {
      if (!o || !Array.isArray(o.a) || !Array.isArray(o.b)) throw new Error('Give "a" and "b", each n strings of 0 and 1.');
      const n = o.a.length;
      const read = (rows, name) => {
        if (rows.length !== n) throw new Error(`"${name}" has ${rows.length} rows but "a" has ${n}.`);
        return rows.map((s, i) => {
          if (typeof s !== "string" || s.length !== n || /[^01]/.test(s)) throw new Error(`"${name}" row ${i + 1} must be ${n} characters 0 or 1.`);
          return Array.from(s, Number);
        });
      };
      const m = { n, a: read(o.a, "a"), b: read(o.b, "b"), opts: {} };
      if ("max_moves" in o) {
        if (!Number.isInteger(o.max_moves)) throw new Error(`"max_moves" is ${JSON.stringify(o.max_moves)}, not a whole number.`);
        m.opts.max_moves = o.max_moves;
      }
      return m;
    },
    toObject(m) {
      const o = { a: m.a.map((r) => r.join("")), b: m.b.map((r) => r.join("")) };
      if (m.opts.max_moves !== undefined && m.opts.max_moves !== "") o.max_moves = Number(m.opts.max_moves);
      return o;
    },
    toText(m) {
      return m.a.map((r) => r.join("")).join("\n") + "\n" + m.b.map((r) => r.join("")).join("\n") + "\n";
    },
    fromText(text) {
      const ls = lines(text);
      if (ls.length % 2 || ls.length === 0) throw new Error("Give n lines of A, then n lines of B.");
      const n = ls.length / 2;
      return { model: this.fromJSON({ a: ls.slice(0, n), b: ls.slice(n) }) };
    },
    getSize: (m) => ({ n: m.n }),
    scramble: true,
    scrambleNote: (m) => `Scrambled: a random solvable ${m.n} × ${m.n} state (each rotation orbit holds, in A and B together, as many ones as it has cells).`,
    /* That is the solvability rule: so each orbit gets as many ones as it has cells, placed on
     * random cells among its copies in A and B. */
    scrambleModel(m) {
      const n = m.n;
      const a = Array.from({ length: n }, () => new Array(n).fill(0)), b = Array.from({ length: n }, () => new Array(n).fill(0));
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          const orbit = [[i, j], [j, n - 1 - i], [n - 1 - i, n - 1 - j], [n - 1 - j, i]].map(([r, c]) => r * n + c);
          if (orbit.some((k) => k < i * n + j)) continue; /* the orbit's first cell deals it */
          const cells = [...new Set(orbit)];
          const slots = [...cells.map((k) => [a, k]), ...cells.map((k) => [b, k])];
          for (let k = slots.length - 1; k > 0; k--) {
            const r = Math.floor(Math.random() * (k + 1));
            [slots[k], slots[r]] = [slots[r], slots[k]];
          }
          for (const [g, k] of slots.slice(0, cells.length)) g[Math.floor(k / n)][k % n] = 1;
        }
      return { n, a, b, opts: m.opts };
    },
    resize(m, s) {
      const n = s.n;
      const fit = (g, fill) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (g[i] && g[i][j] !== undefined ? g[i][j] : fill)));
      return { n, a: fit(m.a, 0), b: fit(m.b, 1), opts: m.opts };
    },
    editor(m, changed) {
      const n = m.n;
      if (n > NINE_DOM_MAX) return nineCanvasEditor(m, changed);
      const group = (which) =>
        gridRows(n, n, (r, c) => ({
          text: String(m[which][r][c]),
          v: m[which][r][c],
          cls: m[which][r][c] ? "one" : "zero",
          path: `/${which}/${r}/${c}`,
          label: `${which.toUpperCase()} row ${r + 1} column ${c + 1}`,
        }), { groupLabel: which.toUpperCase(), focusable: true });
      const set = (cell, v) => {
        const which = cell.closest('[role="rowgroup"]').getAttribute("aria-label").toLowerCase();
        const r = Number(cell.dataset.r), c = Number(cell.dataset.c);
        m[which][r][c] = v === undefined ? m[which][r][c] ^ 1 : v;
        changed({ group: which.toUpperCase(), r, c });
      };
      return grid("Board editor", [group("a"), group("b")], {
        focusable: true,
        cls: "nine",
        onClick: (cell) => set(cell),
        onKey(cell, ev) {
          if (ev.key === " " || ev.key === "Enter") set(cell);
          else if (ev.key === "0" || ev.key === "1") set(cell, Number(ev.key));
          else return false;
          return true;
        },
      });
    },
    movesFromAnswer: (a) => (a.solvable === false ? null : a.moves),
    movesFromText(text) {
      const ls = lines(text);
      if (ls[0] === "-1") return null;
      return ls.slice(1);
    },
    replay(m, moves) {
      const n = m.n;
      const st = { a: m.a.map((r) => r.slice()), b: m.b.map((r) => r.slice()) };
      const rot = (g, left) => {
        const out = Array.from({ length: n }, () => new Array(n));
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++) out[i][j] = left ? g[j][n - 1 - i] : g[n - 1 - j][i];
        return out;
      };
      const apply = (i, inverse) => {
        const mv = moves[i];
        const k = /^C(\d+)$/.exec(mv);
        if (k) {
          const c = Number(k[1]) - 1;
          if (!(c >= 0 && c < n)) throw new Error("Move " + mv + " names no column.");
          for (let i = 0; i < n; i++) [st.a[i][c], st.b[i][c]] = [st.b[i][c], st.a[i][c]];
          return;
        }
        if (!/^[AB][LR]$/.test(mv)) throw new Error("Unknown move " + mv + ".");
        const key = mv[0].toLowerCase();
        st[key] = rot(st[key], (mv[1] === "L") !== inverse);
      };
      return {
        total: moves.length,
        work: () => n * n,
        apply,
        describe(i) {
          const mv = moves[i];
          if (mv[0] === "C") return `${mv}: swap column ${mv.slice(1)} of A and B`;
          return `${mv}: rotate ${mv[0]} ${mv[1] === "L" ? "left (counter-clockwise)" : "right (clockwise)"}`;
        },
        solved: () => st.a.every((r) => r.every((v) => v === 0)) && st.b.every((r) => r.every((v) => v === 1)),
        render(container, last) {
          const mv = last >= 0 ? moves[last] : "";
          const hlCol = mv[0] === "C" ? Number(mv.slice(1)) - 1 : -1;
          const hlMat = mv[0] === "A" || mv[0] === "B" ? mv[0].toLowerCase() : "";
          if (n > NINE_DOM_MAX) {
            let cv = container.querySelector("canvas");
            if (!cv) {
              const g = canvasGrid("Answer board", "", null);
              container.replaceChildren(g.root);
              cv = g.canvas;
            }
            container.querySelector(".canvas-note").textContent = `A (left) and B (right), ${n} × ${n}${mv ? "; last move " + mv : ""}`;
            drawNineCanvas(cv, n, st.a, st.b, { col: hlCol, mat: hlMat });
            return;
          }
          const group = (which) =>
            gridRows(n, n, (r, c) => ({
              text: String(st[which][r][c]),
              v: st[which][r][c],
              cls: (st[which][r][c] ? "one" : "zero") + (c === hlCol || hlMat === which ? " hl" : ""),
              label: `${which.toUpperCase()} row ${r + 1} column ${c + 1}`,
            }), { groupLabel: which.toUpperCase() });
          const g = grid("Answer board", [group("a"), group("b")], { cls: "nine" + (hlMat ? " rotated-" + hlMat : "") });
          g.setAttribute("aria-readonly", "true");
          container.replaceChildren(g);
        },
      };
    },
  };
  /* The editor of boards too large for a grid of cells: a picture of 2n + 1 columns (A, a blank
   * column, B). Clicks flip the cell under the pointer; the keyboard moves a cursor (arrows,
   * Home, End) and flips (Space, Enter) or sets (0, 1) the cell under it. The cursor outlives
   * the redraw after each change (nineCursor). */
  let nineCursor = { r: 0, which: "a", c: 0 };
  function nineCanvasEditor(m, changed) {
    const n = m.n, cur = nineCursor;
    /* After a resize the cursor stays in its matrix, at most at its edge. */
    cur.r = Math.min(cur.r, n - 1);
    cur.c = Math.min(cur.c, n - 1);
    const drawn = () => (cur.which === "a" ? cur.c : cur.c + n + 1); /* n is the blank column */
    const moveTo = (k) => Object.assign(cur, k < n ? { which: "a", c: k } : { which: "b", c: k - n - 1 });
    const cv = canvasGrid("Board editor", "", (fy, fx) => {
      const k = Math.min(2 * n, Math.floor(fx * (2 * n + 1))), r = Math.min(n - 1, Math.floor(fy * n));
      if (k === n) return; /* the blank column between A and B */
      cur.r = r;
      moveTo(k);
      flip();
    });
    cv.root.setAttribute("aria-readonly", "false");
    cv.note.setAttribute("aria-live", "polite");
    const draw = () => {
      cv.note.textContent = `${n} × ${n}: A left, B right. Click a cell to flip it, or use the arrow keys and Space. Cursor: ${cur.which.toUpperCase()} row ${cur.r + 1} column ${cur.c + 1}, ${m[cur.which][cur.r][cur.c]}.`;
      drawNineCanvas(cv.canvas, n, m.a, m.b, null, document.activeElement === cv.root ? { r: cur.r, k: drawn() } : null);
    };
    const flip = (v) => {
      const g = m[cur.which];
      g[cur.r][cur.c] = v === undefined ? g[cur.r][cur.c] ^ 1 : v;
      changed({ canvas: true }); /* the redrawn editor takes the focus back */
    };
    cv.root.addEventListener("focus", draw);
    cv.root.addEventListener("blur", draw);
    cv.root.addEventListener("keydown", (ev) => {
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return; /* Ctrl+Enter solves */
      const step = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[ev.key];
      if (step) {
        cur.r = Math.max(0, Math.min(n - 1, cur.r + step[0]));
        let k = drawn() + step[1];
        if (k === n) k += step[1]; /* over the blank column */
        if (k >= 0 && k <= 2 * n) moveTo(k);
        draw();
      } else if (ev.key === "Home" || ev.key === "End") {
        moveTo(ev.key === "Home" ? 0 : 2 * n);
        draw();
      } else if (ev.key === " " || ev.key === "Enter") flip();
      else if (ev.key === "0" || ev.key === "1") flip(Number(ev.key));
      else return;
      ev.preventDefault();
    });
    draw();
    return cv.root;
  }
  function drawNineCanvas(canvas, n, a, b, hl, cursor) {
    const w = 2 * n + 1;
    drawCanvas(canvas, n, w, (i) => {
      const r = Math.floor(i / w), c = i % w;
      if (c === n) return 0xffffff;
      const which = c < n ? "a" : "b", cc = c < n ? c : c - n - 1;
      const on = (which === "a" ? a : b)[r][cc];
      const lit = hl && (hl.col === cc || hl.mat === which);
      return on ? (lit ? 0xb26b00 : 0x1d3557) : lit ? 0xffe08a : 0xe9eef5;
    }, null);
    if (cursor) {
      const px = canvas.width / w, ctx = canvas.getContext("2d");
      ctx.strokeStyle = "#e63946";
      ctx.lineWidth = Math.max(1, px / 3);
      ctx.strokeRect(cursor.k * px, cursor.r * px, px, px);
    }
  }

  /* ---- Rubik's Rectangle ---------------------------------------------------------------- */
  /* Rk reverses row k (top row 1), Ck reverses column k. Solved: row-major 1..H*W. A flip is
   * its own inverse, so the replay steps both ways without keeping copies of the board. */
  const RUBIKS_DOM_MAX = { cells: 256, width: 16 };
  const rubiksBig = (h, w) => h * w > RUBIKS_DOM_MAX.cells || w > RUBIKS_DOM_MAX.width;
  /* The first `most` instances of a contest text (T, then per instance W H and H rows). */
  function rubiksInstances(text, most) {
    const t = tokens(text);
    const count = intToken(t[0], "The first number (how many instances)");
    const models = [];
    let at = 1;
    for (let k = 1; k <= Math.min(count, most); k++) {
      const w = intToken(t[at], `Instance ${k}'s width`), h = intToken(t[at + 1], `Instance ${k}'s height`);
      if (!(w >= 1 && h >= 1 && w <= 1000 && h <= 1000)) throw new Error(`Instance ${k}: width and height must be from 1 to 1000.`);
      if (t.length < at + 2 + w * h) throw new Error(`Instance ${k} needs ${w * h} numbers.`);
      const cells = new Int32Array(h * w);
      for (let i = 0; i < h * w; i++) cells[i] = intToken(t[at + 2 + i], "Every cell");
      models.push({ h, w, cells, opts: {} });
      at += 2 + w * h;
    }
    if (!models.length) throw new Error("The text holds no instance.");
    return { models, count };
  }
  /* One answer line: the moves of "POSSIBLE k m1 .. mk", null for "IMPOSSIBLE". */
  const rubiksLine = (line) => (line.startsWith("POSSIBLE") ? tokens(line).slice(2) : null);
  /* A value's colour tells where it belongs: hue by home row, lightness by home column. One
   * table per board size, so drawing a million cells is a million look-ups. */
  let colourTable = { h: 0, w: 0, rgb: null };
  const rubiksColour = (h, w) => {
    if (colourTable.h !== h || colourTable.w !== w) {
      const rgb = new Uint32Array(h * w + 1);
      for (let r = 0; r < h; r++)
        for (let c = 0; c < w; c++) rgb[r * w + c + 1] = hueRgb((r / Math.max(1, h)) * 300, 0.65, 0.35 + 0.4 * (c / Math.max(1, w)));
      colourTable = { h, w, rgb };
    }
    const rgb = colourTable.rgb;
    return (v) => (v >= 1 && v <= h * w ? rgb[v] : 0);
  };
  P["rubiks-rectangle"] = {
    kind: "moves",
    sizes: (lim) => [
      { key: "height", label: "Height (rows)", min: lim.height.min, max: lim.height.max, path: "/board" },
      { key: "width", label: "Width (columns)", min: lim.width.min, max: lim.width.max, path: "/board/0" },
    ],
    options: () => [],
    scramble: true,
    fromJSON(o) {
      if (!o || !Array.isArray(o.board) || !o.board.length || !Array.isArray(o.board[0])) throw new Error('Give "board": H rows of W numbers.');
      const h = o.board.length, w = o.board[0].length;
      const cells = new Int32Array(h * w);
      o.board.forEach((row, r) => {
        if (!Array.isArray(row) || row.length !== w) throw new Error(`Row ${r + 1} must hold ${w} numbers, like the first.`);
        row.forEach((v, c) => {
          /* The board holds whole numbers only: anything else stays in the JSON, never turned into 0. */
          if (!Number.isInteger(v) || Math.abs(v) > 0x7fffffff) throw new Error(`Row ${r + 1}, column ${c + 1} is ${JSON.stringify(v)}, not a whole number the board can hold.`);
          cells[r * w + c] = v;
        });
      });
      return { h, w, cells, opts: {} };
    },
    /* A body of a million numbers: written directly, far faster than JSON.stringify. */
    toJSONText(m) {
      const rows = new Array(m.h);
      for (let r = 0; r < m.h; r++) rows[r] = "[" + m.cells.subarray(r * m.w, r * m.w + m.w).join(",") + "]";
      return '{"board":[' + rows.join(",") + "]}";
    },
    toPrettyJSON(m) {
      const rows = new Array(m.h);
      for (let r = 0; r < m.h; r++) rows[r] = "    [" + m.cells.subarray(r * m.w, r * m.w + m.w).join(", ") + "]";
      return '{\n  "board": [\n' + rows.join(",\n") + "\n  ]\n}\n";
    },
    toText(m) {
      const rows = new Array(m.h);
      for (let r = 0; r < m.h; r++) rows[r] = m.cells.subarray(r * m.w, r * m.w + m.w).join(" ");
      return `1\n\n${m.w} ${m.h}\n` + rows.join("\n") + "\n";
    },
    fromText(text) {
      const { models, count } = rubiksInstances(text, 1);
      const note = count > 1 ? `The text holds ${count} instances: the board shows the first; the contest text keeps them all.` : "";
      return { model: models[0], note };
    },
    /* A contest text of several instances and its answer, a line each: what the replay offers. */
    instances(text, answer) {
      const answers = lines(answer);
      return rubiksInstances(text, Infinity).models.map((model, i) => ({ model, moves: rubiksLine(answers[i] || "") }));
    },
    getSize: (m) => ({ height: m.h, width: m.w }),
    resize(m, s) {
      /* A new size starts sorted: a partial copy would not be a permutation. */
      const h = s.height, w = s.width;
      if (h === m.h && w === m.w) return m;
      const cells = new Int32Array(h * w);
      for (let i = 0; i < h * w; i++) cells[i] = i + 1;
      return { h, w, cells, opts: m.opts };
    },
    /* Above this the request preview and Undo leave the body out (a 1000 x 1000 body is 7 MB). */
    hugeBody: (m) => (m.h * m.w > 40000 ? `a ${m.h} × ${m.w} board` : null),
    scrambleNote: (m) => `Scrambled (${m.h} × ${m.w}, by random row and column flips, so it can be sorted).`,
    scrambleModel(m) {
      const { h, w } = m, cells = new Int32Array(h * w);
      for (let i = 0; i < h * w; i++) cells[i] = i + 1;
      const flips = Math.max(8, 3 * (h + w));
      for (let k = 0; k < flips; k++) {
        if (Math.random() < h / (h + w)) flipRow(cells, w, Math.floor(Math.random() * h));
        else flipCol(cells, h, w, Math.floor(Math.random() * w));
      }
      return { h, w, cells, opts: m.opts };
    },
    editor(m, changed) {
      const { h, w } = m;
      if (rubiksBig(h, w)) {
        const cv = canvasGrid("Board editor", `${h} × ${w}: too large to edit cell by cell. Scramble it, or paste JSON or contest text. Colours show where each number belongs: a sorted board is a smooth gradient.`, null);
        const col = rubiksColour(h, w);
        drawCanvas(cv.canvas, h, w, (i) => (m.cells[i] >= 1 && m.cells[i] <= h * w ? col(m.cells[i]) : 0), null);
        return cv.root;
      }
      const g = grid("Board editor", [
        gridRows(h, w, (r, c) => ({ text: "", path: `/board/${r}/${c}`, label: `Row ${r + 1} column ${c + 1}` }), { focusable: true }),
      ], { focusable: true, cls: "rubiks" });
      for (const cell of g.querySelectorAll('[role="gridcell"]')) {
        const i = Number(cell.dataset.r) * w + Number(cell.dataset.c);
        const inp = el("input", { type: "text", inputmode: "numeric", "aria-label": cell.getAttribute("aria-label"), value: m.cells[i], tabindex: -1 });
        inp.addEventListener("change", () => {
          const typed = inp.value.trim();
          if (!/^\d{1,7}$/.test(typed) || Number(typed) < 1 || Number(typed) > h * w) {
            inp.value = m.cells[i];
            const where = `Row ${Number(cell.dataset.r) + 1}, column ${Number(cell.dataset.c) + 1}`;
            changed({ redraw: false, warn: `${where}: "${typed.slice(0, 20)}" is not a whole number from 1 to ${h * w}; the cell keeps ${m.cells[i]}.` });
            if (document.activeElement === inp) inp.select();
            return;
          }
          m.cells[i] = Number(typed);
          cell.dataset.v = m.cells[i];
          changed({ redraw: false, warn: "" });
          if (document.activeElement === inp) inp.select(); /* Enter: the next digit replaces */
        });
        /* A click into a cell selects its number as Tab does, so that a digit typed replaces
         * it (the click's mouseup would otherwise put the caret after the old number). */
        let clickedIn = false;
        inp.addEventListener("mousedown", () => (clickedIn = document.activeElement !== inp));
        inp.addEventListener("mouseup", (ev) => {
          if (!clickedIn) return;
          clickedIn = false;
          ev.preventDefault();
          inp.select();
        });
        /* Shift+Tab leaves the board at once: the grid's one tab stop (a cell, which only hands
         * the focus to its input) is no stop on the way back. */
        inp.addEventListener("keydown", (ev) => {
          if (ev.key !== "Tab" || !ev.shiftKey) return;
          const stop = g.querySelector('[role="gridcell"][tabindex="0"]');
          if (!stop) return;
          stop.tabIndex = -1;
          setTimeout(() => (stop.tabIndex = 0));
        });
        cell.dataset.v = m.cells[i];
        cell.removeAttribute("aria-label");
        cell.append(inp);
      }
      /* The focused cell passes the focus to its input, so typing edits the number. */
      g.addEventListener("focusin", (ev) => {
        /* Not when Shift+Tab comes back out of the input: that would trap the focus. */
        if (ev.target.getAttribute("role") !== "gridcell" || ev.target.contains(ev.relatedTarget)) return;
        /* Selected, so that a digit typed replaces the number rather than appending to it. */
        const inp = ev.target.querySelector("input");
        inp.focus();
        inp.select();
      });
      return g;
    },
    movesFromAnswer: (a) => (a.solvable === false ? null : a.moves),
    movesFromText: (text) => rubiksLine(lines(text)[0] || ""),
    replay(m, moves) {
      const { h, w } = m, cells = m.cells.slice();
      const parsed = moves.map((mv) => {
        const k = /^([RC])(\d+)$/.exec(mv);
        if (!k) throw new Error("Unknown move " + mv + ".");
        const idx = Number(k[2]) - 1;
        if (idx < 0 || idx >= (k[1] === "R" ? h : w)) throw new Error("Move " + mv + " is off the board.");
        return k[1] === "R" ? idx : -1 - idx; /* rows >= 0, columns < 0 */
      });
      const col = rubiksColour(h, w);
      const big = rubiksBig(h, w);
      let view = null;
      return {
        total: moves.length,
        work: (i) => (parsed[i] >= 0 ? w : h),
        apply(i) {
          const p = parsed[i];
          if (p >= 0) flipRow(cells, w, p);
          else flipCol(cells, h, w, -1 - p);
        },
        describe(i) {
          const p = parsed[i];
          return p >= 0 ? `${moves[i]}: reverse row ${p + 1}` : `${moves[i]}: reverse column ${-p}`;
        },
        solved() {
          for (let i = 0; i < cells.length; i++) if (cells[i] !== i + 1) return false;
          return true;
        },
        render(container, last) {
          const p = last >= 0 ? parsed[last] : null;
          const hl = p === null ? null : p >= 0 ? { rows: [p], cols: [] } : { rows: [], cols: [-1 - p] };
          if (big) {
            if (!view || !container.contains(view.root)) {
              view = canvasGrid("Answer board", "", null);
              container.replaceChildren(view.root);
            }
            view.note.textContent = `${h} × ${w}${last >= 0 ? "; highlighted: " + moves[last] : ""}. Colours show where each number belongs: sorted is a smooth gradient.`;
            drawCanvas(view.canvas, h, w, (i) => col(cells[i]), hl);
            return;
          }
          const g = grid("Answer board", [
            gridRows(h, w, (r, c) => {
              const v = cells[r * w + c];
              const lit = hl && (hl.rows.includes(r) || hl.cols.includes(c));
              return { text: String(v), v, cls: (lit ? "hl" : "") + (v === r * w + c + 1 ? " home" : ""), label: `Row ${r + 1} column ${c + 1}` };
            }, {}),
          ], { cls: "rubiks" });
          g.setAttribute("aria-readonly", "true");
          container.replaceChildren(g);
        },
      };
    },
  };
  function flipRow(cells, w, r) {
    for (let a = r * w, b = a + w - 1; a < b; a++, b--) {
      const t = cells[a];
      cells[a] = cells[b];
      cells[b] = t;
    }
  }
  function flipCol(cells, h, w, c) {
    for (let a = c, b = (h - 1) * w + c; a < b; a += w, b -= w) {
      const t = cells[a];
      cells[a] = cells[b];
      cells[b] = t;
    }
  }

  /* ---- invariant boards ------------------------------------------------------------------ */
  P["invariant-boards"] = {
    kind: "count",
    sizes: (lim) => [{ key: "n", label: "Board size n (n × n)", min: lim.n.min, max: lim.n.max, path: "/n" }],
    options: (lim) => [{ key: "boards", label: `List one board per class (only while there are at most ${spaced(lim.boards_max)})`, type: "checkbox", path: "/boards" }],
    fromJSON(o) {
      if (!o || !Number.isInteger(o.n)) throw new Error('Give "n", an integer.');
      return { n: o.n, opts: { boards: !!o.boards } };
    },
    toObject: (m) => (m.opts.boards ? { n: m.n, boards: true } : { n: m.n }),
    toText: (m) => m.n + "\n",
    fromText(text) {
      return { model: { n: intToken(tokens(text)[0], "n"), opts: {} } };
    },
    getSize: (m) => ({ n: m.n }),
    resize: (m, s) => ({ n: s.n, opts: m.opts }),
    editor: () => null,
    boardsFromAnswer: (a) => a.boards || null,
    countFromAnswer: (a) => ({
      count: a.count,
      extra: `${a.count === "1" ? "class" : "classes"}; ${spaced(a.invariant_boards)} invariant ${a.invariant_boards === "1" ? "board" : "boards"} in all, symmetric copies included`,
    }),
    drawBoard(b) {
      const n = b.length;
      const cv = el("canvas", { class: "mini-canvas", role: "img" });
      drawCanvas(cv, n, n, (i) => (b[Math.floor(i / n)][i % n] === "-" ? 0x1d3557 : 0xe9eef5), null);
      return cv;
    },
  };

  /* ---- Mayan ------------------------------------------------------------------------------ */
  /* A drag moves the block at (x, y) one column: into an occupied cell it swaps, into an empty one
   * it leaves its column (the blocks above fall) and falls in the next. Then every row or column
   * run of three or more equal colours vanishes at once, blocks fall, and again until still. */
  const MAYAN_COLOURS = [0xffffff, 0xe63946, 0x2a9d8f, 0xf4a261, 0x457b9d, 0x9b5de5, 0x8ac926, 0xff70a6, 0x6d4c41, 0x00b4d8, 0x495057];
  const hex = (rgb) => "#" + rgb.toString(16).padStart(6, "0");
  /* The text colour that reads best on rgb (WCAG contrast): near-black on the light colours,
   * white on the dark ones, so that a colour's number never depends on a shadow. */
  function textOn(rgb) {
    const lin = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    const l = 0.2126 * lin(rgb >> 16) + 0.7152 * lin((rgb >> 8) & 255) + 0.0722 * lin(rgb & 255);
    return (l + 0.05) / 0.0556 >= 1.05 / (l + 0.05) ? "#111" : "#fff"; /* #111: luminance .0056 */
  }
  P.mayanText = (v) => textOn(MAYAN_COLOURS[v]);
  const mayanCell = (v) =>
    v ? `background:${hex(MAYAN_COLOURS[v])};color:${textOn(MAYAN_COLOURS[v])};text-shadow:none` : "";
  P.mayan = {
    kind: "moves",
    sizes: (lim) => [
      { key: "width", label: "Width (columns)", min: lim.width.min, max: lim.width.max, path: "/width" },
      { key: "height", label: "Height (rows)", min: lim.height.min, max: lim.height.max, path: "/height" },
    ],
    options: (lim) => [{ key: "moves", label: "Clear it in exactly this many moves", type: "number", min: lim.moves.min, max: lim.moves.max, path: "/moves", required: true }],
    palette: true,
    fromJSON(o) {
      if (!o || !Array.isArray(o.columns)) throw new Error('Give "columns": one array of colours per column, bottom first.');
      const width = "width" in o ? o.width : 5, height = "height" in o ? o.height : 7;
      /* What the board cannot show stays in the JSON (the server names the field): nothing is
       * cut or changed on the way to the board. */
      for (const [k, v] of [["width", width], ["height", height]])
        if (!Number.isInteger(v) || v < 1 || v > 16) throw new Error(`"${k}" is ${JSON.stringify(v)}; the board takes 1 to 16.`);
      if (o.columns.length !== width) throw new Error(`"columns" holds ${o.columns.length} columns but the board is ${width} wide.`);
      if ("moves" in o && !Number.isInteger(o.moves)) throw new Error(`"moves" is ${JSON.stringify(o.moves)}, not a whole number.`);
      const columns = o.columns.map((col, x) => {
        if (!Array.isArray(col)) throw new Error(`Column ${x} is not an array of colours.`);
        if (col.length > height) throw new Error(`Column ${x} holds ${col.length} blocks but the board is ${height} high.`);
        for (const v of col) if (!Number.isInteger(v) || v < 1 || v > 10) throw new Error(`Column ${x} holds ${JSON.stringify(v)}; colours are 1 to 10.`);
        return col.slice();
      });
      return { width, height, columns, opts: { moves: o.moves } };
    },
    toObject(m) {
      const o = { moves: m.opts.moves === "" || m.opts.moves === undefined ? undefined : Number(m.opts.moves), columns: m.columns };
      if (m.width !== 5) o.width = m.width;
      if (m.height !== 7) o.height = m.height;
      return o;
    },
    toText(m) {
      if (m.width !== 5 || m.height !== 7) throw new Error("The contest text format is for 5 × 7 boards only; use JSON for this size.");
      return `${m.opts.moves}\n` + m.columns.map((c) => c.concat([0]).join(" ")).join("\n") + "\n";
    },
    fromText(text) {
      const ls = lines(text);
      const moves = intToken(tokens(ls[0] || "")[0], "The first line (the number of moves)");
      if (ls.length < 6) throw new Error("Give the number of moves, then 5 lines of colours, each ended by 0.");
      const columns = ls.slice(1, 6).map((l, x) => {
        const t = tokens(l).map((s) => intToken(s, `Column ${x + 1}`));
        if (t[t.length - 1] !== 0) throw new Error(`Line ${x + 2} must end with 0.`);
        return t.slice(0, t.indexOf(0));
      });
      return { model: { width: 5, height: 7, columns, opts: { moves } } };
    },
    getSize: (m) => ({ width: m.width, height: m.height }),
    resize(m, s) {
      const columns = Array.from({ length: s.width }, (_, x) => (m.columns[x] || []).slice(0, s.height));
      return { width: s.width, height: s.height, columns, opts: m.opts };
    },
    editor(m, changed, ui) {
      const { width, height } = m;
      const g = grid("Board editor", [
        gridRows(height, width, (r, x) => {
          const y = height - 1 - r, v = m.columns[x][y] || 0;
          return { text: v ? String(v) : "", v, style: mayanCell(v), cls: v ? "block" : "empty", path: `/columns/${x}/${y}`, label: `Column ${x} row ${y}${v ? ", colour " + v : ", empty"}` };
        }, { focusable: true }),
      ], {
        focusable: true,
        cls: "mayan",
        onClick: (cell) => paint(cell, ui.colour()),
        onKey(cell, ev) {
          if (/^[0-9]$/.test(ev.key)) paint(cell, ev.key === "0" ? 10 : Number(ev.key));
          else if (ev.key === "Backspace" || ev.key === "Delete") paint(cell, 0);
          else return false;
          return true;
        },
      });
      /* Blocks stand on the bottom or on other blocks: a colour above the stack goes on top of
       * it, and taking a block out lets the ones above fall. */
      function paint(cell, colour) {
        const x = Number(cell.dataset.c), y = height - 1 - Number(cell.dataset.r);
        const col = m.columns[x];
        if (colour === 0) {
          if (y < col.length) col.splice(y, 1);
        } else if (y < col.length) col[y] = colour;
        else col.push(colour);
        const ny = colour === 0 ? Math.min(y, col.length) : Math.min(y, col.length - 1);
        changed({ r: height - 1 - Math.max(0, ny), c: x });
      }
      return g;
    },
    movesFromAnswer: (a) => (a.solvable === false ? null : a.moves),
    movesFromText(text) {
      const ls = lines(text);
      if (ls[0] === "-1") return null;
      return ls.map((l) => {
        const [x, y, d] = tokens(l).map(Number);
        return { x, y, direction: d };
      });
    },
    /* Every move keeps its frames (the drag, each fall, each set of vanishing runs), so a step
     * can show what happened inside it; boards are at most 16 x 16 and moves at most 10. */
    replay(m, moves) {
      const { width, height } = m;
      const states = [m.columns.map((c) => c.slice())];
      const frames = [];
      const initialFrames = []; /* a board that holds a run is settled first, by the rules */
      states[0] = settle(states[0], width, height, initialFrames);
      for (const mv of moves) {
        const cols = states[states.length - 1].map((c) => c.slice());
        const f = [];
        const { x, y, direction: d } = mv;
        const tx = x + d;
        if (!(x >= 0 && x < width && tx >= 0 && tx < width && y >= 0 && y < cols[x].length)) throw new Error(`Move (${x}, ${y}, ${d}) drags no block on the board.`);
        const grid0 = toGrid(cols, width, height);
        if (y < cols[tx].length) {
          [cols[x][y], cols[tx][y]] = [cols[tx][y], cols[x][y]];
          f.push({ label: `Drag (${x}, ${y}) ${d > 0 ? "right" : "left"}: swap`, grid: toGrid(cols, width, height), marks: [[x, y], [tx, y]] });
        } else {
          const v = cols[x][y];
          const g = grid0.map((c) => c.slice());
          g[x][y] = 0;
          g[tx][y] = v; /* in mid-air for a moment */
          f.push({ label: `Drag (${x}, ${y}) ${d > 0 ? "right" : "left"}`, grid: g, marks: [[tx, y]] });
          cols[x].splice(y, 1);
          cols[tx].push(v);
          f.push({ label: "Fall", grid: toGrid(cols, width, height), marks: [[tx, cols[tx].length - 1]].concat(cols[x].slice(y).map((_, k) => [x, y + k])) });
        }
        states.push(settle(cols, width, height, f));
        frames.push(f);
      }
      let cur = 0;
      return {
        total: moves.length,
        work: () => 1,
        initialFrames,
        apply(i, inverse) {
          cur = inverse ? i : i + 1;
        },
        describe(i) {
          const mv = moves[i];
          return `(${mv.x}, ${mv.y}) ${mv.direction > 0 ? "right" : "left"}`;
        },
        solved: () => states[cur].every((c) => c.length === 0),
        render(container, last) {
          const cols = states[cur];
          const mv = last >= 0 ? moves[last] : null;
          const g = grid("Answer board", [
            gridRows(height, width, (r, x) => {
              const y = height - 1 - r, v = cols[x][y] || 0;
              const lit = mv && y === mv.y && (x === mv.x || x === mv.x + mv.direction); /* the drag's two cells */
              return { text: v ? String(v) : "", v, style: mayanCell(v), cls: (v ? "block" : "empty") + (lit ? " hl" : ""), label: `Column ${x} row ${y}${v ? ", colour " + v : ", empty"}` };
            }, {}),
          ], { cls: "mayan" });
          g.setAttribute("aria-readonly", "true");
          const fs = last >= 0 ? frames[last] : initialFrames;
          const strip = el("ol", { class: "frames", "aria-label": last >= 0 ? `What happened in move ${last + 1}` : "Settling the initial board" });
          for (const fr of fs) strip.append(el("li", {}, miniMayan(fr, width, height), el("span", { text: fr.label })));
          container.replaceChildren(g, fs.length ? strip : "");
        },
      };
    },
  };
  function toGrid(cols, width, height) {
    return Array.from({ length: width }, (_, x) => Array.from({ length: height }, (_, y) => cols[x][y] || 0));
  }
  /* Runs vanish, blocks fall, until still; each round adds a "vanish" and a "fall" frame. */
  function settle(cols, width, height, frames) {
    for (;;) {
      const g = toGrid(cols, width, height);
      const gone = Array.from({ length: width }, () => new Array(height).fill(false));
      let any = false;
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const v = g[x][y];
          if (!v) continue;
          if (x + 2 < width && g[x + 1][y] === v && g[x + 2][y] === v) {
            for (let k = x; k < width && g[k][y] === v; k++) gone[k][y] = true;
            any = true;
          }
          if (y + 2 < height && g[x][y + 1] === v && g[x][y + 2] === v) {
            for (let k = y; k < height && g[x][k] === v; k++) gone[x][k] = true;
            any = true;
          }
        }
      if (!any) return cols;
      const marks = [];
      for (let x = 0; x < width; x++) for (let y = 0; y < height; y++) if (gone[x][y]) marks.push([x, y]);
      frames.push({ label: `Vanish: ${marks.length} blocks`, grid: g, marks, vanish: true });
      cols = cols.map((c, x) => c.filter((_, y) => !gone[x][y]));
      frames.push({ label: "Fall", grid: toGrid(cols, width, height), marks: [] });
    }
  }
  function miniMayan(fr, width, height) {
    const marked = new Set(fr.marks.map(([x, y]) => x + "," + y));
    const t = el("div", { class: "mini mayan-mini", role: "img", "aria-label": fr.label });
    t.style.setProperty("--cols", width);
    for (let y = height - 1; y >= 0; y--)
      for (let x = 0; x < width; x++) {
        const v = fr.grid[x][y];
        const d = el("span", { class: (v ? "block" : "empty") + (marked.has(x + "," + y) ? (fr.vanish ? " vanish" : " hl") : "") });
        if (v) d.setAttribute("style", mayanCell(v));
        t.append(d);
      }
    return t;
  }

  /* ---- Maze Tac Toe ------------------------------------------------------------------------ */
  const MAZE_DOM_MAX = 15;
  const mazeKinds = [
    { id: "###", label: "Wall", key: "#" },
    { id: "...", label: "Open", key: "." },
    { id: "BBB", label: "Start", key: "b" },
    { id: "M", label: "M at", key: "m" },
    { id: "O", label: "O at", key: "o" },
  ];
  P["maze-tac-toe"] = {
    kind: "count",
    mazeKinds,
    sizes: (lim) => [{ key: "n", label: "Maze size N (N × N cells)", min: lim.n.min, max: lim.n.max, path: "/maze" }],
    options: () => [{ key: "boards", label: "List the winning boards", type: "checkbox", path: "/boards" }],
    palette: (m) => m.n <= MAZE_DOM_MAX, /* a larger maze is a picture: nothing to place */
    fromJSON(o) {
      if (!o || !Array.isArray(o.maze) || !o.maze.length) throw new Error('Give "maze": N strings of 3N characters.');
      const n = o.maze.length;
      const cells = o.maze.map((row, r) => {
        if (typeof row !== "string" || row.length !== 3 * n) throw new Error(`Maze row ${r + 1} must be ${3 * n} characters.`);
        return Array.from({ length: n }, (_, c) => row.slice(3 * c, 3 * c + 3));
      });
      return { n, cells, opts: { boards: !!o.boards } };
    },
    toObject(m) {
      const o = { maze: m.cells.map((r) => r.join("")) };
      if (m.opts.boards) o.boards = true;
      return o;
    },
    toText: (m) => `${m.n}\n` + m.cells.map((r) => r.join("")).join("\n") + "\n",
    fromText(text) {
      const ls = lines(text);
      const n = intToken(ls[0], "The first line (N)");
      return { model: this.fromJSON({ maze: ls.slice(1, 1 + n) }) };
    },
    getSize: (m) => ({ n: m.n }),
    resize(m, s) {
      const n = s.n;
      const cells = Array.from({ length: n }, (_, r) =>
        Array.from({ length: n }, (_, c) => {
          if (r === 0 || c === 0 || r === n - 1 || c === n - 1) return "###";
          return (m.cells[r] && m.cells[r][c] && r < m.n - 1 && c < m.n - 1) ? m.cells[r][c] : "...";
        }));
      /* A maze needs its start: one cut off by shrinking (or a new maze) gets it top left. */
      if (n >= 3 && !cells.some((row) => row.includes("BBB"))) cells[1][1] = "BBB";
      return { n, cells, opts: m.opts };
    },
    editor(m, changed, ui) {
      const n = m.n;
      if (n > MAZE_DOM_MAX) {
        const cv = canvasGrid("Board editor", `${n} × ${n} maze: too large to edit cell by cell here. Solve it as it is, or write it in the JSON or contest-text mode (the Format above). Dark: wall, light: open, green: start, red: M, blue: O.`, null);
        drawCanvas(cv.canvas, n, n, (i) => mazeColour(m.cells[Math.floor(i / n)][i % n]), null);
        return cv.root;
      }
      const paint = (cell, token) => {
        const r = Number(cell.dataset.r), c = Number(cell.dataset.c);
        m.cells[r][c] = token;
        changed({ r, c });
      };
      return grid("Board editor", [
        gridRows(n, n, (r, c) => {
          const t = m.cells[r][c];
          return { text: t === "###" ? "" : t === "..." ? "" : t === "BBB" ? "B" : t, v: t, cls: "maze " + mazeClass(t), path: `/maze/${r}/${c}`, label: `Row ${r + 1} column ${c + 1}: ${mazeWords(t)}` };
        }, { focusable: true }),
      ], {
        focusable: true,
        cls: "maze",
        onClick: (cell) => paint(cell, ui.mazeToken()),
        onKey(cell, ev) {
          const k = mazeKinds.find((kd) => kd.key === ev.key.toLowerCase());
          if (!k) return false;
          paint(cell, ui.mazeToken(k.id));
          return true;
        },
      });
    },
    boardsFromAnswer: (a) => a.boards || null,
    countFromAnswer: (a) => ({ count: String(a.count), extra: "distinct winning boards" }),
    drawBoard(b) {
      const t = el("div", { class: "mini ttt", role: "img" });
      t.style.setProperty("--cols", 3);
      for (const row of b) for (const ch of row) t.append(el("span", { class: ch === "M" ? "m" : ch === "O" ? "o" : "", text: ch === "." ? "" : ch }));
      return t;
    },
  };
  function mazeClass(t) {
    return t === "###" ? "wall" : t === "..." ? "open" : t === "BBB" ? "start" : t[0] === "M" ? "m" : t[0] === "O" ? "o" : "bad";
  }
  function mazeWords(t) {
    if (t === "###") return "wall";
    if (t === "...") return "open";
    if (t === "BBB") return "start";
    if (/^[MO][1-3][1-3]$/.test(t)) return `place ${t[0]} at row ${t[1]}, column ${t[2]}`;
    return `"${t}" (not a cell)`;
  }
  function mazeColour(t) {
    return { wall: 0x343a40, open: 0xf1f3f5, start: 0x2b9348, m: 0xe63946, o: 0x457b9d, bad: 0xff00ff }[mazeClass(t)];
  }

  /* ---- common to all adapters ---------------------------------------------------------------- */
  for (const [slug, a] of Object.entries(P)) {
    if (typeof a !== "object" || !a.kind) continue;
    a.slug = slug;
    if (!a.toJSONText) a.toJSONText = (m) => JSON.stringify(a.toObject(m));
    if (!a.toPrettyJSON) a.toPrettyJSON = (m) => prettyJSON(a.toObject(m));
  }
  /* One line per row of a board, so that a pasted body reads like the board. */
  function prettyJSON(o) {
    const parts = Object.entries(o).filter(([, v]) => v !== undefined).map(([k, v]) => {
      if (Array.isArray(v) && v.some((x) => Array.isArray(x) || typeof x === "string"))
        return `  ${JSON.stringify(k)}: [\n` + v.map((x) => "    " + JSON.stringify(x)).join(",\n") + "\n  ]";
      return `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`;
    });
    return "{\n" + parts.join(",\n") + "\n}\n";
  }
  P.clampInt = clampInt;
  P.refocus = refocus;
  P.mazeWords = mazeWords;
  window.Puzzles = P;
})();
