// nord serve: the page. Plain JS, no build step. State lives on the server; the URL's
// hash (#game=ID, #replay=ID&step=N, #scenario=ID&step=N) finds it again after a reload.
"use strict";
const $ = (id) => document.getElementById(id);
let catalog = null, view = null, selection = [], busy = false, agentTimer = null;
let shownViewer = null;    // whose view the page last showed (a hot seat hands the page over between humans)
const STACK_BELOW = 760;   // px: a board column narrower than this (and than the picture) gets the panel beneath
const AGENT_DELAY = 250;   // ms between agents' moves, so that they can be seen

async function api(method, url, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  const r = await fetch(url, opts);
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw Object.assign(new Error(data.error || `HTTP ${r.status}`), { data, status: r.status });
  return data;
}

function showError(e) {
  const box = $("error");
  if (!e) { box.hidden = true; box.textContent = ""; return; }
  box.hidden = false;
  box.textContent = e.data && e.data.detail ? e.data.detail : (e.message + (e.data && e.data.hint ? `\nhint: ${e.data.hint}` : ""));
}

function setStatus(text) { $("status").textContent = text; }

// ---------------- tabs and setup ----------------
function showTab(tab) {
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.dataset.tab === tab);
  for (const t of ["play", "replay", "scenario"]) $(`setup-${t}`).hidden = t !== tab;
}

function gameInfo(name) { return catalog.games.find((g) => g.name === name); }

function fillSetup() {
  const sel = $("game");
  sel.innerHTML = "";
  for (const g of catalog.games) sel.add(new Option(`${g.title} (${g.name})`, g.name));
  sel.value = catalog.default_game;
  sel.onchange = () => { const g = gameInfo(sel.value); $("players").value = g.default; fillGameChoices(); };
  $("players").onchange = fillSeats;
  $("players").value = gameInfo(sel.value).default;
  fillGameChoices();
}

function fillGameChoices() {
  const g = gameInfo($("game").value);
  $("players").min = g.min; $("players").max = g.max;
  const box = $("variants");
  box.innerHTML = "";
  for (const [name, desc] of Object.entries(g.variants)) {
    const label = document.createElement("label");
    label.title = desc;
    const checked = g.name === catalog.default_game && catalog.default_variants.includes(name);
    label.innerHTML = `<input type="checkbox" value="${name}"${checked ? " checked" : ""}> ${name}`;
    box.appendChild(label);
  }
  fillSeats();
}

function fillSeats() {
  const n = Math.max(1, Math.min(9, parseInt($("players").value) || 2));
  const box = $("seats");
  box.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const s = document.createElement("select");
    s.className = "seat"; s.id = `seat-${i}`;
    for (const a of catalog.agents) s.add(new Option(a, a));
    s.value = i === 0 ? "human" : "random";
    const label = document.createElement("label");
    label.append(`seat ${i + 1} `, s);
    box.appendChild(label);
  }
}

async function startGame() {
  const body = {
    game: $("game").value, players: parseInt($("players").value),
    variants: [...document.querySelectorAll("#variants input:checked")].map((x) => x.value),
    seats: [...document.querySelectorAll(".seat")].map((x) => x.value),
  };
  if ($("seed").value !== "") body.seed = parseInt($("seed").value);
  await act(() => api("POST", "/api/games", body));
}

async function loadFiles() {
  const files = await api("GET", "/api/files");
  for (const [kind, id] of [["replays", "replay-file"], ["scenarios", "scenario-file"]]) {
    const sel = $(id);
    sel.innerHTML = "";
    for (const f of files[kind]) sel.add(new Option(`${files.folders[f.folder].split("/").pop()}/${f.path}`, JSON.stringify(f)));
  }
}

async function openFile(kind) {
  const sel = $(kind === "replay" ? "replay-file" : "scenario-file");
  if (!sel.value) { showError(new Error(`no ${kind} file in the served folders`)); return; }
  await act(() => api("POST", `/api/${kind}s`, JSON.parse(sel.value)));
}

async function uploadReplay(file) {
  const text = await file.text();
  await act(() => api("POST", "/api/replays", { text, name: file.name }));
}

// ---------------- views ----------------
async function act(request) {
  if (busy) return;
  busy = true;
  try { show(await request()); showError(null); }
  catch (e) { showError(e); }
  finally { busy = false; }
  scheduleAgent();
}

