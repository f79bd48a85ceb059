// pnp studio: the page's own small script. It only talks to the JSON API under the page
// (pnp/studio/app.py); every figure and file it shows is what the command line makes.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
const el = (tag, attrs = {}, ...kids) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "style") node.style.cssText = v; // CSSOM: the page's CSP allows no style attribute
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined) node.append(kid);
  return node;
};
const human = (key) => key.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
const PREVIEW = ["pdf", "svg"]; // what the page shows; the zip is the whole kit
const fmt = (x, digits = 3) => (typeof x === "number" ? x.toFixed(digits) : String(x));

const S = {
  games: {},      // slug -> the game's entry of GET /api/games
  game: null,     // the slug being edited
  schema: null,   // GET /api/games/{game}/params
  paper: "a4",
  timer: null,    // the debounce before a rebuild
  buildJob: null, // the job whose pictures the page shows or waits for
  runJob: null,
  solveJob: null,
  tuneJob: null,
  generation: 0,  // each edit starts a new generation; late answers of old ones are dropped
  edited: false,  // the next address is a step of its own (Back undoes it)
  presets: null,  // laser presets loaded from a file: {name, text}; sent as text, never a path
  routing: Promise.resolve(), // one address change at a time
};

async function api(method, url, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["content-type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(url, opts);
  const type = res.headers.get("content-type") || "";
  const data = type.includes("json") ? await res.json() : await res.text();
  if (res.status === 401) showPageError(data.error); // no key: nothing on the page can work
  if (!res.ok) {
    const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    err.data = data;
    throw err;
  }
  return data;
}

async function poll(jobId, onProgress, isCurrent = () => true) {
  for (;;) {
    const job = await api("GET", `/api/jobs/${jobId}`);
    if (!isCurrent()) return null;
    if (onProgress) onProgress(job);
    if (["done", "failed", "cancelled"].includes(job.state)) return job;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const fileUrl = (job, name) => `/api/jobs/${job.id}/files/${name.split("/").map(encodeURIComponent).join("/")}`;

// --- routing: the page's address holds the game and every changed parameter ------------

function readAddress() {
  // "#/exploding-dice?die_size=16&paper=letter": a reload, a shared link or Back shows this
  const hash = location.hash.replace(/^#\/?/, "");
  const cut = hash.indexOf("?");
  return {
    slug: decodeURIComponent(cut < 0 ? hash : hash.slice(0, cut)),
    query: new URLSearchParams(cut < 0 ? "" : hash.slice(cut + 1)),
  };
}

function address() {
  // each changed field as the text its box shows, in the form's order
  const changed = formValues();
  const query = new URLSearchParams();
  for (const f of S.schema.fields) if (f.key in changed) query.set(f.key, fieldText(f));
  const q = query.toString();
  return `#/${encodeURIComponent(S.game)}${q ? `?${q}` : ""}`;
}

function keepAddress() {
  // an edit is a step of the history; a restored or opened state only tidies the address
  const want = address();
  if (want !== location.hash) {
    if (S.edited) history.pushState(null, "", want);
    else history.replaceState(null, "", want);
  }
  S.edited = false;
}

function applyAddress(query) {
  // every field as the address says (a field it does not name: its default); true if any changed
  let changed = false;
  for (const f of S.schema.fields) {
    if (query.has(f.key)) {
      if (fieldText(f) === query.get(f.key)) continue;
      setFieldText(f, query.get(f.key));
    } else {
      if (JSON.stringify(readField(f)) === JSON.stringify(f.default)) continue;
      setField(f, f.default);
    }
    changed = true;
  }
  const paper = S.schema.fields.find((f) => f.key === "paper");
  setPaper(paper ? String(readField(paper)) : "a4");
  return changed;
}

function route() {
  S.routing = S.routing.then(showAddress, showAddress);
  return S.routing;
}

async function showAddress() {
  const { slug, query } = readAddress();
  $$("#game-tabs a").forEach((a) => a.classList.toggle("active", a.dataset.game === slug));
  if (!slug || !S.games[slug]) {
    $("#home").hidden = false;
    $("#studio").hidden = true;
    document.title = "pnp studio";
    return;
  }
  $("#home").hidden = true;
  $("#studio").hidden = false;
  if (S.game !== slug) await openGame(slug, query);
  else if (applyAddress(query)) scheduleUpdate(0);
}

async function openGame(slug, query) {
  S.game = slug;
  S.generation++;
  S.presets = null;
  const info = S.games[slug];
  document.title = `${info.title} · pnp studio`;
  $("#game-title").textContent = info.title;
  S.schema = await api("GET", `/api/games/${slug}/params`);
  renderForm(S.schema);
  applyAddress(query);
  renderPlayForm(info);
  clearKit();
  $("#run-result").replaceChildren();
  $("#solve-result").replaceChildren();
  $("#tune-result").replaceChildren();
  renderTuneForm(info);
  $("#play-tab").hidden = !info.simulate;
  $("#tune-tab").hidden = !info.simulate;
  $("#solve-tab").hidden = !info.solver;
  showTab("kit");
  scheduleUpdate(0);
}

function showTab(name) {
  $$(".tabs button").forEach((b) => b.classList.toggle("active", b.dataset.tab === name));
  $$(".panel").forEach((p) => (p.hidden = p.dataset.panel !== name));
}

// --- the parameter form --------------------------------------------------------------

function renderForm(schema) {
  const form = $("#params-form");
  form.replaceChildren();
  const groups = { game: "Game", print: "Print and cut" };
  for (const [group, title] of Object.entries(groups)) {
    const set = el("fieldset", {}, el("legend", { text: title }));
    for (const f of schema.fields.filter((x) => x.group === group)) set.append(fieldRow(f));
    form.append(set);
  }
  for (const f of schema.fields) setField(f, f.default);
  const variants = $("#variant");
  variants.replaceChildren(el("option", { value: "", text: "Variants…" }));
  for (const name of Object.keys(schema.variants)) variants.append(el("option", { value: name, text: name }));
  variants.hidden = !Object.keys(schema.variants).length;
}

function fieldRow(f) {
  const id = `f-${f.key}`;
  const row = el("div", { class: "field", "data-key": f.key });
  const label = el("label", { class: "name", for: id }, el("span", { text: human(f.key) }), el("span", { class: "key", text: f.key }));
  const line = el("div", { class: "row" });
  let input;
  if (f.type === "boolean") {
    input = el("input", { type: "checkbox", id });
  } else if (f.type === "choice") {
    input = el("select", { id }, f.choices.map((c) => el("option", { value: String(c), text: String(c) })));
  } else if (f.type === "number" || f.type === "integer") {
    input = el("input", { type: "number", id, min: f.min, max: f.max, step: f.step || "any", inputmode: "decimal" });
  } else if (f.type === "table" || (f.type === "list" && f.item === "list")) {
    input = el("textarea", { id, spellcheck: "false", rows: 3 });
  } else {
    input = el("input", { type: "text", id, spellcheck: "false" });
  }
  input.name = f.key;
  line.append(input);
  if (f.key === "laser_presets") {
    line.classList.add("file");
    line.append(...presetsButtons(f, input));
  }
  const grid = f.type === "list" && f.item === "list" ? gridEditor(input) : null;
  if (f.unit) line.append(el("span", { class: "unit", text: f.unit }));
  line.append(el("span", { class: "spacer" }), el("span", { class: "default", text: `default ${f.default_text}` }));
  row.append(label, line);
  if (grid) row.append(grid.box);
  if (f.type === "colours") row.append(el("div", { class: "colours" }));
  const hint = [rangeText(f), f.help].filter(Boolean).join(" · ");
  if (hint) row.append(el("div", { class: "help", text: hint }));
  row.append(el("div", { class: "error", role: "alert", hidden: true }));
  row.append(el("div", { class: "finding", hidden: true }));
  const onEdit = () => {
    if (f.type === "colours") drawSwatches(row, readField(f));
    row.classList.toggle("changed", JSON.stringify(readField(f)) !== JSON.stringify(f.default));
    if (f.key === "paper") setPaper(String(readField(f)));
    if (f.key === "laser_presets") S.presets = null; // a typed path is the field's, not a file's
    S.edited = true;
    scheduleUpdate();
  };
  input.addEventListener(input.tagName === "SELECT" || input.type === "checkbox" ? "change" : "input", onEdit);
  input.redraw = grid ? grid.render : null;
  return row;
}

function presetsButtons(f, input) {
  // laser presets come from a file the designer picks: its text goes to the studio, which
  // reads no path a page sends; the box shows the file's name
  input.readOnly = true;
  input.placeholder = "built in";
  const file = el("input", { type: "file", accept: ".toml,text/plain", hidden: true });
  file.addEventListener("change", async () => {
    const chosen = file.files[0];
    file.value = "";
    if (!chosen) return;
    S.presets = { name: chosen.name, text: await chosen.text() };
    input.value = chosen.name;
    refreshRow(f);
    S.edited = true;
    scheduleUpdate(0);
  });
  const clear = () => {
    S.presets = null;
    setField(f, f.default);
    S.edited = true;
    scheduleUpdate(0);
  };
  return [
    el("label", { class: "ghost button small", title: "Load a TOML file of your laser presets" }, "Load…", file),
    el("button", { type: "button", class: "ghost small", title: "Back to the built-in presets", text: "×", onclick: clear }),
  ];
}

function gridEditor(textarea) {
  // a table of whole numbers (a die per row, a face per column) edited cell by cell; the
  // JSON text behind it is the value, shown instead when it is not a list of lists
  const box = el("div", { class: "grid-edit" });
  const commit = (rows, redraw) => {
    textarea.value = JSON.stringify(rows);
    textarea.dispatchEvent(new Event("input"));
    if (redraw) render();
  };
  function render() {
    let rows;
    try {
      rows = JSON.parse(textarea.value || "[]");
    } catch {
      rows = null;
    }
    box.replaceChildren();
    const ok = Array.isArray(rows) && rows.every((r) => Array.isArray(r) && r.every((v) => typeof v === "number"));
    textarea.hidden = ok;
    if (!ok) return;
    const table = el("table", {});
    rows.forEach((cells, r) => {
      const tr = el("tr", {}, el("th", { text: `${r + 1}` }));
      cells.forEach((v, c) => {
        const cell = el("input", { type: "number", step: 1, value: v, "aria-label": `row ${r + 1}, column ${c + 1}` });
        cell.addEventListener("input", () => {
          rows[r][c] = cell.value !== "" && Number.isFinite(Number(cell.value)) ? Number(cell.value) : cell.value;
          commit(rows, false);
        });
        tr.append(el("td", {}, cell));
      });
      tr.append(el("td", {}, el("button", { type: "button", class: "ghost small", title: "Remove this row", text: "×",
        onclick: () => { rows.splice(r, 1); commit(rows, true); } })));
      table.append(tr);
    });
    box.append(table, el("button", { type: "button", class: "ghost small", text: "+ row",
      onclick: () => { rows.push(rows.length ? [...rows[rows.length - 1]] : [0]); commit(rows, true); } }));
  }
  return { box, render };
}

function rangeText(f) {
  if (f.min === undefined && f.max === undefined) return "";
  const lo = f.min === undefined ? "" : f.min_exclusive ? `above ${f.min}` : `from ${f.min}`;
  const hi = f.max === undefined ? "" : `${lo ? " to" : "at most"} ${f.max}`;
  return `${lo}${hi}`.trim();
}

function drawSwatches(row, names) {
  const box = $(".colours", row);
  if (!box) return;
  box.replaceChildren();
  for (const name of Array.isArray(names) ? names : []) {
    const ink = S.schema.colours[name];
    if (!ink) {
      box.append(el("span", { class: "swatch unknown", text: `${name}?` }));
      continue;
    }
    const dark = ["#D55E00", "#009E73", "#0072B2", "#000000", "#8C564B"].includes(ink.hex);
    const dot = el("i", { style: `background:${ink.hex};color:${dark ? "#fff" : "#000"}`, title: ink.symbol, text: ink.char });
    box.append(el("span", { class: "swatch" }, dot, name));
  }
}

const inputOf = (key) => document.getElementById(`f-${key}`);

function setField(f, value) {
  const input = inputOf(f.key);
  if (!input) return;
  if (f.type === "boolean") input.checked = !!value;
  else if (f.type === "table" || (f.type === "list" && f.item === "list")) input.value = JSON.stringify(value);
  else if (f.type === "list" || f.type === "colours") input.value = (value || []).join(", ");
  else input.value = value === null || value === undefined ? "" : String(value);
  if (f.key === "laser_presets") S.presets = null;
  refreshRow(f);
}

function fieldText(f) {
  // the field as its box shows it: what the page's address keeps
  const input = inputOf(f.key);
  return f.type === "boolean" ? String(input.checked) : input.value;
}

function setFieldText(f, text) {
  const input = inputOf(f.key);
  if (f.type === "boolean") input.checked = text === "true";
  else input.value = text;
  if (f.key === "laser_presets") S.presets = null;
  refreshRow(f);
}

function refreshRow(f) {
  const input = inputOf(f.key);
  const row = input.closest(".field");
  const value = readField(f);
  row.classList.toggle("changed", JSON.stringify(value) !== JSON.stringify(f.default));
  if (input.redraw) input.redraw();
  if (f.type === "colours") drawSwatches(row, value);
}

function readField(f) {
  const input = inputOf(f.key);
  const text = input.value.trim();
  if (f.type === "boolean") return input.checked;
  if (f.type === "number" || f.type === "integer") {
    if (text === "") return null;
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  if (f.type === "table" || (f.type === "list" && f.item === "list")) {
    try {
      return JSON.parse(text || (f.type === "table" ? "{}" : "[]"));
    } catch {
      return text; // the server says what is wrong with it, beside the field
    }
  }
  if (f.type === "list" || f.type === "colours") {
    const words = text ? text.split(",").map((w) => w.trim()) : [];
    return f.item === "number" || f.item === "integer" ? words.map((w) => (w !== "" && Number.isFinite(Number(w)) ? Number(w) : w)) : words;
  }
  return input.value;
}

function formValues() {
  const out = {};
  for (const f of S.schema.fields) {
    if (f.key === "laser_presets" && S.presets) continue; // sent as text: presetsBody()
    const v = readField(f);
    if (v === null) continue; // an empty number box: its default
    if (JSON.stringify(v) !== JSON.stringify(f.default)) out[f.key] = v;
  }
  return out;
}

function loadValues(values) {
  for (const f of S.schema.fields) setField(f, f.key in values ? values[f.key] : f.default);
  setPaper(String(values.paper || "a4"));
  S.edited = true;
  scheduleUpdate(0);
}

const presetsBody = () => (S.presets ? { laser_presets_toml: S.presets.text } : {});

function setPaper(paper) {
  // the paper buttons and the form's `paper` field are one setting
  S.paper = paper === "letter" ? "letter" : "a4";
  $$("#paper-seg button").forEach((x) => x.classList.toggle("on", x.dataset.paper === S.paper));
  const f = S.schema && S.schema.fields.find((x) => x.key === "paper");
  if (f && readField(f) !== S.paper) setField(f, S.paper);
}

function showFieldErrors(fields) {
  $$(".field").forEach((row) => {
    const msg = fields[row.dataset.key];
    row.classList.toggle("bad", !!msg);
    const box = $(".error", row);
    box.hidden = !msg;
    box.textContent = msg || "";
  });
}

// --- checks and the kit ----------------------------------------------------------------

function scheduleUpdate(delay = 450) {
  clearTimeout(S.timer);
  S.timer = setTimeout(update, delay);
}

async function update() {
  // one build job gives the checks and the previews (pages, parts, cut sheets): the page
  // asks for PDF and SVG only; the zip button asks for the whole kit
  const gen = ++S.generation;
  const current = () => gen === S.generation;
  keepAddress();
  const params = formValues();
  const paper = S.paper;
  const status = $("#build-status");
  $("#form-error").hidden = true;
  status.className = "status busy";
  status.textContent = "checking and building…";
  checksBusy(params, paper);
  $("#zip-link").classList.add("disabled");
  if (S.buildJob && !["done", "failed", "cancelled"].includes(S.buildJob.state)) {
    api("DELETE", `/api/jobs/${S.buildJob.id}`).catch(() => {});
  }
  let job;
  try {
    ({ job } = await api("POST", `/api/games/${S.game}/build`, { params, paper, formats: PREVIEW, ...presetsBody() }));
  } catch (err) {
    if (!current()) return;
    if (err.status === 422) {
      showFieldErrors(err.data.fields || {});
      checksNotMade(params, paper, err.message);
      if (!err.data.field) showFormError(err.message);
      status.className = "status bad";
      status.textContent = "not built: fix the value marked in the form";
      $("#pages").classList.add("stale");
      $("#parts").classList.add("stale");
      return;
    }
    throw err;
  }
  showFieldErrors({});
  S.buildJob = { id: job, state: "queued" };
  const done = await poll(job, (j) => {
    S.buildJob = j;
    if (j.state === "running") status.textContent = `building… ${j.progress.message || ""}`;
  }, current);
  if (!done || !current()) return;
  const checked = done.result && done.result.checks;
  if (checked) renderChecks(checked, params, paper);
  else checksNotMade(params, paper, done.state === "failed" ? done.error : "the build was cancelled");
  if (done.state !== "done") {
    status.className = "status bad";
    status.textContent = done.state === "failed" ? (checked ? `${done.error}: see Checks` : done.error) : "build cancelled";
    $("#pages").classList.add("stale");
    $("#parts").classList.add("stale");
    return;
  }
  status.className = "status";
  status.textContent = `checked and built in ${done.seconds.toFixed(1)} s`;
  renderKit(done);
}

async function downloadZip(ev) {
  // the whole kit, every format, exactly as `pnp build` writes it
  ev.preventDefault();
  const zip = $("#zip-link");
  if (zip.classList.contains("disabled")) return;
  const label = zip.textContent;
  zip.classList.add("disabled");
  zip.textContent = "Preparing the zip…";
  try {
    // ticked: every default format and the print jobs as PDFs of their own (`pnp build --split-by-stock`)
    const split = $("#split-jobs").checked ? { formats: ["pdf", "svg", "png", "dxf", "lbrn2", "jobs"] } : {};
    const { job } = await api("POST", `/api/games/${S.game}/build`, { params: formValues(), paper: S.paper, ...presetsBody(), ...split });
    const done = await poll(job);
    if (done.state !== "done") throw new Error(done.error || done.state);
    el("a", { href: `/api/jobs/${job}/kit.zip`, download: `${S.game}-${S.paper}.zip` }).click();
  } catch (e) {
    showFormError(`The kit could not be zipped: ${e.message}`);
  } finally {
    zip.textContent = label;
    zip.classList.remove("disabled");
  }
}

function showFormError(message) {
  const box = $("#form-error");
  box.textContent = message;
  box.hidden = false;
}

function clearKit() {
  $("#pages").replaceChildren(el("p", { class: "empty", text: "The kit's pages appear here once it is built." }));
  $("#parts").replaceChildren();
  $("#cuts").replaceChildren();
  $("#downloads").replaceChildren();
  $("#checks").replaceChildren();
  $("#check-badge").className = "badge";
  $("#check-badge").textContent = "";
}

function renderKit(job) {
  const r = job.result;
  const pages = $("#pages");
  pages.classList.remove("stale");
  $("#parts").classList.remove("stale");
  pages.replaceChildren();
  for (const [pdf, pics] of Object.entries(r.pages)) {
    const name = pdf.split("/").pop();
    pics.forEach((pic, i) => {
      pages.append(el("figure", {},
        el("a", { href: fileUrl(job, pdf) + `#page=${i + 1}`, target: "_blank" }, el("img", { src: fileUrl(job, pic), alt: `${name} page ${i + 1}`, loading: "lazy" })),
        el("figcaption", {}, el("span", { text: name }), el("span", { text: `page ${i + 1} of ${pics.length}` }))));
    });
  }
  const parts = $("#parts");
  const cuts = $("#cuts");
  parts.replaceChildren();
  cuts.replaceChildren();
  for (const file of r.files) {
    const m = file.match(/\/(svg|cut)\/([^/]+)\.svg$/);
    if (!m) continue;
    const box = m[1] === "svg" ? parts : cuts;
    box.append(el("figure", {},
      el("a", { href: fileUrl(job, file), target: "_blank" }, el("img", { src: fileUrl(job, file), alt: m[2], loading: "lazy" })),
      el("figcaption", {}, el("span", { text: m[2] }))));
  }
  $("#cut-head").hidden = !cuts.children.length;
  const downloads = $("#downloads");
  downloads.replaceChildren();
  for (const file of r.files.filter((f) => f.endsWith(".pdf"))) {
    downloads.append(el("a", { class: "button", href: fileUrl(job, file), download: file.split("/").pop(), text: `⤓ ${file.split("/").pop()}` }));
  }
  const zip = $("#zip-link");
  zip.href = "#";
  zip.classList.remove("disabled");
  zip.removeAttribute("aria-disabled");
}

// --- the Checks tab: findings belong to the values they were made for -------------------

function valuesText(params, paper) {
  // "die_size = 30, arrows = "pinwheel" on A4": the values a set of findings belongs to
  const changed = Object.entries(params).map(([k, v]) => `${k} = ${JSON.stringify(v)}`);
  return `${changed.length ? changed.join(", ") : "the default parameters"} on ${paper === "letter" ? "Letter" : "A4"}`;
}

function checksHeader(text, busy) {
  return el("p", { class: busy ? "checks-for busy" : "checks-for", id: "checks-for", text });
}

function checksBusy(params, paper) {
  // while new values are checked, the old findings stay visible but faded and say so
  const box = $("#checks");
  box.classList.add("stale");
  $$(".not-checked, #checks-for", box).forEach((node) => node.remove());
  const before = box.children.length ? " The findings below are for the values before." : "";
  box.prepend(checksHeader(`Checking ${valuesText(params, paper)}…${before}`, true));
  const badge = $("#check-badge");
  badge.className = "badge busy";
  badge.textContent = "…";
  $$(".field .finding").forEach((f) => f.classList.add("stale"));
}

function checksNotMade(params, paper, why) {
  // no findings for values the build refused: none of the old ones stays anywhere
  const box = $("#checks");
  box.classList.remove("stale");
  const reason = el("p", { class: "not-checked", text: why });
  box.replaceChildren(checksHeader(`Not checked: ${valuesText(params, paper)}.`, false), reason);
  const badge = $("#check-badge");
  badge.className = "badge errors";
  badge.textContent = "!";
  $$(".field .finding").forEach((f) => {
    f.hidden = true;
    f.textContent = "";
    f.className = "finding";
  });
}

function renderChecks(checks, params, paper) {
  const box = $("#checks");
  box.classList.remove("stale");
  box.replaceChildren(checksHeader(`Found for ${valuesText(params, paper)}.`, false));
  const all = [
    ...checks.errors.map((f) => ({ ...f, level: "error" })),
    ...checks.warnings.map((f) => ({ ...f, level: "warning" })),
    ...checks.infos.map((f) => ({ ...f, level: "info" })),
  ];
  const badge = $("#check-badge");
  if (checks.errors.length) {
    badge.className = "badge errors";
    badge.textContent = checks.errors.length;
  } else if (checks.warnings.length) {
    badge.className = "badge warnings";
    badge.textContent = checks.warnings.length;
  } else {
    badge.className = "badge ok";
    badge.textContent = "✓";
  }
  if (!checks.errors.length && !checks.warnings.length) {
    box.append(el("p", { class: "all-clear", text: "No errors and no warnings: the kit can be printed." }));
  }
  const byComponent = new Map();
  for (const f of all) {
    if (!byComponent.has(f.component)) byComponent.set(f.component, []);
    byComponent.get(f.component).push(f);
  }
  for (const [component, findings] of byComponent) {
    box.append(el("div", { class: "check-group" }, el("h4", { text: component }),
      findings.map((f) => el("div", { class: "finding-line" }, el("span", { class: `level ${f.level}`, text: f.level }), el("span", { text: f.message })))));
  }
  // a finding that names a parameter also shows beside that field
  $$(".field").forEach((row) => {
    const key = row.dataset.key;
    const hit = all.find((f) => f.level !== "info" && new RegExp(`\\b${key}\\b`).test(f.message));
    const box2 = $(".finding", row);
    box2.hidden = !hit;
    box2.className = hit ? `finding ${hit.level}` : "finding";
    box2.textContent = hit ? `${hit.component}: ${hit.message}` : "";
  });
}

// --- play ------------------------------------------------------------------------------

function renderPlayForm(info) {
  if (!info.simulate) return;
  const players = $("#players");
  const solvePlayers = $("#solve-players");
  players.replaceChildren();
  solvePlayers.replaceChildren();
  for (let n = info.players.min; n <= info.players.max; n++) {
    players.append(el("option", { value: n, text: n, selected: n === info.players.default }));
    solvePlayers.append(el("option", { value: n, text: n, selected: n === info.players.default }));
  }
  $("#bot").replaceChildren(...info.bots.map((b) => el("option", { value: b, text: b })));
  $("#budget-field").hidden = true;
  const opts = $("#game-options");
  opts.replaceChildren();
  for (const o of info.options) {
    if (o.type === "boolean") {
      opts.append(el("label", { class: "check", title: o.help }, el("input", { type: "checkbox", name: `opt:${o.name}` }), o.flag));
    } else {
      opts.append(el("label", { title: o.help }, o.flag, el("select", { name: `opt:${o.name}` }, o.choices.map((c) => el("option", { value: c, text: c, selected: c === o.default })))));
    }
  }
  const sweep = $("#sweep-key");
  sweep.replaceChildren(el("option", { value: "", text: "(none)" }));
  for (const f of S.schema.fields) {
    // only keys the rules read: a print size or margin would play the same games each time
    if (f.sweep) sweep.append(el("option", { value: f.key, text: f.key }));
  }
}

async function runSimulation(ev) {
  ev.preventDefault();
  const form = new FormData($("#play-form"));
  const options = {};
  for (const o of S.games[S.game].options) {
    const v = form.get(`opt:${o.name}`);
    options[o.name] = o.type === "boolean" ? v === "on" : v;
  }
  const body = {
    params: formValues(),
    games: Number(form.get("games")),
    players: Number(form.get("players")),
    bot: form.get("bot"),
    seed: Number(form.get("seed")),
    options,
  };
  if (body.bot === "mcts" && form.get("bot_budget")) body.bot_budget = Number(form.get("bot_budget"));
  if (form.get("ladder") === "on") body.ladder = true; // every seat random, greedy, mcts
  const key = form.get("sweep_key");
  if (key) {
    const words = String(form.get("sweep_values") || "").split(",").map((w) => w.trim()).filter(Boolean);
    body.sweep = { key, values: words };
  }
  const err = $("#play-error");
  err.hidden = true;
  let job;
  try {
    ({ job } = await api("POST", `/api/games/${S.game}/simulate`, body));
  } catch (e) {
    err.textContent = e.message;
    err.hidden = false;
    return;
  }
  S.runJob = job;
  $("#run-result").replaceChildren();
  $("#run-progress").hidden = false;
  $("#cancel-run").hidden = false;
  $("#run").disabled = true;
  const done = await poll(job, (j) => {
    const p = j.progress;
    const share = p.total ? p.done / p.total : 0;
    $("#run-fill").style.width = `${(100 * share).toFixed(1)}%`;
    const rate = j.rate ? `, ${Math.round(j.rate).toLocaleString()} games/s` : "";
    $("#run-text").textContent = j.state === "queued" ? "waiting for a free slot…" : `${p.done.toLocaleString()} of ${(p.total || body.games).toLocaleString()} games${rate}`;
  });
  $("#cancel-run").hidden = true;
  $("#run").disabled = false;
  if (done.state === "cancelled") {
    $("#run-text").textContent = "cancelled";
    return;
  }
  if (done.state === "failed") {
    $("#run-progress").hidden = true;
    err.textContent = done.error;
    err.hidden = false;
    return;
  }
  $("#run-progress").hidden = true;
  renderRun(done);
}

function renderRun(job) {
  const r = job.result;
  const box = $("#run-result");
  box.replaceChildren();
  for (const w of r.warnings) box.append(el("p", { class: "warning-line", text: `warning: ${w}` }));
  const kind = r.json.ladder ? "ladder-table" : r.json.sweep ? "sweep-table" : "summary-table";
  box.append(resultTable(r.table, kind));
  box.append(el("iframe", { class: "report-frame", src: fileUrl(job, r.report), title: "Simulation report with plots" }));
}

function resultTable(table, id) {
  // the rows `pnp simulate` prints (pnp/sim/tables.py), made by the server from the same JSON
  const t = el("table", { class: "result-table", id });
  t.append(el("caption", { text: table.title }));
  const wide = table.columns.length > 2;
  if (wide) t.append(el("tr", {}, table.columns.map((c) => el("th", { text: c }))));
  table.rows.forEach((row, i) => {
    const cells = wide ? row.map((c) => el("td", { text: c })) : [el("th", { text: row[0] }), el("td", { text: row[1] })];
    t.append(el("tr", { "data-metric": table.keys[i] }, cells));
  });
  t.append(el("tfoot", {}, el("tr", {}, el("td", { colspan: table.columns.length, class: "note", text: table.caption }))));
  return t;
}

// --- solve -----------------------------------------------------------------------------

async function runSolve(ev) {
  ev.preventDefault();
  const form = new FormData($("#solve-form"));
  const err = $("#solve-error");
  err.hidden = true;
  let job;
  try {
    ({ job } = await api("POST", `/api/games/${S.game}/solve`, {
      params: formValues(), players: Number(form.get("players")), budget: Number(form.get("budget")),
    }));
  } catch (e) {
    err.textContent = e.message;
    err.hidden = false;
    return;
  }
  S.solveJob = job;
  $("#solve-result").replaceChildren();
  $("#solve-progress").hidden = false;
  $("#cancel-solve").hidden = false;
  const done = await poll(job, (j) => {
    const p = j.progress;
    $("#solve-fill").style.width = p.total ? `${((100 * p.done) / p.total).toFixed(1)}%` : "0";
    $("#solve-text").textContent = j.state === "queued" ? "waiting for a free slot…" : p.message || "searching…";
  });
  $("#cancel-solve").hidden = true;
  $("#solve-progress").hidden = done.state !== "cancelled";
  if (done.state === "cancelled") {
    $("#solve-text").textContent = "cancelled";
    return;
  }
  if (done.state === "failed") {
    err.textContent = done.error;
    err.hidden = false;
    return;
  }
  renderSolve(done);
}

function renderSolve(job) {
  // the answer as `pnp solve` prints it, then its diagrams as `pnp solve --pdf` draws them
  const r = job.result;
  const a = r.json;
  const box = $("#solve-result");
  box.replaceChildren(el("p", { class: `verdict ${a.result}`, text: `${a.players} players: ${r.text}` }));
  if (r.steps.length) {
    box.append(el("h3", { class: "section", text: "The winning line, turn by turn" }));
    box.append(el("ol", { class: "solve-line", id: "solve-line" }, r.steps.map((s) => el("li", { text: s }))));
  }
  if (r.diagrams && r.diagrams.length) {
    box.append(el("div", { class: "bar" },
      el("h3", { class: "section", text: "On the board" }), el("span", { class: "spacer" }),
      el("a", { class: "button", href: fileUrl(job, r.pdf), download: `${S.game}-solution.pdf`, text: "⤓ solution PDF" })));
    box.append(el("div", { class: "diagrams" }, r.diagrams.map((pic, i) => el("img", { src: fileUrl(job, pic), alt: `the winning line, page ${i + 1}` }))));
  }
}

// --- tune ------------------------------------------------------------------------------

function targetRow(metrics, text = "") {
  // one target: a metric, "in" a range or a bound ("<=", ">="), and its numbers
  const [, metric = metrics[0], op = "in", a = "", b = ""] =
    text.match(/^(\w+)\s*(in|<=|>=)\s*([^.\s]*(?:\.\d+)?)(?:\.\.(.*))?$/) || [];
  const row = el("div", { class: "tune-target" },
    el("select", { class: "t-metric" }, metrics.map((m) => el("option", { value: m, text: m, selected: m === metric }))),
    el("select", { class: "t-op" }, ["in", "<=", ">="].map((o) => el("option", { value: o, text: o, selected: o === op }))),
    el("input", { type: "text", class: "t-a", size: 6, value: a, placeholder: "from" }),
    el("span", { class: "t-dots", text: ".." }),
    el("input", { type: "text", class: "t-b", size: 6, value: b, placeholder: "to" }),
    el("button", { type: "button", class: "t-remove", title: "remove this target", text: "×" }));
  const showRange = () => {
    const range = $(".t-op", row).value === "in";
    $(".t-dots", row).hidden = !range;
    $(".t-b", row).hidden = !range;
    $(".t-a", row).placeholder = range ? "from" : "value";
  };
  $(".t-op", row).addEventListener("change", showRange);
  $(".t-remove", row).addEventListener("click", () => row.remove());
  showRange();
  return row;
}

function renderTuneForm(info) {
  if (!info.simulate) return;
  $("#tune-targets").replaceChildren(targetRow(info.metrics, "turns in .."));
  const keys = $("#tune-keys");
  keys.replaceChildren();
  const tunable = [{ key: "players", text: `players (${info.players.min}-${info.players.max})` }];
  for (const f of S.schema.fields) {
    // only keys the rules read: another would play the very same games
    if (f.sweep) tunable.push({ key: f.key, text: f.key });
  }
  for (const t of tunable) {
    keys.append(el("label", { class: "tune-key" },
      el("input", { type: "checkbox", name: "over", value: t.key, "data-key": t.key }), t.text,
      el("input", { type: "text", class: "tune-range", "data-range": t.key, size: 10, placeholder: "range" })));
  }
  const players = $("#tune-players");
  players.replaceChildren();
  for (let n = info.players.min; n <= info.players.max; n++) {
    players.append(el("option", { value: n, text: n, selected: n === info.players.default }));
  }
  $("#tune-bot").replaceChildren(...info.bots.filter((b) => b !== "mcts").map((b) => el("option", { value: b, text: b })));
}

function tuneTargets() {
  return $$(".tune-target").map((row) => {
    const metric = $(".t-metric", row).value;
    const op = $(".t-op", row).value;
    const a = $(".t-a", row).value.trim();
    return op === "in" ? `${metric} in ${a}..${$(".t-b", row).value.trim()}` : `${metric} ${op} ${a}`;
  });
}

function tuneOver() {
  return $$("#tune-keys input[name=over]").filter((c) => c.checked).map((c) => {
    const range = $(`[data-range="${c.value}"]`).value.trim();
    return range ? `${c.value}=${range}` : c.value;
  });
}

async function runTune(ev) {
  ev.preventDefault();
  const form = new FormData($("#tune-form"));
  const over = tuneOver();
  const body = {
    params: formValues(),
    targets: tuneTargets(),
    over,
    bot: form.get("bot"),
    budget: String(form.get("budget") || ""),
    seed: Number(form.get("seed")),
  };
  if (!over.some((o) => o.split("=")[0] === "players")) body.players = Number(form.get("players"));
  const err = $("#tune-error");
  err.hidden = true;
  let job;
  try {
    ({ job } = await api("POST", `/api/games/${S.game}/tune`, body));
  } catch (e) {
    err.textContent = e.message;
    err.hidden = false;
    return;
  }
  S.tuneJob = job;
  $("#tune-result").replaceChildren();
  $("#tune-progress").hidden = false;
  $("#cancel-tune").hidden = false;
  $("#tune-run").disabled = true;
  const done = await poll(job, (j) => {
    const p = j.progress;
    $("#tune-fill").style.width = p.total ? `${((100 * p.done) / p.total).toFixed(1)}%` : "0";
    $("#tune-text").textContent = j.state === "queued" ? "waiting for a free slot…" : p.message || "starting…";
  });
  $("#cancel-tune").hidden = true;
  $("#tune-run").disabled = false;
  if (done.state === "cancelled") {
    $("#tune-text").textContent = "cancelled";
    return;
  }
  $("#tune-progress").hidden = true;
  if (done.state === "failed") {
    err.textContent = done.error;
    err.hidden = false;
    return;
  }
  renderTune(done);
}

function loadSetting(setting, players) {
  // the recommended setting into the form (and the seat count it was tuned for into Play's)
  const values = formValues();
  for (const [k, v] of Object.entries({ ...(players ? { players } : {}), ...setting })) {
    if (k === "players") {
      $("#players").value = String(v);
      $("#tune-players").value = String(v);
    } else values[k] = v;
  }
  loadValues({ ...values, paper: S.paper });
  showTab("kit");
}

function renderTune(job) {
  const a = job.result.json;
  const box = $("#tune-result");
  box.replaceChildren(el("p", { class: "verdict", id: "tune-answer", text: `${a.answer}` }));
  const t = el("table", { class: "result-table", id: "tune-table" });
  t.append(el("tr", {}, ["setting", "target", "value", "95 % interval", "verdict", "games", ""].map((c) => el("th", { text: c }))));
  a.recommended.forEach((r, i) => {
    const setting = Object.entries(r.setting).map(([k, v]) => `${k} = ${v}`).join(", ");
    r.targets.forEach((g, j) => {
      const verdict = g.verdict === "missed" ? `missed by ${g.missed_by}` : g.verdict;
      const load = j === 0 ? el("button", { type: "button", class: "tune-load", "data-index": i, text: "Load into the form" }) : "";
      if (load) load.addEventListener("click", () => loadSetting(r.setting, a.players));
      t.append(el("tr", {},
        el("td", { text: j === 0 ? setting : "" }), el("td", { text: g.target }),
        el("td", { text: g.value === null ? "n/a" : String(g.value) }),
        el("td", { text: g.ci ? `${g.ci[0]} - ${g.ci[1]}` : "n/a" }),
        el("td", { class: `t-${g.verdict}`, text: verdict }),
        el("td", { text: g.games.toLocaleString() }), el("td", {}, load)));
    });
    for (const e of r.kit_errors || []) t.append(el("tr", {}, el("td"), el("td", { colspan: 6, class: "t-missed", text: `pnp check: ${e}` })));
  });
  const g = a.games;
  t.append(el("tfoot", {}, el("tr", {}, el("td", { colspan: 7, class: "note",
    text: `${a.trials.length} trials; ${g.search.toLocaleString()} games searching, ${g.evidence.toLocaleString()} games of evidence on fresh seeds` }))));
  box.append(t);
  if (job.result.config) box.append(el("p", {}, el("a", { class: "button", href: fileUrl(job, job.result.config), download: `${S.game}-tune.toml`, text: "⤓ the best as a config file" })));
  box.append(el("iframe", { class: "report-frame", src: fileUrl(job, job.result.report), title: "Tune report with plots" }));
}

// --- wiring ----------------------------------------------------------------------------

async function main() {
  for (const g of await api("GET", "/api/games")) S.games[g.slug] = g;
  $$(".tabs button").forEach((b) => b.addEventListener("click", () => showTab(b.dataset.tab)));
  $$("#paper-seg button").forEach((b) => b.addEventListener("click", () => {
    setPaper(b.dataset.paper);
    S.edited = true;
    scheduleUpdate(0);
  }));
  $("#reset").addEventListener("click", () => loadValues({}));
  $("#variant").addEventListener("change", (ev) => {
    const v = S.schema.variants[ev.target.value];
    if (v) loadValues(v);
    ev.target.value = "";
  });
  $("#toml-save").addEventListener("click", async () => {
    try {
      const res = await fetch(`/api/games/${S.game}/config.toml`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ params: formValues() }),
      });
      if (!res.ok) throw new Error((await res.json()).error);
      const url = URL.createObjectURL(await res.blob());
      el("a", { href: url, download: `${S.game}.toml` }).click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      showFormError(e.message);
    }
  });
  $("#toml-load").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    ev.target.value = "";
    if (!file) return;
    try {
      const { params } = await api("POST", `/api/games/${S.game}/config`, { toml: await file.text() });
      $("#form-error").hidden = true;
      loadValues(params);
    } catch (e) {
      showFormError(`${file.name}: ${e.message}`);
    }
  });
  $("#zip-link").addEventListener("click", downloadZip);
  $("#play-form").addEventListener("submit", runSimulation);
  $("#bot").addEventListener("change", (ev) => ($("#budget-field").hidden = ev.target.value !== "mcts"));
  $("#cancel-run").addEventListener("click", () => S.runJob && api("DELETE", `/api/jobs/${S.runJob}`));
  $("#solve-form").addEventListener("submit", runSolve);
  $("#cancel-solve").addEventListener("click", () => S.solveJob && api("DELETE", `/api/jobs/${S.solveJob}`));
  $("#tune-form").addEventListener("submit", runTune);
  $("#tune-add-target").addEventListener("click", () => $("#tune-targets").append(targetRow(S.games[S.game].metrics)));
  $("#cancel-tune").addEventListener("click", () => S.tuneJob && api("DELETE", `/api/jobs/${S.tuneJob}`));
  window.addEventListener("popstate", route); // Back, Forward, a link to another game
  window.addEventListener("hashchange", route); // (the same address twice changes nothing)
  await route();
}

function dropToken() {
  // the token address normally answers with a redirect that sets the cookie; a token left in
  // the address (a wrong or old one) is taken out, so it is never shared with a link
  const url = new URL(location.href);
  if (!url.searchParams.has("token")) return;
  url.searchParams.delete("token");
  history.replaceState(null, "", url.pathname + url.search + url.hash);
}

function showPageError(message) {
  const box = $("#page-error");
  box.textContent = message;
  box.hidden = false;
}

dropToken();
main().catch((e) => showPageError(`The studio could not start: ${e.message}`));
