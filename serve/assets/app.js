"use strict";
// The page of riskbatch serve: plain JavaScript, no library. Every request
// carries the token the page was opened with (?token=), if any.
(function () {
  const token = new URLSearchParams(location.search).get("token");
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const svgEl = (tag, attrs) => {
    const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  };
  function api(path, options) {
    options = options || {};
    options.headers = options.headers || {};
    if (token) options.headers["Authorization"] = "Bearer " + token;
    return fetch(path, options);
  }
  async function failure(resp) {
    const text = (await resp.text()).trim();
    return resp.status + " " + (text || resp.statusText);
  }
  function saveBlob(blob, name) {
    const a = el("a", { download: name });
    a.href = URL.createObjectURL(blob);
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }
  function filename(resp, fallback) {
    const m = /filename="?([^";]+)"?/.exec(resp.headers.get("Content-Disposition") || "");
    return m ? m[1] : fallback;
  }

  // Tabs.
  function showTab(name) {
    for (const u of document.querySelectorAll(".tab")) {
      u.setAttribute("aria-selected", String(u.dataset.tab === name));
      $("tab-" + u.dataset.tab).hidden = u.dataset.tab !== name;
    }
  }
  for (const t of document.querySelectorAll(".tab")) {
    t.addEventListener("click", () => showTab(t.dataset.tab));
  }

  // The registry, for help texts and the column reference, and the
  // papers its output columns come from.
  let registry = [];
  const byName = {};
  const paperById = {};
  const ready = Promise.all([api("/api/columns").then((r) => r.json()), api("/api/papers").then((r) => r.json())]).then(([cols, papers]) => {
    registry = cols;
    for (const c of cols) {
      byName[c.name] = c;
    }
    for (const p of papers) paperById[p.id] = p;
    renderPapers(papers);
    renderColumns();
  });
  // paperLink is a column's paper: a link to its entry in the list of
  // papers, and the theorem, equation or section the column comes from.
  function paperLink(c) {
    const span = el("span");
    const p = paperById[c.paper_id];
    if (!p) return span;
    const a = el("a", { href: "#paper-" + p.id, class: "paper-link", title: p.reference }, p.author + " et al. (" + p.id + ")");
    span.appendChild(a);
    if (c.where) span.appendChild(document.createTextNode(", " + c.where));
    return span;
  }
  // A paper's link shows the column reference and its entry there.
  document.addEventListener("click", (e) => {
    const a = e.target.closest ? e.target.closest("a.paper-link") : null;
    if (!a) return;
    e.preventDefault();
    showTab("columns");
    const entry = $(a.getAttribute("href").slice(1));
    if (!entry) return;
    for (const li of document.querySelectorAll("#paper-list li.target")) li.classList.remove("target");
    entry.classList.add("target");
    entry.scrollIntoView({ block: "center" });
  });
  function renderPapers(papers) {
    const ol = $("paper-list");
    ol.textContent = "";
    for (const p of papers) {
      const li = el("li", { id: "paper-" + p.id });
      li.appendChild(el("strong", {}, p.id));
      li.appendChild(document.createTextNode(" " + p.reference + (p.venue ? ", " + p.venue : "") + "."));
      const cols = el("p", { class: "help" }, "Its columns: ");
      p.columns.forEach((n, i) => {
        if (i > 0) cols.appendChild(document.createTextNode(", "));
        cols.appendChild(el("code", {}, n));
      });
      li.appendChild(cols);
      ol.appendChild(li);
    }
  }

  // ---- Evaluate a file ----
  let table = null; // {header, rows}
  let pageNo = 0;
  const pageSize = 50;
  const fileInput = $("file");
  fileInput.addEventListener("change", () => { $("run").disabled = !fileInput.files.length; });
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (e.dataTransfer.files.length) {
      fileInput.files = e.dataTransfer.files;
      $("run").disabled = false;
      evaluateFile();
    }
  });
  function evalForm(format) {
    const fd = new FormData();
    fd.append("file", fileInput.files[0]);
    for (const f of $("priors").files) fd.append("priors", f);
    for (const f of $("data").files) fd.append("data", f);
    for (const k of ["confidence", "columns", "sheet"]) {
      const v = $(k).value.trim();
      if (v) fd.append(k, v);
    }
    fd.append("format", format);
    return fd;
  }
  function setStatus(id, text, error) {
    const p = $(id);
    p.textContent = text;
    p.classList.toggle("error", !!error);
  }
  // progressID draws the id an evaluation's progress is asked for under:
  // 128 random bits, which no other page can guess.
  function progressID() {
    const b = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }
  const percent = (f) => (100 * f).toFixed(f < 0.1 ? 1 : 0) + " %";
  // progressText is what /api/progress answered, in words.
  function progressText(name, p) {
    if (p.phase === "upload") {
      return "Sending " + name + " … " + (p.fraction !== null ? percent(p.fraction) : Math.round(p.uploaded / 1024) + " KiB");
    }
    let text = "Evaluating " + name + " … " + p.rows.toLocaleString("en") + " rows written";
    if (p.fraction !== null) text += ", " + percent(p.fraction) + " of the table read";
    return text;
  }
  // watchProgress polls the progress of the evaluation under id into the
  // status line, every half second from the first second on (a small
  // table is done before), until the returned function is called. Once
  // the request has ended the answer is 404: the line keeps what it said.
  function watchProgress(name, id) {
    let stopped = false;
    let timer;
    setStatus("file-status", "Sending " + name + " …");
    const poll = async () => {
      try {
        const resp = await api("/api/progress?id=" + id);
        if (resp.ok && !stopped) setStatus("file-status", progressText(name, await resp.json()));
      } catch (e) { /* the evaluation's own request reports failures */ }
      if (!stopped) timer = setTimeout(poll, 500);
    };
    timer = setTimeout(poll, 1000);
    return () => { stopped = true; clearTimeout(timer); };
  }
  async function evaluateFile() {
    if (!fileInput.files.length) return;
    const name = fileInput.files[0].name;
    const id = progressID();
    const stop = watchProgress(name, id);
    $("run").disabled = true;
    try {
      const resp = await api("/api/eval?progress=" + id, { method: "POST", body: evalForm("csv") });
      stop();
      if (!resp.ok) {
        setStatus("file-status", await failure(resp), true);
        $("result").hidden = true;
        return;
      }
      const rows = parseCSV(await resp.text());
      table = { header: rows[0] || [], rows: rows.slice(1) };
      pageNo = 0;
      showTable();
      setStatus("file-status", fileInput.files[0].name + ": " + table.rows.length + " rows evaluated.");
    } catch (e) {
      setStatus("file-status", "The request failed: " + e.message, true);
    } finally {
      stop();
      $("run").disabled = false;
    }
  }
  $("run").addEventListener("click", evaluateFile);
  for (const b of document.querySelectorAll(".dl")) {
    b.addEventListener("click", async () => {
      setStatus("file-status", "Preparing the " + b.dataset.format.toUpperCase() + " file …");
      const resp = await api("/api/eval", { method: "POST", body: evalForm(b.dataset.format) });
      if (!resp.ok) { setStatus("file-status", await failure(resp), true); return; }
      saveBlob(await resp.blob(), filename(resp, "riskbatch-risk." + b.dataset.format));
      setStatus("file-status", "Downloaded.");
    });
  }
  $("allcols").addEventListener("change", showTable);
  $("prev").addEventListener("click", () => { if (pageNo > 0) { pageNo--; showTable(); } });
  $("next").addEventListener("click", () => { if ((pageNo + 1) * pageSize < table.rows.length) { pageNo++; showTable(); } });

  // shownColumns: every column in the file's order, or the first column
  // (the row's label), status, message, the headline columns and the four
  // output columns the most rows fill, then the other input columns some
  // row fills.
  function shownColumns(header) {
    const all = header.map((_, i) => i);
    const st = header.indexOf("status");
    if ($("allcols").checked || st < 1) return all;
    const filled = (i) => table.rows.some((r) => (r[i] || "") !== "");
    const count = (i) => table.rows.reduce((n, r) => n + ((r[i] || "") !== "" ? 1 : 0), 0);
    const shown = [0, st, st + 1];
    const outputs = [];
    for (let i = st + 2; i < header.length; i++) {
      const c = byName[header[i]];
      if (header[i].startsWith("headline")) shown.push(i);
      else if (c && c.kind.startsWith("output")) outputs.push([i, count(i)]);
    }
    // The four output columns most rows fill, in the file's order.
    const most = outputs.filter((o) => o[1] > 0).sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 4).map((o) => o[0]);
    shown.push(...most.sort((a, b) => a - b));
    for (let i = 1; i < st; i++) if (filled(i)) shown.push(i);
    return shown;
  }
  function showTable() {
    if (!table) return;
    $("result").hidden = false;
    const t = $("rows");
    t.textContent = "";
    const cols = shownColumns(table.header);
    const st = table.header.indexOf("status");
    const head = el("tr");
    for (const i of cols) {
      // A column of numbers has its header over them, on the right.
      const th = el("th", { class: numericColumn(i) ? "num" : "" }, table.header[i]);
      const c = byName[table.header[i]];
      if (c) th.title = c.meaning;
      head.appendChild(th);
    }
    t.appendChild(el("thead")).appendChild(head);
    const body = el("tbody");
    const counts = {};
    for (const r of table.rows) counts[r[st]] = (counts[r[st]] || 0) + 1;
    for (const r of table.rows.slice(pageNo * pageSize, (pageNo + 1) * pageSize)) {
      const tr = el("tr", { class: "st-" + (r[st] || "") });
      for (const i of cols) {
        const v = r[i] === undefined ? "" : r[i];
        const numeric = v !== "" && !isNaN(Number(v));
        // Text of riskbatch's own columns (message, a sentence such as
        // headline_says) wraps; an input's long text is cut.
        const own = st >= 0 && i > st && (i === st + 1 || (byName[table.header[i]] || { kind: "" }).kind.startsWith("output"));
        const td = el("td", { class: numeric ? "num" : (own ? "msg" : (i === st ? "" : "txt")) }, numeric ? formatNumber(v) : v);
        if (numeric || (v.length > 30 && !own && i !== st)) td.title = v;
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    t.appendChild(body);
    $("counts").textContent = Object.keys(counts).map((k) => counts[k] + " " + k).join(", ");
    const pages = Math.max(1, Math.ceil(table.rows.length / pageSize));
    $("page").textContent = "page " + (pageNo + 1) + " of " + pages + " (" + table.rows.length + " rows)";
  }
  // numericColumn reports whether column i holds numbers: some cell of the
  // table does, and every cell that is not empty is one.
  function numericColumn(i) {
    let any = false;
    for (const r of table.rows) {
      const v = r[i] === undefined ? "" : r[i];
      if (v === "") continue;
      if (isNaN(Number(v))) return false;
      any = true;
    }
    return any;
  }
  function formatNumber(v) {
    const x = Number(v);
    if (Number.isInteger(x)) return String(x);
    return Math.abs(x) >= 1e-3 || x === 0 ? String(Number(x.toPrecision(4))) : x.toExponential(3);
  }
  // parseCSV reads RFC 4180 CSV: quoted fields, doubled quotes, CRLF.
  function parseCSV(text) {
    const rows = [];
    let row = [], field = "", i = 0, quoted = false;
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    for (; i < text.length; i++) {
      const ch = text[i];
      if (quoted) {
        if (ch === '"') {
          if (text[i + 1] === '"') { field += '"'; i++; } else quoted = false;
        } else field += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ",") { row.push(field); field = ""; }
      else if (ch === "\n" || ch === "\r") {
        if (ch === "\r" && text[i + 1] === "\n") i++;
        row.push(field); rows.push(row); row = []; field = "";
      } else field += ch;
    }
    if (field !== "" || row.length) { row.push(field); rows.push(row); }
    return rows;
  }

  // ---- One release ----
  let mechanisms = [];
  const fields = $("fields");
  function addField(name, value) {
    if (fields.querySelector('[data-name="' + name + '"]')) return;
    const c = byName[name] || { meaning: "" };
    const div = el("div", { class: "field-row", "data-name": name });
    const id = "in-" + name;
    div.appendChild(el("label", { for: id }, name));
    const input = el("input", { id: id, type: "text", inputmode: "decimal", name: name });
    input.value = value === undefined ? "" : value;
    input.addEventListener("input", recompute);
    div.appendChild(input);
    div.appendChild(el("p", { class: "help" }, c.meaning + (c.needs ? " (" + c.needs + ")" : "")));
    const rm = el("button", { type: "button", class: "remove", title: "remove" }, "×");
    rm.addEventListener("click", () => { div.remove(); recompute(); });
    div.appendChild(rm);
    fields.appendChild(div);
  }
  function showMechanism(keep) {
    const m = mechanisms.find((x) => x.name === $("mechanism").value);
    const old = {};
    for (const i of fields.querySelectorAll("input")) old[i.name] = i.value;
    fields.textContent = "";
    for (const n of m.inputs) addField(n, old[n]);
    for (const n of keep) if (!m.inputs.includes(n)) addField(n, old[n]);
    recompute();
  }
  function rowObject() {
    const row = { mechanism: $("mechanism").value };
    for (const i of fields.querySelectorAll("input")) {
      if (i.value.trim() !== "") row[i.name] = i.value.trim();
    }
    return row;
  }
  let seq = 0;
  let timer = null;
  function recompute() {
    clearTimeout(timer);
    timer = setTimeout(doRecompute, 200);
  }
  async function doRecompute() {
    const mine = ++seq;
    const body = JSON.stringify(rowObject());
    const opts = () => ({ method: "POST", headers: { "Content-Type": "application/json" }, body: body });
    try {
      const r1 = await api("/api/row", opts());
      if (mine !== seq) return;
      if (!r1.ok) { setStatus("row-status", await failure(r1), true); return; }
      const out = await r1.json();
      if (mine !== seq) return;
      setStatus("row-status", out.status + (out.message ? ": " + out.message : ""), out.status === "error");
      showOutputs(out);
      // A row in error has no curve: the message says why.
      let curve = null;
      if (out.status !== "error") {
        const r2 = await api("/api/curve", opts());
        if (mine !== seq) return;
        if (r2.ok) curve = await r2.json();
      }
      if (mine === seq) drawCurve(curve);
      if (mine === seq) sweep(out);
    } catch (e) {
      if (mine === seq) setStatus("row-status", "The request failed: " + e.message, true);
    }
  }
  function showOutputs(out) {
    const t = $("outputs");
    t.textContent = "";
    const head = el("tr");
    for (const h of ["column", "value", "meaning", "paper"]) head.appendChild(el("th", {}, h));
    t.appendChild(el("thead")).appendChild(head);
    const body = el("tbody");
    for (const k in out) {
      if (k === "status" || k === "message" || out[k] === null) continue;
      const c = byName[k] || {};
      const tr = el("tr", { "data-column": k });
      tr.appendChild(el("td", { title: (c.formula || "") + (c.paper ? "\n" + c.paper : "") }, k));
      tr.appendChild(el("td", { class: typeof out[k] === "number" ? "num" : "" }, typeof out[k] === "number" ? formatNumber(out[k]) : out[k]));
      tr.appendChild(el("td", {}, c.meaning || ""));
      tr.appendChild(el("td", { class: "paper" })).appendChild(paperLink(c));
      body.appendChild(tr);
    }
    t.appendChild(body);
  }
  function drawCurve(curve) {
    const svg = $("curve");
    svg.textContent = "";
    const x0 = 50, y0 = 290, w = 290, h = 270;
    const X = (a) => x0 + a * w, Y = (b) => y0 - b * h;
    svg.appendChild(svgEl("rect", { x: x0, y: y0 - h, width: w, height: h, fill: "#fff", stroke: "#9aa5b4" }));
    for (const v of [0, 0.25, 0.5, 0.75, 1]) {
      const tx = svgEl("text", { x: X(v), y: y0 + 16, "text-anchor": "middle", "font-size": 11, fill: "#5b6675" });
      tx.textContent = String(v);
      svg.appendChild(tx);
      const ty = svgEl("text", { x: x0 - 6, y: Y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#5b6675" });
      ty.textContent = String(v);
      svg.appendChild(ty);
    }
    const lx = svgEl("text", { x: x0 + w / 2, y: y0 + 34, "text-anchor": "middle", "font-size": 12, fill: "#1d2430" });
    lx.textContent = "α (type-I error, the baseline)";
    svg.appendChild(lx);
    const ly = svgEl("text", { x: 14, y: y0 - h / 2, "text-anchor": "middle", "font-size": 12, fill: "#1d2430", transform: "rotate(-90 14 " + (y0 - h / 2) + ")" });
    ly.textContent = "f(α)";
    svg.appendChild(ly);
    svg.appendChild(svgEl("line", { x1: X(0), y1: Y(1), x2: X(1), y2: Y(0), stroke: "#9aa5b4", "stroke-dasharray": "4 3" }));
    if (!curve) return;
    const pts = curve.alpha.map((a, i) => X(a).toFixed(2) + "," + Y(curve.f[i]).toFixed(2)).join(" ");
    svg.appendChild(svgEl("polyline", { points: pts, fill: "none", stroke: "#1f5fa8", "stroke-width": 2, id: "curve-line" }));
    if (curve.baseline !== null) {
      const i = curve.alpha.indexOf(curve.baseline);
      const fb = curve.f[i];
      svg.appendChild(svgEl("line", { x1: X(curve.baseline), y1: Y(0), x2: X(curve.baseline), y2: Y(1), stroke: "#c2410c", "stroke-dasharray": "2 2" }));
      svg.appendChild(svgEl("circle", { cx: X(curve.baseline), cy: Y(fb), r: 4, fill: "#c2410c" }));
      const t = svgEl("text", { x: X(curve.baseline) + 6, y: Y(1) + 14, "font-size": 12, fill: "#c2410c", id: "curve-label" });
      t.textContent = "baseline " + formatNumber(curve.baseline) + ": success ≤ " + formatNumber(1 - fb);
      svg.appendChild(t);
    }
  }
  // sweep draws the table's first bound as the mechanism's first
  // parameter the row fills varies (/api/sweep); a newer keystroke
  // aborts the request of the older one.
  let sweepAbort = null;
  async function sweep(out) {
    if (sweepAbort) sweepAbort.abort();
    const svg = $("sweep");
    const m = mechanisms.find((x) => x.name === $("mechanism").value);
    const row = rowObject();
    const input = m ? m.inputs.find((n) => row[n] !== undefined && Number(row[n]) > 0) : undefined;
    const column = Object.keys(out).find((k) => k !== "status" && k !== "message" && typeof out[k] === "number");
    if (!input || !column || out.status === "error") { svg.textContent = ""; return; }
    sweepAbort = new AbortController();
    const mine = seq;
    try {
      const resp = await api("/api/sweep?input=" + encodeURIComponent(input) + "&column=" + encodeURIComponent(column),
        { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(row), signal: sweepAbort.signal });
      if (mine !== seq || !resp.ok) return;
      drawSweep(await resp.json());
    } catch (e) {
      if (e.name !== "AbortError") setStatus("row-status", "The request failed: " + e.message, true);
    }
  }
  function drawSweep(d) {
    const svg = $("sweep");
    svg.textContent = "";
    const x0 = 50, y0 = 290, w = 290, h = 270;
    const ys = d.y.filter((v) => v !== null);
    if (!ys.length) return;
    const lx0 = Math.log(d.x[0]), lx1 = Math.log(d.x[d.x.length - 1]);
    let top = Math.max(...ys);
    top = top <= 1 ? Math.min(1, Math.max(top * 1.1, 1e-12)) : top * 1.1;
    const X = (v) => x0 + (lx1 > lx0 ? (Math.log(v) - lx0) / (lx1 - lx0) : 0.5) * w, Y = (v) => y0 - (v / top) * h;
    svg.appendChild(svgEl("rect", { x: x0, y: y0 - h, width: w, height: h, fill: "#fff", stroke: "#9aa5b4" }));
    for (const v of [d.x[0], d.value, d.x[d.x.length - 1]]) {
      const tx = svgEl("text", { x: X(v), y: y0 + 16, "text-anchor": "middle", "font-size": 11, fill: "#5b6675" });
      tx.textContent = formatNumber(v);
      svg.appendChild(tx);
    }
    for (const f of [0, 0.5, 1]) {
      const ty = svgEl("text", { x: x0 - 6, y: Y(f * top) + 4, "text-anchor": "end", "font-size": 11, fill: "#5b6675" });
      ty.textContent = formatNumber(f * top);
      svg.appendChild(ty);
    }
    const lx = svgEl("text", { x: x0 + w / 2, y: y0 + 34, "text-anchor": "middle", "font-size": 12, fill: "#1d2430" });
    lx.textContent = d.input + " (log scale)";
    svg.appendChild(lx);
    const ly = svgEl("text", { x: 14, y: y0 - h / 2, "text-anchor": "middle", "font-size": 12, fill: "#1d2430", transform: "rotate(-90 14 " + (y0 - h / 2) + ")" });
    ly.textContent = d.column;
    svg.appendChild(ly);
    const pts = [];
    d.x.forEach((v, i) => { if (d.y[i] !== null) pts.push(X(v).toFixed(2) + "," + Y(d.y[i]).toFixed(2)); });
    svg.appendChild(svgEl("polyline", { points: pts.join(" "), fill: "none", stroke: "#1f5fa8", "stroke-width": 2, id: "sweep-line" }));
    const i = d.x.indexOf(d.value);
    if (i >= 0 && d.y[i] !== null) {
      svg.appendChild(svgEl("line", { x1: X(d.value), y1: Y(0), x2: X(d.value), y2: Y(top), stroke: "#c2410c", "stroke-dasharray": "2 2" }));
      svg.appendChild(svgEl("circle", { cx: X(d.value), cy: Y(d.y[i]), r: 4, fill: "#c2410c" }));
      const t = svgEl("text", { x: x0 + 6, y: y0 - h + 14, "font-size": 12, fill: "#c2410c" });
      t.textContent = d.input + " " + formatNumber(d.value) + ": " + d.column + " " + formatNumber(d.y[i]);
      svg.appendChild(t);
    }
    $("sweep-help").textContent = d.column + " as " + d.input + " goes from a quarter to four times your value (the dot).";
  }
  Promise.all([ready, api("/api/mechanisms").then((r) => r.json())]).then(([, ms]) => {
    mechanisms = ms;
    const sel = $("mechanism");
    for (const m of ms) sel.appendChild(el("option", { value: m.name }, m.name));
    sel.value = "gaussian";
    sel.addEventListener("change", () => showMechanism(["baseline"]));
    $("mechanism-help").textContent = (byName.mechanism || {}).meaning || "";
    const add = $("add-field");
    for (const c of registry) {
      if (c.kind === "input" && c.name !== "mechanism") add.appendChild(el("option", { value: c.name }, c.name));
    }
    add.addEventListener("change", () => { if (add.value) { addField(add.value); add.value = ""; } });
    showMechanism(["baseline"]);
    const sigma = fields.querySelector('[name="sigma"]');
    if (sigma) sigma.value = "1";
    const base = fields.querySelector('[name="baseline"]');
    if (base) base.value = "0.01";
    recompute();
  });

  // ---- Column reference ----
  function renderColumns() {
    const q = $("search").value.trim().toLowerCase();
    const t = $("column-table");
    t.textContent = "";
    const head = el("tr");
    for (const h of ["column", "kind", "meaning", "formula", "paper", "applies to"]) head.appendChild(el("th", {}, h));
    t.appendChild(el("thead")).appendChild(head);
    const body = el("tbody");
    let n = 0;
    for (const c of registry) {
      const text = [c.name, (c.aliases || []).join(" "), c.kind, c.meaning, c.formula, c.paper, c.applies].join(" ").toLowerCase();
      if (q && !text.includes(q)) continue;
      n++;
      const tr = el("tr", { id: "col-" + c.name });
      tr.appendChild(el("td", {}, c.name + (c.aliases && c.aliases.length ? " (also " + c.aliases.join(", ") + ")" : "")));
      for (const v of [c.kind, c.meaning, c.formula]) tr.appendChild(el("td", {}, v || ""));
      // The paper: a link to its entry and the theorem or equation, then
      // the whole citation (other works included).
      const paper = el("td", { class: "paper" });
      if (c.paper_id) {
        paper.appendChild(paperLink(c));
        paper.appendChild(el("div", { class: "help" }, c.paper));
      } else paper.textContent = c.paper || "";
      tr.appendChild(paper);
      tr.appendChild(el("td", {}, c.applies || ""));
      body.appendChild(tr);
    }
    t.appendChild(body);
    $("column-count").textContent = n + " of " + registry.length + " columns";
  }
  $("search").addEventListener("input", renderColumns);

  // ---- Template ----
  $("template").addEventListener("click", async () => {
    const resp = await api("/api/template");
    if (!resp.ok) { alert(await failure(resp)); return; }
    saveBlob(await resp.blob(), filename(resp, "releases.xlsx"));
  });
})();