function url(v) { return v.kind === "game" ? `/api/games/${v.id}` : `/api/${v.kind}s/${v.id}`; }

function show(v) {
  view = v; selection = [];
  const hash = v.kind === "game" ? `#game=${v.id}` : `#${v.kind}=${v.id}&step=${v.step}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
  showTab(v.kind === "game" ? "play" : v.kind);
  $("view").hidden = false;
  drawBoard();
  $("title").textContent = v.kind === "game" ? `${v.game}, seed ${v.seed === null ? "shown at the end" : v.seed}`
    : `${v.title} (${v.game})`;
  $("seen-as").textContent = v.kind !== "game" ? "the referee's view: everything, hidden items and secret choices too"
    : v.viewer ? `as ${v.viewer} sees it` : "the referee's view (no seat is a person): everything";
  const humans = v.kind === "game" ? Object.values(v.seats).filter((s) => s === "human").length : 0;
  if (humans > 1 && v.viewer && shownViewer && v.viewer !== shownViewer) handOver(v.viewer);
  shownViewer = v.kind === "game" ? v.viewer : null;
  $("log").textContent = v.log.join("\n");
  $("log").scrollTop = $("log").scrollHeight;
  $("step-log").textContent = (v.step_log || []).join("\n");
  $("why").hidden = true;
  $("game-buttons").hidden = v.kind !== "game";
  $("stepper").hidden = v.kind === "game";
  $("script").hidden = v.kind !== "scenario";
  if (v.kind === "game") {
    $("undo").disabled = !v.can_undo;
    $("save").href = `/api/games/${v.id}/replay`;
  } else showSteps(v);
  const res = v.result || (v.over ? { over: true } : null);
  $("result").textContent = !res ? `turn ${v.turn}; points ${fmtPoints(v.points)}`
    : res.draw ? `Game over: a draw (${fmtPoints(res.points || v.points)})`
    : res.winners ? `Game over: ${res.winners.join(", ")} won (${fmtPoints(res.points)})` : `Game over (${fmtPoints(v.points)})`;
  showDecision();
  mark(v.marks, "mark");
  setStatus(v.kind === "game" ? `${v.decisions} decisions` : `step ${v.step} of ${v.steps.length - 1}`);
}

function drawBoard() {
  $("board").innerHTML = view.svg;
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.addEventListener("click", boardClick);
  stackPanel(svg);
  // fitted to the column, but no taller than the window unless that would draw it below its own size
  const [, , w, h] = svg.getAttribute("viewBox").split(/\s+/).map(Number);
  svg.style.maxWidth = `max(${w}px, calc((100vh - 9em) * ${w / h}))`;
}

function stackPanel(svg) {
  // A column narrower than the picture: its side panel goes beneath the board, so that the board is
  // drawn larger and the panel's texts at a size one can read (the picture's own layout otherwise).
  const panel = svg.querySelector(":scope > g.panel"), bg = svg.querySelector(":scope > rect");
  const box = (svg.getAttribute("viewBox") || "").split(/\s+/).map(Number);
  if (!panel || !bg || box.length !== 4 || $("board").classList.contains("actual")) return;
  if ($("board").clientWidth >= Math.min(0.8 * box[2], STACK_BELOW)) return;
  const title = svg.querySelector(":scope > text.title");
  const hide = (on) => { for (const e of [panel, bg, title]) if (e) e.style.display = on ? "none" : ""; };
  hide(true);
  const rest = svg.getBBox();
  hide(false);
  const pb = panel.getBBox();
  const dx = 8 - pb.x, dy = rest.y + rest.height + 24 - pb.y;
  if (pb.x < rest.x + rest.width) return;       // (the panel is not beside the board)
  panel.setAttribute("transform", `translate(${dx} ${dy})`);
  const w = Math.ceil(Math.max(rest.x + rest.width, 8 + pb.width) + 8), h = Math.ceil(pb.y + dy + pb.height + 16);
  if (title) {             // (a title wider than the stack: smaller)
    const tb = title.getBBox(), size = parseFloat(title.getAttribute("font-size"));
    if (tb.x + tb.width > w - 8) title.setAttribute("font-size", (size * (w - 8 - tb.x) / tb.width).toFixed(1));
    title.removeAttribute("textLength");
  }
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("width", w); svg.setAttribute("height", h);
  bg.setAttribute("width", w); bg.setAttribute("height", h);
  svg.dataset.stacked = "1";
}

function redraw() {
  // the picture laid out again for the column's width, with its marks
  drawBoard();
  showDecision();
  mark(view.marks, "mark");
}

function handOver(who) {
  // a hot seat: the page shows the next person's view only once he asks for it
  $("view").hidden = true;
  $("handover").hidden = false;
  $("handover-text").textContent = `${who} to play: pass the page to ${who}, then show ${who}'s view.`;
}

