// nord serve: the board's picture on the page (loaded before app.js, whose globals it reads when called):
// laid out for the column's width, the places that options name, the marks drawn over it, and the
// labels of options that name no place by their text alone.
"use strict";
const STACK_BELOW = 760;   // px: a board column narrower than this (and than the picture) gets the panel beneath

// ---------------- the picture in its column ----------------
function drawBoard() {
  $("board").innerHTML = view.svg;
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.addEventListener("click", boardClick);
  svg.addEventListener("mouseover", boardHover);
  svg.addEventListener("mouseleave", () => boardHover(null));
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
  const room = $("board").clientWidth;          // (0 while the page is hidden: laid out when shown)
  if (room === 0 || room >= Math.min(0.8 * box[2], STACK_BELOW)) return;
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

// ---------------- options' labels ----------------
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

function boardHover(ev) {
  // the pointer on a place: the options that name it are lit in the list
  const el = ev && ev.target.closest("[data-at], [data-slot]"), d = view && view.decision;
  const name = el && d ? clickedName(el) : null;
  for (const li of $("options").children) {
    const i = d ? d.options.indexOf(li.querySelector("button.option").dataset.option) : -1;
    li.classList.toggle("lit", name !== null && i >= 0 && d.parts[i].includes(name));
  }
}
