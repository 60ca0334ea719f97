// nord serve: the page. Plain JS, no build step. State lives on the server; the URL's
// hash (#game=ID, #replay=ID&step=N, #scenario=ID&step=N) finds it again after a reload.
"use strict";
const $ = (id) => document.getElementById(id);
let catalog = null, view = null, selection = [], busy = false, agentTimer = null;
let shownViewer = null;    // whose view the page last showed (a hot seat hands the page over between humans)
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
    for (const a of gameInfo($("game").value).agents || catalog.agents) s.add(new Option(a, a));   // (those the game can use)
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
  if (v.branch) history.replaceState(null, "", `#scenario=${v.id}&step=${v.step}&branch=${encodeURIComponent(v.branch)}`);
  showBranches(v);
  const ol = $("steps");
  ol.innerHTML = "";
  v.steps.forEach((st, i) => {
    const li = document.createElement("li");
    li.textContent = st.label;
    li.className = (i === v.step ? "current " : "") + (i > v.step ? "later" : st.passed === true ? "pass" : st.passed === false ? "fail" : "");
    if (st.part) { li.classList.add("branch-own"); li.style.marginLeft = "1em"; li.title = `branch ${st.part}`; }
    li.dataset.step = i;
    li.onclick = () => goStep(i);
    ol.appendChild(li);
  });
  $("failures").textContent = (v.failures || []).join("\n");
}

// a scenario's verdict as `nord test` gives it, and its branches (each a test of its own): one to step through
function showBranches(v) {
  let box = $("branches");
  if (!box) {
    box = document.createElement("div");
    box.id = "branches";
    $("steps").before(box);
  }
  box.innerHTML = "";
  const verdict = document.createElement("div");
  verdict.id = "verdict";
  const word = { pass: "PASS", fail: "FAIL", error: "ERROR" };
  verdict.textContent = v.branches.length
    ? `nord test: ${v.branches.filter((b) => b.outcome === "pass").length} of ${v.branches.length} branches pass`
    : `nord test: ${word[v.outcome] || v.outcome}`;
  const passed = v.branches.every((b) => b.outcome === "pass") && v.outcome === "pass";
  verdict.className = passed ? "verdict-pass" : "verdict-fail";
  verdict.style.color = passed ? "#060" : "#b00";
  box.appendChild(verdict);
  for (const b of v.branches) {
    const btn = document.createElement("button");
    btn.className = `branch ${b.outcome}` + (b.name === v.branch ? " current" : "");
    btn.dataset.branch = b.name;
    btn.textContent = `${b.name}: ${word[b.outcome] || b.outcome}`;
    btn.style.fontWeight = b.name === v.branch ? "bold" : "";      // (the branch shown; red: one that fails)
    if (b.outcome !== "pass") btn.style.color = "#b00";
    btn.onclick = () => act(() => api("GET", `${url(v)}?step=0&branch=${encodeURIComponent(b.name)}`));
    box.appendChild(btn);
  }
}

function goStep(i) {
  if (!view || view.kind === "game") return;
  i = Math.max(0, Math.min(view.steps.length - 1, i));
  const branch = view.branch ? `&branch=${encodeURIComponent(view.branch)}` : "";
  act(() => api("GET", `${url(view)}?step=${i}${branch}`));
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
  const branch = view.branch ? `branch=${encodeURIComponent(view.branch)}&` : "";
  const base = view.kind === "game" ? `/api/games/${view.id}/explain?` : `${url(view)}/explain?step=${view.step}&${branch}`;
  try {
    const r = await api("GET", `${base}move=${encodeURIComponent(move)}`);
    // one sentence first; the rule taken apart folded beneath it
    const box = $("why-text"), first = document.createElement("div"), more = document.createElement("details");
    first.className = "why-sentence"; first.style.whiteSpace = "normal"; first.textContent = r.sentence;
    const label = document.createElement("summary");
    label.textContent = "details: the rule, step by step";
    const lines = document.createElement("div");
    lines.className = "why-details"; lines.textContent = r.lines.join("\n");
    more.append(label, lines);
    box.replaceChildren(first, more);
    box.className = r.legal ? "legal" : "refused";
    $("why").hidden = false;
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
  const m = location.hash.match(/^#(game|replay|scenario)=([0-9a-f]+)(?:&step=(\d+))?(?:&branch=([^&]+))?/);
  if (!m) return;
  const base = m[1] === "game" ? `/api/games/${m[2]}`
    : `/api/${m[1]}s/${m[2]}?step=${m[3] || 0}` + (m[4] ? `&branch=${m[4]}` : "");
  await act(() => api("GET", base));
}

window.addEventListener("DOMContentLoaded", async () => {
  for (const b of document.querySelectorAll(".tab")) b.onclick = () => showTab(b.dataset.tab);
  $("start").onclick = startGame;
  $("open-replay").onclick = () => openFile("replay");
  $("open-scenario").onclick = () => openFile("scenario");
  $("upload").onchange = (e) => e.target.files[0] && uploadReplay(e.target.files[0]);
  $("handover-ok").onclick = () => { $("handover").hidden = true; $("view").hidden = false; redraw(); };
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