function fmtPoints(p) { return Object.entries(p).map(([c, n]) => `${c} ${n}`).join(", "); }

function showSteps(v) {
  const n = v.steps.length - 1;
  $("slider").max = n; $("slider").value = v.step;
  const s = v.steps[v.step];
  $("step-label").textContent = `${v.step}/${n}: ${s.label}`;
  if (v.kind !== "scenario") return;
  const ol = $("steps");
  ol.innerHTML = "";
  v.steps.forEach((st, i) => {
    const li = document.createElement("li");
    li.textContent = st.label;
    li.className = (i === v.step ? "current " : "") + (i > v.step ? "later" : st.passed === true ? "pass" : st.passed === false ? "fail" : "");
    li.dataset.step = i;
    li.onclick = () => goStep(i);
    ol.appendChild(li);
  });
  $("failures").textContent = (v.failures || []).join("\n");
}

function goStep(i) {
  if (!view || view.kind === "game") return;
  i = Math.max(0, Math.min(view.steps.length - 1, i));
  act(() => api("GET", `${url(view)}?step=${i}`));
}

// ---------------- the board's places and the marks on them ----------------
// A place is what an option's part names: a space, a grid cell, a structure (data-at), or a slot
// of a track (data-slot: an option that is a bare number names the slot of that number).
const SVGNS = "http://www.w3.org/2000/svg";
const PLACE_SHAPES = ["space", "cell", "structure", "slot"];
let hovered = [];          // the places of the option under the pointer

function placeName(e) { return e.hasAttribute("data-slot") ? e.getAttribute("data-slot") : e.getAttribute("data-at"); }

function placeElements() { return [...$("board").querySelectorAll("[data-at], [data-slot]")]; }

function atElements(name) {
  // the place of that name; else the items of that tag (an option that names a card, a colour), the
  // decider's own first
  const direct = placeElements().filter((e) => placeName(e) === name || e.getAttribute("data-id") === name);
  if (direct.length || !view || !view.decision) return direct;
  const tagged = [...$("board").querySelectorAll(".piece")].filter((e) => e.getAttribute("data-tag") === name);
  const own = tagged.filter((e) => (e.getAttribute("data-at") || "").includes(`(${view.decision.player})`));
  return own.length ? own : tagged;
}

function clickedName(el) {
  // what a click names: the place it is at, else the structure's id, else the item's tag (a card, a
  // colour), whichever an option names first
  const d = view.decision, named = (n) => n !== null && d.parts.some((ps) => ps.includes(n));
  return [placeName(el), el.getAttribute("data-id"), el.getAttribute("data-tag")].find(named) || placeName(el);
}

function placeShapes(name) {
  // the shapes a place is drawn as (its space, cell or slot), else whatever carries its name (a zone's items)
  const all = atElements(name);
  const shapes = all.filter((e) => PLACE_SHAPES.some((c) => e.classList.contains(c)));
  return shapes.length ? shapes : all;
}

function overlayGroup() {
  const svg = $("board").querySelector("svg");
  if (!svg) return null;
  let g = svg.querySelector("g.overlay");
  if (!g) { g = document.createElementNS(SVGNS, "g"); g.setAttribute("class", "overlay"); svg.appendChild(g); }
  return g;
}

function outline(g, e, cls, name) {
  // a copy of the place's outline drawn above everything (a group's: its box), styled by `cls`
  let shape;
  if (["rect", "polygon", "circle"].includes(e.tagName)) {
    shape = document.createElementNS(SVGNS, e.tagName);
    for (const a of ["x", "y", "width", "height", "rx", "points", "cx", "cy", "r"]) {
      if (e.hasAttribute(a)) shape.setAttribute(a, e.getAttribute(a));
    }
  } else {
    const b = e.getBBox();
    shape = document.createElementNS(SVGNS, "rect");
    for (const [a, v] of [["x", b.x], ["y", b.y], ["width", b.width], ["height", b.height], ["rx", 4]]) shape.setAttribute(a, v);
  }
  shape.setAttribute("class", `ov ${cls}`);
  shape.setAttribute("data-of", name);
  const moved = e.closest("g[transform]");       // (a place in the panel, moved beneath the board)
  if (moved) shape.setAttribute("transform", moved.getAttribute("transform"));
  g.appendChild(shape);
}

