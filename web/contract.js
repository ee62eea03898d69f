/* Shows openapi.yaml readably: the routes with their summaries as a list of links, then the
 * document itself with its keys set apart and an anchor at every path. No YAML parser: the
 * document's own indentation is enough for this. */
"use strict";
(async function () {
  const doc = document.getElementById("doc");
  let text;
  try {
    const res = await fetch("openapi.yaml");
    text = await res.text();
  } catch (e) {
    doc.textContent = "Cannot load openapi.yaml: " + e.message;
    return;
  }
  const lines = text.split("\n");
  const routes = document.getElementById("routes");
  doc.replaceChildren();
  let inPaths = false, path = null;
  lines.forEach((line, i) => {
    if (/^\S/.test(line)) inPaths = line.startsWith("paths:");
    const span = document.createElement("span");
    span.className = "line";
    const m = /^(\s*)(- )?([A-Za-z0-9_$/{}.'"-]+):(\s.*|)$/.exec(line);
    const pathMatch = inPaths && /^ {2}(\/\S*):\s*$/.exec(line);
    if (pathMatch) {
      path = pathMatch[1];
      span.id = "path-" + path;
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = "#" + encodeURIComponent(span.id);
      a.textContent = path;
      li.append(a);
      li.dataset.path = path;
      routes.append(li);
    }
    const op = inPaths && path && /^ {4}(get|post|options|put|delete|head):\s*$/.exec(line);
    if (op) {
      const li = routes.querySelector(`li[data-path="${CSS.escape(path)}"]`);
      const summary = lines.slice(i + 1, i + 8).map((l) => /^ {6}summary:\s*(.*)$/.exec(l)).find(Boolean);
      li.append(document.createTextNode(` ${op[1].toUpperCase()}${summary ? ": " + summary[1] : ""}`));
    }
    if (m) {
      const key = document.createElement("b");
      key.textContent = m[3];
      span.append(m[1] + (m[2] || ""), key, ":" + m[4]);
    } else span.textContent = line;
    doc.append(span, "\n");
  });
  if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
})();