function mark(names, cls) {
  // the places named get the class `cls` (tests read it); paint() draws what the classes say
  for (const e of $("board").querySelectorAll(`.${cls}`)) e.classList.remove(cls);
  for (const n of names || []) for (const e of placeShapes(n)) e.classList.add(cls);
  paint();
}

function paint() {
  // Drawn above the picture, in this order: legal targets (green), the last move (a black line with a
  // white dashed core: no tint band of a group is black, and a band is a fill, not a line), the
  // selection (red), the option under the pointer (blue).
  const g = overlayGroup();
  if (!g) return;
  g.replaceChildren();
  const layers = [["cand", ["cand"]], ["mark", ["mark-out", "mark-in"]], ["sel", ["sel"]], ["hover", ["hover"]]];
  for (const [cls, looks] of layers) {
    for (const e of $("board").querySelectorAll(`.${cls}:not(.ov)`)) {
      for (const look of looks) outline(g, e, look, placeName(e));
    }
  }
}

function candidates() {
  const d = view.decision;
  if (!d) return [];
  return d.options.map((t, i) => i).filter((i) => selection.every((s) => d.parts[i].includes(s)));
}

function exact() {
  const d = view.decision;
  return candidates().filter((i) => d.parts[i].length === selection.length);
}

function optionLabel(d, i) {
  // What the page shows for an option (the move sent is always its own text): a bare number that
  // names a slot of a track gets what the slots of that number hold; a word that is the tag of items
  // in the picture gets their kind (the decider's own items first).
  const text = d.options[i];
  const pieces = [...$("board").querySelectorAll(".piece")];
  if (/^\d+$/.test(text)) {
    const held = pieces.filter((e) => e.getAttribute("data-slot") === text)
      .map((e) => [e.getAttribute("data-kind"), e.getAttribute("data-tag") || e.getAttribute("data-owner")].filter(Boolean).join(" "));
    if (held.length) return `${text}: ${held.join(" + ")}`;
  }
  if (!placeElements().some((e) => placeName(e) === text)) {
    const kinds = [...new Set(atElements(text).map((e) => e.getAttribute("data-kind")))];
    if (kinds.length) return `${text} (${kinds.join(", ")})`;
  }
  return text;
}

function showDecision() {
  const d = view.decision, ol = $("options");
  ol.innerHTML = "";
  $("select-bar").hidden = selection.length === 0;
  $("selection").textContent = selection.join(", ");
  $("confirm").disabled = exact().length === 0;
  hovered = [];
  if (!d) {
    $("decision").textContent = view.over ? "" : "no decision";
    mark([], "cand"); mark([], "sel"); mark([], "hover");
    return;
  }
  const mine = view.kind === "game" && view.seat === "human";
  $("decision").textContent = view.kind !== "game" ? `${d.player} decides '${d.choice}' (${d.options.length} options)`
    : mine ? `${d.player}: choose '${d.choice}' — click the board or an option`
    : `${d.player} (${view.seats[d.player]}) is thinking…` + (d.hidden ? ` (${d.hidden} options, not shown to ${view.viewer})` : "");
  const shown = selection.length ? candidates() : d.options.map((t, i) => i);
  for (const i of shown) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.className = "option"; b.textContent = optionLabel(d, i); b.dataset.option = d.options[i];
    b.disabled = !mine;
    b.onclick = () => playOption(d.options[i]);
    li.onmouseenter = () => { hovered = d.parts[i]; mark(hovered, "hover"); };
    li.onmouseleave = () => { hovered = []; mark([], "hover"); };
    const w = document.createElement("button");
    w.className = "why"; w.textContent = "?"; w.title = "what would it do?";
    w.onclick = () => explainMove(`${d.choice} ${d.options[i]}`);
    li.append(b, w);
    ol.appendChild(li);
  }
  const clickable = new Set(shown.flatMap((i) => d.parts[i]).filter((p) => !selection.includes(p) && atElements(p).length));
  const targets = new Set([...clickable].flatMap(atElements));
  for (const e of placeElements()) e.classList.toggle("clickable", view.kind !== "game" || targets.has(e));
  mark([...clickable], "cand");          // the legal targets, before any click
  mark(selection, "sel");
  mark(hovered, "hover");
}

function playOption(text) {
  const d = view.decision;
  act(() => api("POST", `/api/games/${view.id}/move`, { move: `${d.choice} ${text}` }));
}

async function explainMove(move) {
  const base = view.kind === "game" ? `/api/games/${view.id}/explain?` : `${url(view)}/explain?step=${view.step}&`;
  try {
    const r = await api("GET", `${base}move=${encodeURIComponent(move)}`);
    $("why").hidden = false;
    $("why-text").textContent = r.lines.join("\n");
    $("why-text").className = r.legal ? "legal" : "refused";
  } catch (e) { showError(e); }
}

function boardClick(ev) {
  // what carries a place: the element clicked, else the first beneath it that does (a label over a space)
  const el = ev.target.closest("[data-at], [data-slot]") ||
    document.elementsFromPoint(ev.clientX, ev.clientY).map((e) => e.closest("[data-at], [data-slot]")).find(Boolean);
  if (!el || !view || !view.decision || busy) return;
  const at = clickedName(el), d = view.decision;
  if (view.kind !== "game" || view.seat !== "human") { explainMove(`${d.choice} ${at}`); return; }
  const tried = selection.includes(at) ? selection.filter((s) => s !== at) : [...selection, at];
  const before = selection;
  selection = tried;
  const cands = candidates();
  if (selection.length && cands.length === 0) {       // refused: say why
    selection = before;
    showDecision();
    explainMove(`${d.choice} ${tried.join(",")}`);
    return;
  }
  const ex = exact();
  if (ex.length === 1 && cands.length === 1) { playOption(d.options[ex[0]]); return; }
  showDecision();
}

// ---------------- agents ----------------
function scheduleAgent() {
  clearTimeout(agentTimer);
  if (view && view.kind === "game" && view.seat === "agent" && !view.over) {
    agentTimer = setTimeout(() => act(() => api("POST", `/api/games/${view.id}/agent`, { steps: 1 })), AGENT_DELAY);
  }
}

// ---------------- start ----------------
async function restore() {
  const m = location.hash.match(/^#(game|replay|scenario)=([0-9a-f]+)(?:&step=(\d+))?/);
  if (!m) return;
  const base = m[1] === "game" ? `/api/games/${m[2]}` : `/api/${m[1]}s/${m[2]}?step=${m[3] || 0}`;
  await act(() => api("GET", base));
}

window.addEventListener("DOMContentLoaded", async () => {
  for (const b of document.querySelectorAll(".tab")) b.onclick = () => showTab(b.dataset.tab);
  $("start").onclick = startGame;
  $("open-replay").onclick = () => openFile("replay");
  $("open-scenario").onclick = () => openFile("scenario");
  $("upload").onchange = (e) => e.target.files[0] && uploadReplay(e.target.files[0]);
  $("handover-ok").onclick = () => { $("handover").hidden = true; $("view").hidden = false; };
  $("zoom").onclick = () => {
    const actual = $("board").classList.toggle("actual");
    $("zoom").textContent = actual ? "fit to page" : "actual size";
    if (view) redraw();
  };
  let resizing = null;
  window.addEventListener("resize", () => { clearTimeout(resizing); resizing = setTimeout(() => view && redraw(), 150); });
  $("undo").onclick = () => act(() => api("POST", `/api/games/${view.id}/undo`));
  $("confirm").onclick = () => { const ex = exact(); if (ex.length) playOption(view.decision.options[ex[0]]); };
  $("clear").onclick = () => { selection = []; showDecision(); };
  $("first").onclick = () => goStep(0);
  $("back").onclick = () => goStep(view.step - 1);
  $("forward").onclick = () => goStep(view.step + 1);
  $("last").onclick = () => goStep(view.steps.length - 1);
  $("slider").onchange = (e) => goStep(parseInt(e.target.value));
  document.addEventListener("keydown", (e) => {
    if (!view || view.kind === "game" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") goStep(view.step - 1);
    if (e.key === "ArrowRight") goStep(view.step + 1);
  });
  try {
    catalog = await api("GET", "/api/catalog");
    fillSetup();
    showTab("play");
    await loadFiles();
    await restore();
    document.body.dataset.ready = "1";
  } catch (e) { showError(e); }
});
