// mjscan phone page: photograph or enter a hand, fix whatever was misread,
// score it. Plain JavaScript against the service's own JSON API.
//
// The page never puts a hand together itself: a photo's hand is always the
// one the service builds from the tiles and their groups as the player has
// corrected them (POST /v1/recognitions/hand), and a typed hand is what
// GET /v1/notation reads. What the page keeps is the player's edits: tile
// codes, which group each tile is in, a meld's caller, the winning tile.
"use strict";

const $ = (id) => document.getElementById(id);

// ---- tiles: codes, names, pictures ----

const SUITS = { m: "characters", p: "dots", s: "bamboo" };
const HONOURS = ["", "East wind", "South wind", "West wind", "North wind", "White dragon", "Green dragon", "Red dragon"];
const FLOWERS = ["", "Flower 1, plum", "Flower 2, orchid", "Flower 3, chrysanthemum", "Flower 4, bamboo",
  "Season 1, spring", "Season 2, summer", "Season 3, autumn", "Season 4, winter"];
const JOKERS = ["", "emperor", "dots", "bamboo", "characters", "suited", "wind", "dragon", "flower"];

// tileName says a tile code in words: "6 bamboo", "red 5 dots", "East wind".
function tileName(code) {
  const n = parseInt(code[0], 10), s = code[1];
  if (SUITS[s]) return n === 0 ? `red 5 ${SUITS[s]}` : `${n} ${SUITS[s]}`;
  if (s === "z") return n === 0 ? "face-down tile" : HONOURS[n] || code;
  if (s === "f") return FLOWERS[n] || code;
  if (s === "k") return n <= 4 ? `King ${n}` : `Queen ${n - 4}`;
  if (s === "j") return n === 9 ? "Joker" : `Joker (${JOKERS[n] || n})`;
  return code;
}

function isTileCode(code) {
  return /^([0-9][mps]|[0-7]z|[1-8][fk]|[1-9]j)$/.test(code);
}

// tilePic is a tile's picture: the art on the tile's front (its back for a
// face-down tile), the code only as a small caption.
function tilePic(code, caption = true) {
  const span = document.createElement("span");
  span.className = "pic" + (code === "0z" ? " back" : "");
  if (code !== "0z" && isTileCode(code)) {
    const img = document.createElement("img");
    img.src = `/web/tiles/${code}.svg`;
    img.alt = "";
    span.appendChild(img);
  }
  const wrap = document.createElement("span");
  wrap.className = "tile-pic";
  wrap.appendChild(span);
  if (caption) {
    const c = document.createElement("span");
    c.className = "code";
    c.textContent = code;
    wrap.appendChild(c);
  }
  return wrap;
}

// tileEl is a tile as a button.
function tileEl(code, opts = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "tile" + (opts.cls ? " " + opts.cls : "");
  b.dataset.tile = code;
  if (opts.index !== undefined) b.dataset.index = opts.index;
  b.appendChild(tilePic(code));
  if (opts.note) b.appendChild(el("span", { cls: "tile-note" }, opts.note));
  // The name a screen reader says: the visible code and note, then words.
  b.appendChild(el("span", { cls: "sr" }, ", " + (opts.label || tileName(code))));
  if (opts.onclick) b.addEventListener("click", opts.onclick);
  return b;
}

const PALETTE = [];
for (const s of ["m", "p", "s"]) for (let i = 1; i <= 9; i++) PALETTE.push(i + s);
for (let i = 1; i <= 7; i++) PALETTE.push(i + "z");
PALETTE.push("0m", "0p", "0s");
for (let i = 1; i <= 8; i++) PALETTE.push(i + "f");

// splitTiles reads "123m55z" into ["1m","2m","3m","5z","5z"].
function splitTiles(s) {
  const out = [];
  let digits = "";
  for (const ch of (s || "").replace(/\s/g, "")) {
    if (/[0-9]/.test(ch)) digits += ch;
    else { for (const d of digits) out.push(d + ch); digits = ""; }
  }
  return out;
}

function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "cls") e.className = v; else e.setAttribute(k, v);
  }
  if (text !== undefined) e.textContent = text;
  return e;
}

async function api(method, path, body, headers = {}) {
  const init = { method, headers };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) { init.body = JSON.stringify(body); init.headers["Content-Type"] = "application/json"; }
  let resp;
  try {
    resp = await fetch(path, init);
  } catch (e) {
    return { status: 0, ok: false, data: { detail: "The service could not be reached: check the connection and try again." } };
  }
  let data = null;
  try { data = await resp.json(); } catch (e) { data = { detail: "The service answered " + resp.status + " with no explanation." }; }
  return { status: resp.status, ok: resp.ok, data };
}

// ---- state ----
//
// source says where the hand comes from: "photo", "typed" or null (none).
// photo is the player's working copy of the recognition: its tiles (each
// with what it was read as) and groups, as edited. built is the service's
// hand for those tiles and groups. typed is the hand GET /v1/notation read
// (or the palette taps made). Every change that invalidates what is shown
// goes through one of the functions below, which clear or mark it.
const state = {
  source: null,
  photo: null, // {tiles: [{tile, read, box, confidence, rotated, alternatives, added, notTile}], groups: [{kind, tiles, from}], width, height}
  built: null, // {hand, complete} from POST /v1/recognitions/hand
  buildError: "",
  typed: { hand: [], melds: [], win: -1 },
  typedError: "",
  undo: [],
  fixing: null, // {index} (a photo tile), {typed: i}, or {add: target}
  pending: Promise.resolve(),
  seq: { photo: 0, build: 0, notation: 0, score: 0 },
  scored: null, // the request the result on show scored
  tapMode: "hand", // where a palette tap goes: the hand, a meld, the dora or ura dora
  lang: null, // the names in the result: "en" or "local" (the rule set's own language)
  shown: null, // {r, req}: the result on show, drawn again when the language changes
};

// ---- the result: always names its hand and rules, cleared when stale ----

function invalidateResult(why) {
  const r = $("result");
  if (!state.scored && !r.querySelector("#result-error")) {
    if (!r.querySelector(".stale")) r.replaceChildren();
    return;
  }
  state.scored = null;
  state.shown = null;
  r.replaceChildren(el("p", { cls: "stale", id: "result-stale" }, why + " since the last score: press Score to score it again."));
}

function meldWords(m) {
  const open = m.type !== "ankan";
  const kind = { chi: "chow", pon: "pung", minkan: "kong", ankan: "concealed kong", kakan: "added kong" }[m.type] || m.type;
  return kind + (open ? (m.from ? ` from ${m.from}` : " (open)") : "");
}

// drawTiles draws tile codes as pictures that are not buttons, as a
// result shows them: sideways the ones called from another player, face
// down the ends of a concealed kong.
function drawTiles(codes, opt = {}) {
  const d = el("span", { cls: "tiles static " + (opt.cls || "") });
  codes.forEach((c, i) => {
    const back = opt.backs && opt.backs.includes(i);
    const side = opt.sideways && opt.sideways.includes(i);
    const t = tilePic(back ? "0z" : c, !back);
    t.setAttribute("role", "img");
    t.setAttribute("aria-label", tileName(c) + (side ? ", called (sideways)" : "") + (back ? ", face down" : "") + (opt.win ? ", the winning tile" : ""));
    if (side) t.classList.add("sideways");
    if (opt.win) t.classList.add("win");
    d.appendChild(t);
  });
  return d;
}

// meldTiles draws a meld as players lay it out: the called tile sideways,
// on the side of the player it came from (the left one for the left, the
// middle for across, the right one for the right); an added kong's fourth
// tile sideways beside it; a concealed kong with its ends face down.
function meldTiles(m) {
  const codes = splitTiles(m.tiles);
  if (m.type === "ankan") return drawTiles(codes, { cls: "meld", backs: [0, codes.length - 1] });
  const at = m.type === "chi" ? 0 : { left: 0, across: 1, right: 2 }[m.from] ?? 0;
  const side = [m.type === "minkan" && m.from === "right" ? codes.length - 1 : at];
  if (m.type === "kakan") side.push(at + 1);
  return drawTiles(codes, { cls: "meld", sideways: side });
}

function scoredHeader(req, r) {
  const box = el("div", { cls: "scored", id: "result-scored" });
  const rules = `${req.rules}${r && r.preset ? ", preset " + r.preset : req.preset ? ", preset " + req.preset : ""}`;
  box.appendChild(el("p", { id: "result-rules" }, `Scored under ${rules}: ` +
    `${req.tsumo ? "self-draw" : "on a discard"}` + (req.seat_wind ? `, seat ${req.seat_wind}` : "") + (req.round_wind ? `, round ${req.round_wind}` : "") + "."));
  // The hand as players lay it out: the concealed tiles, the winning tile
  // apart, then the melds.
  const hand = splitTiles(req.hand), w = hand.lastIndexOf(req.win_tile);
  const line = el("div", { cls: "scored-hand", id: "result-hand", role: "group" });
  line.setAttribute("aria-label", "the hand scored");
  line.appendChild(drawTiles(hand.filter((_, i) => i !== w)));
  if (w >= 0) line.appendChild(drawTiles([req.win_tile], { cls: "win-apart", win: true }));
  (req.melds || []).forEach((m) => line.appendChild(meldTiles(m)));
  box.appendChild(line);
  const melds = (req.melds || []).map(meldWords);
  if (melds.length) box.appendChild(el("p", { cls: "note" }, "Melds: " + melds.join("; ") + "."));
  for (const [key, title, id] of [["dora_indicators", "Dora indicators", "result-dora"], ["ura_dora_indicators", "Ura dora indicators", "result-ura"], ["flowers", "Flowers", "result-flowers"]]) {
    if (!req[key]) continue;
    const p = el("p", { cls: "bonus-row", id }, title + " ");
    p.appendChild(drawTiles(splitTiles(req[key])));
    box.appendChild(p);
  }
  const words = [`won on ${req.win_tile} (${tileName(req.win_tile)})`];
  if (req.dora_indicators) words.push("dora indicators " + req.dora_indicators);
  if (req.ura_dora_indicators) words.push("ura dora " + req.ura_dora_indicators);
  if (req.flowers) words.push("flowers " + req.flowers);
  box.appendChild(el("p", { cls: "note", id: "result-code" }, `${req.hand}${(req.melds || []).map((m) => " " + m.tiles).join("")}: ` + words.join(", ")));
  return box;
}

// domTable builds a table whose cells are text or nodes.
function domTable(rows, head, id) {
  const t = el("table", id ? { id } : {});
  if (head) {
    const tr = el("tr");
    head.forEach((h) => tr.appendChild(el("th", { scope: "col" }, h)));
    t.appendChild(tr);
  }
  rows.forEach((r) => {
    const tr = el("tr");
    r.forEach((c) => {
      const td = el("td", { cls: typeof c === "number" ? "n" : "" });
      if (c instanceof Node) td.appendChild(c); else td.textContent = c === undefined ? "" : String(c);
      tr.appendChild(td);
    });
    t.appendChild(tr);
  });
  return t;
}

function section(title, ...nodes) {
  const d = el("div", { cls: "result-part" });
  d.appendChild(el("h2", {}, title));
  nodes.forEach((n) => d.appendChild(n));
  return d;
}

// ---- names in English or the rule set's own language ----

function localLanguage(rules) { return typeof LANGUAGES !== "undefined" ? LANGUAGES[rules] : null; }

// resultLang is the language of the names: the player's choice, else the
// first of the browser's languages that is English or the rule set's own.
function resultLang(rules) {
  const L = localLanguage(rules);
  if (!L) return "en";
  if (state.lang) return state.lang;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const p = String(l).toLowerCase().split("-")[0];
    if (p === L.code) return "local";
    if (p === "en") return "en";
  }
  return "en";
}

// nameOf is an item's name in the language chosen (a node), and its
// one-line explanation.
function nameOf(rules, item) {
  const book = (typeof NAMES !== "undefined" && NAMES[rules]) || {};
  const [local, why] = book[item.id !== undefined && book[item.id] ? item.id : item.name] || [];
  const L = localLanguage(rules);
  const span = el("span", { cls: "item-name" });
  if (local && resultLang(rules) === "local") {
    span.appendChild(el("span", { lang: L.tag }, local));
    span.appendChild(el("span", { cls: "alt" }, " " + item.name));
  } else {
    span.appendChild(el("span", {}, item.name));
    if (local) span.appendChild(el("span", { cls: "alt", lang: L.tag }, " " + local));
  }
  return { name: span, why: why || "" };
}

function langSwitch(rules) {
  const L = localLanguage(rules);
  if (!L) return null;
  const g = el("div", { cls: "lang-switch", role: "group", "aria-label": "names in" });
  g.appendChild(el("span", { cls: "note" }, "Names: "));
  for (const [v, t, tag] of [["en", "English", "en"], ["local", L.name, L.tag]]) {
    const b = el("button", { type: "button", "data-lang": v, lang: tag, "aria-pressed": resultLang(rules) === v ? "true" : "false" }, t);
    b.addEventListener("click", () => {
      state.lang = v;
      if (state.shown) renderResult(state.shown.r, state.shown.req, { keepScroll: true });
    });
    g.appendChild(b);
  }
  return g;
}

// ---- who pays whom ----

const SEAT_WORDS = { E: "East", S: "South", W: "West", N: "North" };

function payerWords(p) {
  if (SEAT_WORDS[p]) return `${SEAT_WORDS[p]} (${p})`;
  return { discarder: "The discarder", "riichi sticks": "The riichi sticks on the table", other: "Another player", "other player": "Another player" }[p] || p;
}

// scoreChanges adds up each player's change of score from the payments:
// the winner (the seat scored) gains what the others pay. Players named
// only by role ("other player") are counted one by one.
function scoreChanges(payments, winner) {
  const out = new Map(), seen = {};
  const add = (who, n) => out.set(who, (out.get(who) || 0) + n);
  add(winner, 0);
  payments.forEach((p) => {
    const to = p.to || winner;
    let from = p.from;
    if (!SEAT_WORDS[from] && from !== "discarder" && from !== "riichi sticks") {
      seen[from] = (seen[from] || 0) + 1;
      from = `${from} ${seen[from]}`;
    }
    if (from !== "riichi sticks") add(from, -p.amount);
    add(to, p.amount);
  });
  for (const s of ["E", "S", "W", "N"]) if (SEAT_WORDS[winner] && !out.has(s) && payments.some((p) => SEAT_WORDS[p.from])) out.set(s, 0);
  return out;
}

function changeWords(who) {
  const m = /^(.*) (\d+)$/.exec(who);
  return m && !SEAT_WORDS[who] ? `${payerWords(m[1])} (${m[2]})` : payerWords(who);
}

// split says a self-draw's payments as players do: "2000/3900" (each
// non-dealer / the dealer), "3900 all", or a discard's "8000 from the
// discarder".
function split(r, req, dealer) {
  const pays = ((r.points && r.points.payments) || []).filter((p) => p.from !== "riichi sticks" && (!p.to || p.to === req.seat_wind));
  if (!pays.length) return "";
  if (!req.tsumo) return pays.map((p) => `${p.amount} from ${payerWords(p.from).replace(/^The /, "the ").replace(/^Another/, "another")}`).join(", ");
  const amounts = pays.map((p) => p.amount);
  if (amounts.every((a) => a === amounts[0])) return `${amounts[0]} all`;
  const fromDealer = pays.find((p) => p.from === "E");
  const others = pays.filter((p) => p.from !== "E");
  if (!dealer && fromDealer && others.length && others.every((p) => p.amount === others[0].amount)) return `${others[0].amount}/${fromDealer.amount}`;
  return pays.map((p) => `${payerWords(p.from)} ${p.amount}`).join(", ");
}

// ---- the result ----

// waitWords says what the hand waited on: riichi names it; under MCR the
// wait fans do (edge, closed, single); elsewhere the set the winning tile
// completed does.
function waitWords(r, b) {
  if (b.wait) return b.wait;
  const fan = (r.fans || []).map((f) => ({ 77: "edge (12 waiting on 3, or 89 on 7)", 78: "closed (on the middle tile)", 79: "single (on the pair)" }[f.id])).find(Boolean);
  if (r.rules === "mcr") return fan || "";
  const set = (b.sets || []).find((x) => x.winning_tile);
  return set ? `the winning tile completed the ${set.kind} ${set.tiles}` : "";
}

function renderResult(r, req, how = {}) {
  const res = $("result");
  res.replaceChildren(scoredHeader(req, r));
  state.shown = { r, req };
  const b = r.breakdown || {};
  const lang = langSwitch(req.rules);
  if (!r.ok) {
    const err = r.error || { message: r.detail || "could not score" };
    let msg = inWords(err.message || err.detail || "The hand could not be scored.");
    if (state.source === "photo" && (r.code || err.code) === "not_a_winning_hand") {
      msg += " Check the tiles marked not sure (orange): one may be misread.";
    }
    res.appendChild(el("p", { cls: "error", id: "result-error" }, msg));
    if (r.waits) res.appendChild(el("p", {}, "Waits / improving tiles: " + r.waits));
    if (r.fan) res.appendChild(el("p", {}, "Fan counted: " + r.fan));
  } else {
    res.appendChild(el("p", { cls: "total", id: "result-total" }, `${r.points ? r.points.total : 0} points`));
    const parts = [];
    if (r.yakuman) parts.push(`${r.yakuman}× yakuman`);
    else if (r.han) parts.push(`${r.han} han ${r.fu} fu`);
    if (r.limit) parts.push(r.limit);
    if (r.fan) parts.push(`${r.fan} fan`);
    if (r.value) parts.push(`value ${r.value}`);
    if (r.score) parts.push(`score ${r.score}`);
    res.appendChild(el("p", { id: "result-summary" }, parts.join(", ")));
    // The facts players read first: the wait, the dealer, the split.
    const dealer = b.dealer !== undefined ? !!b.dealer : req.seat_wind === "E";
    const facts = el("ul", { cls: "facts", id: "result-facts" });
    const fact = (id, label, value) => { const li = el("li", { id }); li.appendChild(el("strong", {}, label + ": ")); li.appendChild(document.createTextNode(value)); facts.appendChild(li); };
    const wait = waitWords(r, b);
    if (wait) fact("result-wait", "Wait", wait);
    if (req.seat_wind) fact("result-dealer", "Dealer", dealer ? `yes, the winner is East (the dealer)` : `no, the winner is ${SEAT_WORDS[req.seat_wind] || req.seat_wind}`);
    const sp = split(r, req, dealer);
    if (sp) fact("result-split", req.tsumo ? "Self-draw" : "Discard", sp + (req.tsumo && sp.includes("/") ? " (each other player / the dealer)" : ""));
    res.appendChild(facts);
  }
  if (lang) res.appendChild(lang);
  if (r.yaku && r.yaku.length) {
    res.appendChild(section("Yaku", domTable(r.yaku.map((y) => {
      const n = nameOf(req.rules, y);
      return [n.name, y.yakuman ? y.yakuman + "× yakuman" : y.han + " han", n.why];
    }), ["Yaku", "Han", "What earns it"], "result-yaku")));
  }
  if (r.fans && r.fans.length) {
    const unit = req.rules === "hk" ? "faan" : "fan";
    res.appendChild(section(req.rules === "hk" ? "Faan" : "Fans", domTable(r.fans.map((f) => {
      const n = nameOf(req.rules, f);
      return [n.name, f.count > 1 ? `${f.fan} ${unit} × ${f.count}` : `${f.fan} ${unit}`, n.why];
    }), ["Name", unit === "faan" ? "Faan" : "Fan", "What earns it"], "result-fans")));
  }
  if (r.patterns && r.patterns.length) {
    res.appendChild(section("Patterns", domTable(r.patterns.map((p) => {
      const n = nameOf(req.rules, p);
      return [n.name, p.points ? p.points + " points" : p.doubles ? `${p.doubles} double${p.doubles > 1 ? "s" : ""}` : "", [n.why, p.detail].filter(Boolean).join(": ")];
    }), ["Name", "Worth", "What earns it"], "result-patterns")));
  }
  if (b.fu && b.fu.length) res.appendChild(section("Fu", domTable(b.fu.map((f) => [f.reason, f.set || "", f.fu]), ["Why", "Set", "Fu"])));
  if (b.sets && b.sets.length) {
    const fu = b.sets.some((x) => x.fu); // only riichi counts fu by set
    res.appendChild(section("Sets", domTable(b.sets.map((x) => [drawTiles(splitTiles(x.tiles)), x.kind + (x.open ? " (open)" : "")].concat(fu ? [x.fu ? x.fu + " fu" : ""] : [])),
      ["Set", "Kind"].concat(fu ? ["Fu"] : []))));
  }
  const pays = (r.points && r.points.payments) || [];
  if (r.ok && pays.length) {
    const winner = req.seat_wind || "the winner";
    res.appendChild(section("Who pays whom", domTable(pays.map((p) => [payerWords(p.from), payerWords(p.to || winner), p.amount, p.note || ""]), ["Pays", "To", "Points", "Why"], "result-payments")));
    const changes = scoreChanges(pays, winner);
    res.appendChild(section("Each player's score", domTable([...changes].map(([who, n]) =>
      [changeWords(who) + (who === winner ? ", the winner" : ""), (n > 0 ? "+" : n < 0 ? "−" : "±") + Math.abs(n)]), ["Player", "Change"], "result-changes")));
  }
  if (b.alternatives && b.alternatives.length > 1) {
    res.appendChild(section("Readings considered", domTable(b.alternatives.map((x) =>
      [(x.chosen ? "✓ " : "") + (x.arrangement || ""), x.yakuman ? x.yakuman + "× yakuman" : x.han !== undefined ? `${x.han} han ${x.fu} fu` : x.points_without_flowers + " points", x.total ?? ""]))));
  }
  if (r.versions) $("versions").textContent = `engine ${r.versions.engine}` + (r.versions.model ? `, model ${r.versions.model}` : "");
  state.scored = req;
  if (!how.keepScroll) res.scrollIntoView({ block: "start" });
  else { const sw = res.querySelector(".lang-switch button[aria-pressed=true]"); if (sw) sw.focus(); }
}

function showResultError(msg) {
  state.scored = null;
  state.shown = null;
  $("result").replaceChildren(el("p", { cls: "error", id: "result-error" }, inWords(msg)));
}

// ---- the hand ----

// handRequest is the hand to score, or {error} saying why there is none.
function handRequest() {
  if (state.source === "photo") {
    if (state.buildError) return { error: state.buildError };
    if (!state.built) return { error: "The hand is still being built from the photo: try again in a moment." };
    if (!state.built.complete) return { error: incompleteReason() };
    const h = state.built.hand;
    return { hand: h.hand, win_tile: h.win_tile, melds: h.melds || [], dora_indicators: h.dora_indicators || "", flowers: h.flowers || "" };
  }
  if (state.source === "typed") {
    if (state.typedError) return { error: `The notation is not valid: ${state.typedError} Fix it, then score.` };
    if (!state.typed.hand.length) return { error: "There is no hand yet: enter the tiles." };
    return {
      hand: joinTiles(state.typed.hand), win_tile: state.typed.hand[state.typed.win] || "", melds: state.typed.melds,
      dora_indicators: uses("dora_indicators") ? $("dora").value.trim() : "", flowers: uses("flowers") ? $("flowers").value.trim() : "",
    };
  }
  return { error: "There is no hand yet: take a photo of it, or enter its tiles." };
}

// joinTiles writes ["1m","2m","5z"] as "12m5z": the codes in the order
// given, for the request (the service reads them; the page builds nothing).
function joinTiles(codes) {
  let out = "", run = "", suit = "";
  for (const c of codes) {
    if (c[1] !== suit && run) { out += run + suit; run = ""; }
    suit = c[1]; run += c[0];
  }
  return out + (run ? run + suit : "");
}

// counted is the built hand's size with each meld as three, and whether a
// face-down tile is among the concealed ones.
function counted() {
  const h = (state.built && state.built.hand) || {};
  const concealed = splitTiles(h.hand);
  return { n: concealed.length + 3 * (h.melds || []).length, backs: concealed.filter((c) => c === "0z").length };
}

// incompleteReason says why the photo's tiles make no whole hand, and how
// to fix it.
function incompleteReason() {
  const { n, backs } = counted();
  if (backs) return "A face-down tile is among the concealed tiles: tap it and say which tile it is, or move it out of the hand.";
  const tiles = `${n} tile${n === 1 ? "" : "s"} counted (a kong counts as three)`;
  if (n < 14) {
    const k = 14 - n;
    return `No complete hand of 14 tiles found: ${tiles}. Add the ${k === 1 ? "tile" : k + " tiles"} the reader missed with “+ Add a tile”, or move ${k === 1 ? "one" : "them"} in from Ignored.`;
  }
  return `No complete hand of 14 tiles found: ${tiles}. Mark boxes that are not tiles “Not a tile”, or move the extra tiles to Ignored, Dora or Flowers.`;
}

function groupOf(i) {
  const gs = state.photo.groups;
  for (let g = 0; g < gs.length; g++) {
    const p = gs[g].tiles.indexOf(i);
    if (p >= 0) return { g, p, group: gs[g] };
  }
  return null;
}

function isMeld(g) { return g.kind === "meld" || g.kind === "ankan"; }

// concealed is the photo's concealed tiles in the service's order: the
// hand, then a tile set apart as the winning one; the last is the winning
// tile (the service's rule, shown as it will score).
function concealed() {
  const gs = state.photo.groups, out = [];
  gs.forEach((g) => { if (g.kind === "hand") out.push(...g.tiles); });
  gs.forEach((g) => { if (g.kind === "win") out.push(...g.tiles); });
  return out;
}

function winIndex() {
  const c = concealed();
  return c.length ? c[c.length - 1] : -1;
}

// renderHand draws the hand as rows: concealed (the winning tile marked),
// each meld with how it was made, dora, flowers, and for a photo the
// tiles that are not in the hand.
function renderHand() {
  const rows = $("hand-rows");
  rows.replaceChildren();
  $("undo").hidden = !state.undo.length;
  if (state.undo.length) $("undo").textContent = "Undo: " + state.undo[state.undo.length - 1].label;
  if (state.source === "photo") renderPhotoHand(rows);
  else if (state.source === "typed") renderTypedHand(rows);
  $("hand-source").textContent = state.source === "photo" ? "From the photo. Tap a tile to fix it or move it." :
    state.source === "typed" ? "From the tiles entered. Tap a tile to change it." : "No hand yet.";
  renderCheck();
  const fromPhoto = state.source === "photo";
  $("dora").disabled = fromPhoto;
  $("flowers").disabled = fromPhoto;
  $("from-photo").hidden = !fromPhoto;
}

function row(title, id, tiles, extra) {
  const r = el("div", { cls: "hand-row", id });
  const h = el("h3", {}, title);
  r.appendChild(h);
  const t = el("div", { cls: "tiles" });
  tiles.forEach((x) => t.appendChild(x));
  r.appendChild(t);
  if (extra) extra.forEach((x) => r.appendChild(x));
  return r;
}

function photoTileEl(i, where) {
  const t = state.photo.tiles[i];
  const win = where === "win";
  const cls = ["photo-tile", win ? "win" : "", t.tile !== t.read ? "fixed" : "", t.added ? "added" : "",
    !t.added && t.tile === t.read && t.confidence < 0.6 ? "low" : "", t.notTile ? "nottile" : ""].filter(Boolean).join(" ");
  const note = t.notTile ? "not a tile" : win ? "★ won" : t.added ? "added" : t.tile !== t.read ? "fixed" : "";
  return tileEl(t.tile, {
    cls, index: i, note,
    label: `${tileName(t.tile)}${win ? ", the winning tile" : ""}${t.tile !== t.read && t.read ? ", read as " + tileName(t.read) : ""}: fix it`,
    onclick: () => openFixer({ index: i }),
  });
}

function addButton(target, what) {
  const b = el("button", { type: "button", cls: "add", "data-add": target }, "+ Add a tile");
  b.appendChild(el("span", { cls: "sr" }, " to " + what));
  b.addEventListener("click", () => openFixer({ add: target }));
  return b;
}

function renderPhotoHand(rows) {
  const gs = state.photo.groups, win = winIndex();
  rows.appendChild(row("Concealed", "row-hand", concealed().map((i) => photoTileEl(i, i === win ? "win" : "hand")), [addButton("hand", "the concealed tiles")]));
  const built = (state.built && state.built.hand && state.built.hand.melds) || [];
  let k = 0;
  gs.forEach((g, gi) => {
    if (!isMeld(g)) return;
    const m = built[k];
    const title = `Meld ${k + 1}` + (m ? `: ${meldWords(m)}` : "");
    rows.appendChild(row(title, "row-meld-" + k, g.tiles.map((i) => photoTileEl(i, "meld")), [meldHow(gi, k), addButton("meld:" + gi, "meld " + (k + 1))]));
    k++;
  });
  const of = (kind) => gs.filter((g) => g.kind === kind).flatMap((g) => g.tiles);
  rows.appendChild(row("Dora indicators", "row-dora", of("dora").map((i) => photoTileEl(i, "dora")), [addButton("dora", "the dora indicators")]));
  rows.appendChild(row("Flowers", "row-flowers", of("flowers").map((i) => photoTileEl(i, "flowers")), [addButton("flowers", "the flowers")]));
  const gone = (t) => t.added && t.notTile; // a tile the player added, then removed
  const ignored = state.photo.tiles.map((_, i) => i).filter((i) => !gone(state.photo.tiles[i]) && (!groupOf(i) || groupOf(i).group.kind === "loose"));
  if (ignored.length) {
    const r = row("Ignored (not in the hand)", "row-ignored", ignored.map((i) => photoTileEl(i, "ignored")));
    r.appendChild(el("p", { cls: "note" }, "Tiles the reader saw outside the hand (discards, the wall) and boxes you marked “Not a tile”. Tap one to move it into the hand."));
    rows.appendChild(r);
  }
}

// meldHow is a meld's select: concealed, or open and from whom.
function meldHow(gi, k) {
  const g = state.photo.groups[gi];
  const s = el("select", { id: "meld-how-" + k, cls: "meld-how" });
  s.setAttribute("aria-label", `Meld ${k + 1}: concealed or open, and from whom`);
  const opts = [["concealed", g.tiles.length === 4 ? "Concealed kong" : "Concealed (part of the hand)"], ["open", "Open, from whom?"],
    ["left", "Open, from the left"], ["across", "Open, from across"], ["right", "Open, from the right"]];
  const now = g.kind === "ankan" ? "concealed" : g.from || "open";
  for (const [v, t] of opts) {
    const o = el("option", { value: v }, t);
    if (v === now) o.selected = true;
    s.appendChild(o);
  }
  s.addEventListener("change", () => setMeldHow(gi, s.value));
  const l = el("label", { cls: "how" });
  l.appendChild(s);
  return l;
}

function renderTypedHand(rows) {
  const t = state.typed;
  if (state.typedError) {
    rows.appendChild(el("p", { cls: "error", id: "hand-error" }, `The notation is not valid: ${state.typedError}`));
    return;
  }
  rows.appendChild(row("Concealed", "row-hand", t.hand.map((code, i) => tileEl(code, {
    cls: i === t.win ? "win" : "", index: i, note: i === t.win ? "★ won" : "",
    label: tileName(code) + (i === t.win ? ", the winning tile" : "") + ": change it",
    onclick: () => openFixer({ typed: i }),
  }))));
  t.melds.forEach((m, k) => {
    const rm = el("button", { type: "button", cls: "add remove-meld", "data-meld": k }, "Remove this meld");
    rm.addEventListener("click", () => removeMeld(k));
    rows.appendChild(row(`Meld ${k + 1}: ${meldWords(m)}`, "row-meld-" + k, splitTiles(m.tiles).map((c) => tileEl(c, {
      cls: "meld", label: `${tileName(c)}, in meld ${k + 1}: remove the meld to change it`,
      onclick: () => tapHint("To change a meld, remove it and tap it again."),
    })), [rm]));
  });
  // The dora and ura dora indicators and the flowers tapped (or typed in
  // their boxes below): tap one to take it out.
  for (const [id, field, title] of [["dora", "dora_indicators", "Dora indicators"], ["ura", "ura_dora_indicators", "Ura dora indicators"], ["flowers", "flowers", "Flowers"]]) {
    const codes = uses(field) ? splitTiles($(id).value).filter(isTileCode) : [];
    if (!codes.length) continue;
    rows.appendChild(row(title, "row-" + id, codes.map((c, p) => tileEl(c, {
      label: `${tileName(c)}: take it out of the ${title.toLowerCase()}`, onclick: () => removeBonus(id, p),
    }))));
  }
}

function renderCheck() {
  const c = $("hand-check");
  c.className = "";
  c.textContent = "";
  if (state.source === "photo") {
    if (state.buildError) { c.className = "error"; c.textContent = state.buildError; return; }
    if (!state.built) { c.textContent = "Building the hand…"; return; }
    if (state.built.complete) {
      c.className = "ok";
      c.textContent = `A whole hand of 14 tiles, won on ${state.built.hand.win_tile} (${tileName(state.built.hand.win_tile)}).`;
    } else {
      c.className = "error";
      c.textContent = incompleteReason();
    }
  } else if (state.source === "typed" && state.typedError) {
    c.className = "error";
    c.textContent = "Fix the notation: no hand is scored until it is valid.";
  } else if (state.source === "typed" && (state.typed.hand.length || state.typed.melds.length)) {
    // The count only: the service says whether the tiles win when scored.
    const t = state.typed, n = t.hand.length + 3 * t.melds.length;
    c.className = n === 14 ? "ok" : "";
    c.textContent = n === 14 ? `14 tiles (a kong counts as three), won on ${t.hand[t.win]} (${tileName(t.hand[t.win])}).` :
      `${n} of 14 tiles (a kong counts as three)` + (n < 14 ? ": tap the rest." : ": take some out.");
  }
}

// ---- photo edits: each kept for undo, then the service builds the hand ----

function edit(label, fn) {
  state.undo.push({ label, snap: JSON.stringify({ tiles: state.photo.tiles, groups: state.photo.groups }) });
  fn();
  state.photo.groups = state.photo.groups.filter((g) => g.kind === "hand" || g.tiles.length);
  afterEdit("The hand changed");
}

function afterEdit(why) {
  renderBoxes();
  state.built = null;
  state.buildError = "";
  renderHand();
  invalidateResult(why);
  state.pending = buildHand();
}

function undo() {
  const u = state.undo.pop();
  if (!u || !state.photo) return;
  const s = JSON.parse(u.snap);
  state.photo.tiles = s.tiles;
  state.photo.groups = s.groups;
  afterEdit("An edit was undone");
}

function takeOut(i) {
  const at = groupOf(i);
  if (at) at.group.tiles.splice(at.p, 1);
}

function handGroup() {
  let g = state.photo.groups.find((x) => x.kind === "hand");
  if (!g) { g = { kind: "hand", tiles: [] }; state.photo.groups.unshift(g); }
  return g;
}

// put moves tile i to a target: "hand", "meld:G" (group G), "newmeld",
// "dora", "flowers" or "ignored".
function put(i, target) {
  const gs = state.photo.groups;
  takeOut(i);
  if (target === "hand") handGroup().tiles.push(i);
  else if (target.startsWith("meld:")) gs[parseInt(target.slice(5), 10)].tiles.push(i);
  else if (target === "newmeld") gs.push({ kind: "meld", tiles: [i], from: "" });
  else {
    const kind = target === "ignored" ? "loose" : target;
    let g = gs.find((x) => x.kind === kind && (kind !== "loose" || x.mine));
    if (!g) { g = { kind, tiles: [] }; if (kind === "loose") g.mine = true; gs.push(g); }
    g.tiles.push(i);
  }
}

function whereWords(target) {
  if (target === "hand") return "the concealed hand";
  if (target === "newmeld") return "a new meld";
  if (target.startsWith("meld:")) {
    const gi = parseInt(target.slice(5), 10), g = state.photo.groups[gi];
    return `meld ${meldNumber(gi) + 1} (${g.tiles.map((i) => state.photo.tiles[i].tile).join(" ")})`;
  }
  return { dora: "the dora indicators", flowers: "the flowers", ignored: "Ignored" }[target] || target;
}

function meldNumber(gi) {
  return state.photo.groups.slice(0, gi).filter(isMeld).length;
}

function fixTile(i, code) {
  const t = state.photo.tiles[i];
  if (t.tile === code) return;
  edit(`${t.tile} → ${code}`, () => { t.tile = code; });
}

function setWin(i) {
  edit(`winning tile ${state.photo.tiles[i].tile}`, () => {
    const gs = state.photo.groups;
    for (const g of gs) if (g.kind === "win") { handGroup().tiles.push(...g.tiles); g.tiles = []; }
    takeOut(i);
    gs.push({ kind: "win", tiles: [i] });
  });
}

function setMeldHow(gi, how) {
  const g = state.photo.groups[gi];
  edit(`meld ${meldNumber(gi) + 1} ${how}`, () => {
    if (how === "concealed" && g.tiles.length !== 4) {
      // A concealed set is part of the hand: its tiles join it.
      handGroup().tiles.push(...g.tiles);
      g.tiles = [];
    } else if (how === "concealed") {
      g.kind = "ankan"; g.from = "";
    } else {
      g.kind = "meld"; g.from = how === "open" ? "" : how;
    }
  });
}

function notTile(i) {
  edit(`not a tile (${state.photo.tiles[i].tile})`, () => { state.photo.tiles[i].notTile = true; takeOut(i); });
}

function addTile(code, target) {
  edit(`added ${code}`, () => {
    state.photo.tiles.push({ tile: code, read: "", box: null, confidence: 1, rotated: false, alternatives: [], added: true });
    put(state.photo.tiles.length - 1, target);
  });
}

function moveTile(i, target) {
  edit(`${state.photo.tiles[i].tile} to ${whereWords(target)}`, () => {
    state.photo.tiles[i].notTile = false;
    put(i, target);
  });
}

// buildHand asks the service for the hand the edited tiles and groups
// make. Only the answer to the latest edit of the latest photo is used.
function buildHand() {
  const photo = state.photo;
  if (!photo) return Promise.resolve();
  const my = ++state.seq.build;
  const groups = photo.groups.filter((g) => g.tiles.length || g.kind === "hand").map((g) => ({ kind: g.kind, tiles: g.tiles, from: g.from || "" }));
  const body = {
    tiles: photo.tiles.map((t) => ({ tile: t.tile, box: t.box || [0, 0, 0, 0], confidence: t.confidence, rotated: !!t.rotated })),
    groups,
  };
  return api("POST", "/v1/recognitions/hand", body).then(({ ok, data }) => {
    if (my !== state.seq.build || photo !== state.photo) return;
    if (!ok) {
      state.built = null;
      state.buildError = "The hand could not be built: " + (data.detail || "the service refused it.");
    } else {
      state.built = data;
      state.buildError = "";
      $("dora").value = data.hand.dora_indicators || "";
      $("flowers").value = data.hand.flowers || "";
    }
    renderHand();
  });
}

// ---- the photo ----

// forgetHand drops whatever hand is on show (a photo's or a typed one) and
// the result, before a new one comes.
function forgetHand(why) {
  state.source = null;
  state.photo = null;
  state.built = null;
  state.buildError = "";
  state.typed = { hand: [], melds: [], win: -1 };
  state.typedError = "";
  state.undo = [];
  state.seq.build++;
  $("dora").value = "";
  $("ura").value = "";
  $("flowers").value = "";
  renderBoxes();
  renderHand();
  invalidateResult(why);
}

// PHOTO_SIDE is the long side a photo is shrunk to before it is sent: the
// reader needs no more, and a phone's 4032×3024 photo would take seconds
// over a slow link.
const PHOTO_SIDE = 2000;

// shrinkPhoto is the photo to send: one whose long side is over PHOTO_SIDE
// is drawn upright (its EXIF orientation applied) at PHOTO_SIDE and sent as
// a JPEG; a smaller one, or one the browser cannot draw (the service then
// says what is wrong with it), is sent as it is.
async function shrinkPhoto(file) {
  if (!window.createImageBitmap || !window.HTMLCanvasElement) return file;
  let bmp;
  try {
    bmp = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch (e) {
    return file;
  }
  const long = Math.max(bmp.width, bmp.height);
  if (long <= PHOTO_SIDE) { bmp.close(); return file; }
  const k = PHOTO_SIDE / long;
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(bmp.width * k);
  canvas.height = Math.round(bmp.height * k);
  canvas.getContext("2d").drawImage(bmp, 0, 0, canvas.width, canvas.height);
  bmp.close();
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.9));
  return blob || file;
}

// sendPhoto posts the photo with XMLHttpRequest, which reports how much
// of it has gone, showing that on the progress bar; Cancel aborts it.
function sendPhoto(form, my) {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    const bar = $("photo-progress"), box = $("photo-sending");
    const done = (out) => {
      box.hidden = true;
      $("photo-cancel").onclick = null;
      resolve(out);
    };
    xhr.open("POST", "/v1/recognitions");
    xhr.setRequestHeader("Idempotency-Key", newKey());
    xhr.responseType = "text";
    xhr.upload.onprogress = (e) => {
      if (!e.lengthComputable || my !== state.seq.photo) return;
      const pct = Math.floor(100 * e.loaded / e.total);
      bar.value = pct;
      bar.setAttribute("aria-valuetext", `${pct}% of ${(e.total / 1e6).toFixed(1)} MB sent`);
      $("photo-status").textContent = pct < 100 ? `Sending the photo: ${pct}% of ${(e.total / 1e6).toFixed(1)} MB…` : "Reading the tiles…";
    };
    xhr.onload = () => {
      let data;
      try { data = JSON.parse(xhr.responseText); } catch (e) { data = { detail: "The service answered " + xhr.status + " with no explanation." }; }
      done({ ok: xhr.status >= 200 && xhr.status < 300, status: xhr.status, data });
    };
    xhr.onerror = () => done({ ok: false, status: 0, data: { detail: "The service could not be reached: check the connection and try again." } });
    xhr.onabort = () => done({ ok: false, status: 0, cancelled: true, data: {} });
    bar.value = 0;
    bar.setAttribute("aria-valuetext", "nothing sent yet");
    box.hidden = false;
    $("photo-cancel").onclick = () => xhr.abort();
    xhr.send(form);
  });
}

async function upload(file) {
  const my = ++state.seq.photo;
  forgetHand("A new photo was taken");
  state.seq.notation++;
  $("notation").value = "";
  $("photo-status").className = "";
  $("photo-view").hidden = false;
  $("legend").hidden = true;
  $("photo-status").textContent = "Preparing the photo…";
  const photo = await shrinkPhoto(file);
  if (my !== state.seq.photo) return;
  const img = $("photo-img");
  if (img.src.startsWith("blob:")) URL.revokeObjectURL(img.src);
  img.src = URL.createObjectURL(photo); // the picture sent: the boxes are on it
  const form = new FormData();
  form.append("photo", photo, photo === file ? file.name : "photo.jpg");
  if (typeof teach !== "undefined") teach.beforeUpload(form, photo); // teach.js: the player's tile set
  const { ok, data, cancelled } = await sendPhoto(form, my);
  if (my !== state.seq.photo) return; // a newer photo was taken meanwhile
  if (cancelled) {
    $("photo-view").hidden = true;
    $("photo-status").className = "";
    $("photo-status").textContent = "Sending cancelled: no hand was taken from the photo. Take or pick it again when ready.";
    renderHand();
    return;
  }
  if (!ok || !data.tiles) {
    $("photo-status").className = "error";
    let why = (data && data.detail) || "this photo could not be read";
    why = why[0].toUpperCase() + why.slice(1) + (/[.!?]$/.test(why) ? "" : ".");
    $("photo-status").textContent = why + " No hand was taken from it.";
    renderHand();
    return;
  }
  if (!data.tiles.length) {
    $("photo-status").className = "error";
    $("photo-status").textContent = "No tiles were found in this photo. Take it again from above, in good light, with the tiles filling most of the picture, or enter the tiles instead.";
    renderHand();
    return;
  }
  if (typeof teach !== "undefined") teach.afterRead(data);
  state.source = "photo";
  state.photo = {
    width: data.width, height: data.height,
    tiles: data.tiles.map((t) => ({ tile: t.tile, read: t.tile, box: t.box, confidence: t.confidence, rotated: !!t.rotated, alternatives: t.alternatives || [] })),
    groups: (data.groups && data.groups.length ? data.groups : [{ kind: "hand", tiles: data.tiles.map((_, i) => i) }])
      .map((g) => ({ kind: g.kind, tiles: g.tiles.slice(), from: g.from || "" })),
  };
  const ignored = state.photo.groups.filter((g) => g.kind === "loose").reduce((n, g) => n + g.tiles.length, 0);
  $("photo-status").textContent = `${data.tiles.length} tiles found` + (ignored ? `, ${ignored} of them outside the hand (ignored)` : "") + ". Tap any that are wrong.";
  $("legend").hidden = false;
  renderBoxes();
  if (img.complete) showTiles(); else img.addEventListener("load", showTiles, { once: true });
  if (data.hand) {
    // The recogniser's own hand, built by the same rule as any later edit.
    state.built = { hand: data.hand, complete: true };
    $("dora").value = data.hand.dora_indicators || "";
    $("flowers").value = data.hand.flowers || "";
    state.pending = Promise.resolve();
  } else {
    state.pending = buildHand();
  }
  renderHand();
}

// boxState names what a box's colour says.
function boxState(i) {
  const t = state.photo.tiles[i];
  if (t.notTile) return "nottile";
  const at = groupOf(i);
  if (!at || at.group.kind === "loose") return "ignored";
  if (t.tile !== t.read) return "fixed";
  if (t.confidence < 0.6) return "low";
  return "sure";
}

const BOX_WORDS = { sure: "read as", low: "not sure, read as", fixed: "fixed to", ignored: "ignored, read as", nottile: "not a tile, was read as" };

// fitPhoto shows the photo wide enough that each tile's box is at least
// 44 px each way (scrolling sideways on a phone), at most three times its size.
function fitPhoto() {
  const p = state.photo, stage = $("photo-stage");
  if (!p || !p.width) { stage.style.width = ""; return; }
  const sides = p.tiles.filter((t) => t.box).map((t) => Math.min(t.box[2] - t.box[0], t.box[3] - t.box[1])).sort((a, b) => a - b);
  const view = $("photo-view").clientWidth || 360;
  let w = view;
  if (sides.length) {
    const smallest = Math.max(1, sides[0]); // 46: 44 px and room for rounding
    w = Math.max(view, Math.min(p.width * 46 / smallest, 3 * p.width));
  }
  stage.style.width = Math.round(w) + "px";
}

// showTiles scrolls the photo to where its tiles are, once for each photo:
// the view is no taller than most of the screen.
function showTiles() {
  const p = state.photo, view = $("photo-view");
  const boxes = p ? p.tiles.filter((t) => t.box) : [];
  if (!boxes.length) return;
  const scale = $("photo-stage").clientWidth / p.width;
  const top = Math.min(...boxes.map((t) => t.box[1])), left = Math.min(...boxes.map((t) => t.box[0]));
  const bottom = Math.max(...boxes.map((t) => t.box[3]));
  const room = view.clientHeight - 40;
  view.scrollTop = Math.max(0, top * scale - Math.max(8, (room - (bottom - top) * scale) / 2));
  view.scrollLeft = Math.max(0, left * scale - 16);
}

function renderBoxes() {
  const layer = $("boxes");
  layer.replaceChildren();
  const p = state.photo;
  if (!p || !p.width) return;
  fitPhoto();
  p.tiles.forEach((t, i) => {
    if (!t.box) return;
    const [x0, y0, x1, y1] = t.box;
    const st = boxState(i);
    const win = i === winIndex();
    const d = el("button", { type: "button", cls: `box ${st}${win ? " win" : ""}`, "data-index": i, "data-state": st });
    Object.assign(d.style, {
      left: (100 * x0 / p.width) + "%", top: (100 * y0 / p.height) + "%",
      width: (100 * (x1 - x0) / p.width) + "%", height: (100 * (y1 - y0) / p.height) + "%",
    });
    const label = el("span", { cls: "label" });
    if (st === "nottile") label.textContent = "✕";
    else {
      label.appendChild(tilePic(t.tile, false));
      label.appendChild(el("span", { cls: "code" }, (win ? "★" : "") + t.tile));
    }
    d.appendChild(label);
    d.appendChild(el("span", { cls: "sr" }, `, tile ${i + 1}, ${BOX_WORDS[st]} ${tileName(t.tile)}${win ? ", the winning tile" : ""}` +
      (st === "sure" || st === "low" ? `, ${Math.round(100 * t.confidence)}% sure` : "") + ": fix it"));
    d.addEventListener("click", () => openFixer({ index: i }));
    layer.appendChild(d);
  });
}

// ---- the fix sheet ----

function openFixer(what) {
  state.fixing = what;
  const title = $("fixer-title"), read = $("fixer-read"), alts = $("fixer-alts"), moves = $("fixer-moves");
  read.replaceChildren();
  alts.replaceChildren();
  moves.replaceChildren();
  const show = (id, on) => { $(id).hidden = !on; };
  if (what.add) {
    title.textContent = "Add a tile to " + whereWords(what.add);
    read.textContent = "Pick the tile the reader missed.";
    show("fixer-alts-box", false); show("fixer-win", false); show("fixer-nottile", false); show("fixer-remove", false);
  } else if (what.typed !== undefined) {
    const code = state.typed.hand[what.typed];
    title.textContent = `Change tile ${what.typed + 1} of the hand`;
    read.appendChild(tilePic(code));
    read.appendChild(el("span", {}, ` ${tileName(code)}, as entered.`));
    show("fixer-alts-box", false); show("fixer-win", what.typed !== state.typed.win); show("fixer-nottile", false); show("fixer-remove", true);
  } else {
    const i = what.index, t = state.photo.tiles[i];
    const at = groupOf(i);
    const where = !at ? "Ignored" : { hand: "the hand", win: "the hand (winning tile)", meld: "meld " + (meldNumber(at.g) + 1), ankan: "meld " + (meldNumber(at.g) + 1), dora: "the dora indicators", flowers: "the flowers", loose: "Ignored" }[at.group.kind];
    title.textContent = `Fix tile ${i + 1}, in ${where}`;
    read.appendChild(tilePic(t.read || t.tile));
    read.appendChild(el("span", { id: "fixer-read-text" }, t.added ? ` Added by you as ${tileName(t.tile)}.` :
      ` Read as ${t.read} (${tileName(t.read)}), ${Math.round(100 * t.confidence)}% sure` +
      (t.tile !== t.read ? `; you changed it to ${t.tile} (${tileName(t.tile)}).` : ".") + (t.notTile ? " You marked it “Not a tile”." : "")));
    const others = [{ tile: t.read, confidence: t.confidence }].concat(t.alternatives || []).filter((a) => a.tile && a.tile !== t.tile);
    show("fixer-alts-box", others.length > 0);
    others.forEach((a) => alts.appendChild(tileEl(a.tile, {
      note: a.tile === t.read ? "as read" : `${Math.round(100 * a.confidence)}%`,
      label: `${tileName(a.tile)}, ${Math.round(100 * a.confidence)}% sure`,
      onclick: () => { closeFixer(); fixTile(i, a.tile); },
    })));
    const targets = ["hand"];
    state.photo.groups.forEach((g, gi) => { if (isMeld(g)) targets.push("meld:" + gi); });
    targets.push("newmeld", "dora", "flowers", "ignored");
    const here = !at ? "ignored" : at.group.kind === "hand" || at.group.kind === "win" ? "hand" : isMeld(at.group) ? "meld:" + at.g : at.group.kind === "loose" ? "ignored" : at.group.kind;
    targets.filter((x) => x !== here || t.notTile).forEach((x) => {
      const b = el("button", { type: "button", "data-move": x }, whereWords(x));
      b.addEventListener("click", () => { closeFixer(); moveTile(i, x); });
      moves.appendChild(b);
    });
    show("fixer-win", !!at && at.group.kind === "hand" && i !== winIndex() && !t.notTile);
    show("fixer-nottile", !t.notTile && !t.added);
    show("fixer-remove", !!t.added && !t.notTile);
  }
  show("fixer-moves", what.index !== undefined);
  $("fixer-moves").previousElementSibling.hidden = what.index === undefined;
  $("fixer-palette-title").textContent = what.add ? "The tile" : "Or any tile";
  fillPalette($("fixer-palette"), (code) => {
    const f = state.fixing;
    closeFixer();
    if (f.add) addTile(code, f.add);
    else if (f.typed !== undefined) { state.typed.hand[f.typed] = code; typedChanged(); }
    else fixTile(f.index, code);
  });
  const d = $("fixer");
  if (!d.open) d.showModal();
}

function closeFixer() {
  const d = $("fixer");
  if (d.open) d.close();
}

function fixerAction(kind) {
  const f = state.fixing;
  closeFixer();
  if (!f) return;
  if (f.typed !== undefined) {
    if (kind === "win") state.typed.win = f.typed;
    if (kind === "remove") {
      state.typed.hand.splice(f.typed, 1);
      if (state.typed.win >= state.typed.hand.length || f.typed === state.typed.win) state.typed.win = state.typed.hand.length - 1;
      else if (f.typed < state.typed.win) state.typed.win--;
    }
    typedChanged();
    return;
  }
  if (kind === "win") setWin(f.index);
  if (kind === "nottile") notTile(f.index);
  if (kind === "remove") edit(`removed ${state.photo.tiles[f.index].tile}`, () => { state.photo.tiles[f.index].notTile = true; takeOut(f.index); });
}

// fillPalette offers every tile, and the jokers, kings and queens of the
// rule set chosen (GET /v1/rules says which it plays with).
function fillPalette(box, pick) {
  box.replaceChildren();
  PALETTE.concat(ruleSet().tiles || []).forEach((code) => box.appendChild(tileEl(code, { onclick: () => pick(code) })));
}

// ---- typed hands ----

function typedChanged() {
  state.source = "typed";
  renderHand();
  invalidateResult("The hand changed");
}

// leavePhoto: the hand now comes from the tiles entered; the photo's hand,
// its boxes and its dora and flowers go.
function leavePhoto() {
  if (state.source !== "photo" && !state.photo) return;
  const typed = state.typed;
  forgetHand("The hand changed");
  state.typed = typed;
  state.seq.photo++;
  $("photo-view").hidden = true;
  $("legend").hidden = true;
  $("photo-status").className = "";
  $("photo-status").textContent = "The hand now comes from the tiles entered; take a photo to read one again.";
}

let notationTimer = 0, notationDone = () => {};
function onNotation() {
  clearTimeout(notationTimer);
  notationDone(); // the reading it replaces is never scored
  const my = ++state.seq.notation;
  leavePhoto();
  state.source = "typed";
  invalidateResult("The notation changed");
  // Until the service has read it, this notation is not scored, and neither
  // is the hand before it.
  state.typedError = "";
  state.typed = { hand: [], melds: [], win: -1 };
  renderHand();
  $("hand-check").textContent = "Reading the notation…";
  let done;
  state.pending = new Promise((r) => { done = r; });
  notationDone = done;
  notationTimer = setTimeout(async () => {
    const q = $("notation").value.trim();
    if (!q) { if (my === state.seq.notation) { state.source = null; renderHand(); } done(); return; }
    const kind = $("notation-kind").value;
    const { ok, data } = await api("GET", "/v1/notation?mpsz=" + encodeURIComponent(q) + (kind === "mcr" ? "&notation=mcr" : ""));
    if (my === state.seq.notation) {
      if (!ok) {
        state.typedError = (data.detail || "it could not be read.").replace(/^notation: /, "");
        if (!/[.!?]$/.test(state.typedError)) state.typedError += ".";
      } else {
        state.typed = { hand: data.tiles.slice(), melds: data.melds || [], win: data.tiles.length - 1 };
        const w = data.win_tile ? data.tiles.lastIndexOf(data.win_tile) : -1;
        if (w >= 0) state.typed.win = w;
      }
      state.source = "typed";
      renderHand();
    }
    done();
  }, 250);
}

// ---- scoring ----

function situation() {
  const req = { id: "web", rules: $("rules").value, preset: $("preset").value, tsumo: $("tsumo").checked };
  if (uses("seat_wind")) req.seat_wind = $("seat").value;
  if (uses("round_wind")) req.round_wind = $("round").value;
  if (uses("ura_dora_indicators")) req.ura_dora_indicators = $("ura").value.trim();
  if (uses("honba")) req.honba = parseInt($("honba").value, 10) || 0;
  if (uses("riichi_sticks")) req.riichi_sticks = parseInt($("sticks").value, 10) || 0;
  for (const f of ["riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei", "last_tile_of_kind"]) {
    if (uses(f)) req[f] = $(f).checked;
  }
  const options = chosenOptions();
  if (Object.keys(options).length) req.options = options;
  return req;
}

// ---- the rule set: its situation fields, options and presets ----

let ruleSets = [];

function ruleSet() {
  return ruleSets.find((x) => x.name === $("rules").value) || { name: $("rules").value, presets: [], options: [], fields: null };
}

// uses says whether the chosen rule set reads a situation field (every
// field when the service did not say).
function uses(field) {
  const f = ruleSet().fields;
  return !f || f.includes(field);
}

// OPTIONS says each option in words, and what values it takes: "bool",
// "int", "text" or a list of choices. An option the page does not know is
// shown by its name with a text box.
const OPTIONS = {
  open_tanyao: ["Open tanyao (kuitan): all simples counts with calls", "bool"],
  aka_dora: ["Red fives count as dora", "bool"],
  double_yakuman: ["Some yakuman count double", "bool"],
  kazoe_yakuman: ["13 han or more is a yakuman (kazoe)", "bool"],
  kiriage_mangan: ["Round 4 han 30 fu and 3 han 60 fu up to mangan (kiriage)", "bool"],
  renhou: ["Renhou (win on a discard before your first draw) counts", "bool"],
  double_wind_fu: ["Fu for a pair of the seat and round wind", [2, 4]],
  pao: ["Liability (pao): the seat that fed the big hand", ["E", "S", "W", "N"]],
  min_faan: ["Minimum faan", [0, 1, 3]],
  bonus_toward_minimum: ["Flowers count toward the minimum", "bool"],
  limit: ["Faan limit", "int"],
  table: ["Payment table", ["half-spicy", "full-spicy"]],
  payment: ["Who pays", ["shared", "discarder-only", "full-responsibility"]],
  seven_pairs: ["Seven pairs counts", "bool"],
  pure_straight: ["Pure straight counts", "bool"],
  flower_replacement: ["Won on the tile drawn for a flower", "bool"],
  two_concealed_kongs: ["Points for two concealed kongs", [6, 8]],
  minimum: ["Minimum points to win", "int"],
  melded_hand_added_kong: ["An added kong keeps Melded Hand", "bool"],
  all_terminals_double_pung: ["All Terminals also counts Double Pung", "bool"],
  discard_win_pung_only: ["A discard wins only when it completes a pung", "bool"],
  limits: ["Limit hands are paid", "bool"],
  limit_value: ["The limit", "int"],
  bonus_tiles: ["Flowers and seasons count", "bool"],
  robbed_kong_concealed: ["A hand that robs a kong counts as concealed", "bool"],
  chicken_hand: ["Chicken hand counts", "bool"],
  uniform_payoff: ["Everyone pays the same", "bool"],
  nine_gates_on_heaven: ["Nine gates counts on a heavenly hand", "bool"],
  responsible: ["The player liable for the hand (seat)", ["E", "S", "W", "N"]],
  passed_own_winning_tile: ["The winner passed their own winning tile", "bool"],
  penalty_tiles: ["Penalty tiles", "text"],
  card: ["The card", "text"],
};

function optionWords(name) {
  return (OPTIONS[name] || [name.replace(/_/g, " ")])[0];
}

// showRuleSet shows the situation fields, presets and options of the rule
// set chosen, and nothing of any other.
function showRuleSet() {
  const r = ruleSet();
  document.querySelectorAll("#situation [data-field], #tap-modes [data-field]").forEach((e) => { e.hidden = !uses(e.dataset.field); });
  if (document.querySelector(`#tap-modes [data-mode="${state.tapMode}"]`).hidden) setTapMode("hand"); // no dora under these rules
  $("preset").replaceChildren(...[""].concat((r.presets || []).filter((p) => p !== "" && p !== "default")).map((p) => el("option", { value: p }, p || "(default)")));
  const box = $("options");
  box.replaceChildren();
  (r.options || []).forEach((name) => {
    const [words, kind0] = OPTIONS[name] || [optionWords(name), "text"];
    const kind = (r.choices && r.choices[name]) || kind0;
    const id = "opt-" + name;
    const label = el("label", { for: id }, words + " ");
    let input;
    if (kind === "int" || kind === "text") {
      input = el("input", { id, type: kind === "int" ? "number" : "text", placeholder: "as the preset says", autocomplete: "off" });
      if (kind === "int") input.min = "0";
    } else {
      input = el("select", { id });
      const values = kind === "bool" ? [["", "As the preset says"], ["true", "Yes"], ["false", "No"]] :
        [["", "As the preset says"]].concat(kind.map((v) => [String(v), String(v)]));
      values.forEach(([v, t]) => input.appendChild(el("option", { value: v }, t)));
    }
    input.dataset.option = name;
    input.dataset.kind = Array.isArray(kind) ? (typeof kind[0] === "number" ? "int" : "text") : kind;
    label.appendChild(input);
    box.appendChild(label);
  });
  $("options-box").hidden = !(r.options || []).length;
}

// chosenOptions are the options the player set, as the request sends them.
function chosenOptions() {
  const out = {};
  document.querySelectorAll("#options [data-option]").forEach((e) => {
    const v = e.value.trim();
    if (v === "") return;
    const kind = e.dataset.kind;
    if (kind === "bool") out[e.dataset.option] = v === "true";
    else if (kind === "int") out[e.dataset.option] = /^-?[0-9]+$/.test(v) ? parseInt(v, 10) : v;
    else out[e.dataset.option] = v;
  });
  return out;
}

// FIELD_WORDS names the request's fields as the form does.
const FIELD_WORDS = {
  seat_wind: "the seat wind", round_wind: "the round wind", win_tile: "the winning tile", dora_indicators: "the dora indicators",
  ura_dora_indicators: "the ura dora indicators", riichi_sticks: "the riichi sticks", honba: "the honba",
  double_riichi: "double riichi", last_tile_of_kind: "“last tile of its kind”", rinshan: "“kong replacement”",
  chankan: "“robbing a kong”", haitei: "“last wall tile”", houtei: "“last discard”", tsumo: "self-draw",
  "extra.discarder": "the discarder", nuki: "the north tiles set aside", melds: "the melds", win: "the winning tile",
};

// inWords says an answer of the service in the page's words: an option by
// its name on the form, a request field by its label, never its API name.
function inWords(msg) {
  return String(msg || "")
    .replace(/\boptions? ((?:"[a-z_]+"(?:, )?)+)/g, (m, names) => "the option" + (names.includes(",") ? "s " : " ") +
      names.split(", ").map((n) => "“" + optionWords(n.replace(/"/g, "")) + "”").join(", "))
    .replace(/\boption ([a-z_]+)/g, (m, n) => "the option “" + optionWords(n) + "”")
    .replace(/\b(extra\.discarder|[a-z]+(?:_[a-z]+)+)\b/g, (m) => FIELD_WORDS[m] || (OPTIONS[m] ? "“" + optionWords(m) + "”" : m.replace(/_/g, " ")))
    .replace(/\bmelds\[(\d+)\]/g, (m, i) => "meld " + (parseInt(i, 10) + 1))
    .replace(/^[a-z]/, (c) => c.toUpperCase());
}

async function score() {
  const my = ++state.seq.score;
  $("result").replaceChildren(el("p", {}, "Scoring…"));
  for (let p = null; p !== state.pending;) { p = state.pending; await p; } // the hand of the latest edit or notation
  if (my !== state.seq.score) return;
  const hand = handRequest();
  if (hand.error) { showResultError(hand.error); return; }
  const req = Object.assign(situation(), hand);
  const key = JSON.stringify(req);
  const { data } = await api("POST", "/v1/scores", req);
  if (my !== state.seq.score) return;
  const now = handRequest();
  if (now.error || JSON.stringify(Object.assign(situation(), now)) !== key) {
    invalidateResult("The hand or the rules changed while it was scored"); // a stale answer is never shown
    return;
  }
  if (data && data.ok === undefined && data.detail) { showResultError(data.detail); return; }
  renderResult(data, req);
}

// ---- set-up ----

function showTab(name) {
  for (const t of ["photo", "tiles"]) {
    $(t + "-panel").hidden = t !== name;
    $("tab-" + t).classList.toggle("active", t === name);
    $("tab-" + t).setAttribute("aria-pressed", t === name ? "true" : "false");
  }
}

async function loadRules() {
  const { data } = await api("GET", "/v1/rules");
  const rules = $("rules");
  ruleSets = data.rules || [];
  ruleSets.forEach((r) => {
    const o = el("option", { value: r.name }, r.name);
    o.selected = r.name === "riichi";
    rules.appendChild(o);
  });
  rules.addEventListener("change", () => {
    showRuleSet();
    fillPalette($("palette"), paletteTap);
    invalidateResult(`The rules changed to ${rules.value}`);
  });
  showRuleSet();
  fillPalette($("palette"), paletteTap);
  if (data.versions) $("versions").textContent = `engine ${data.versions.engine}`;
}

// ---- tap entry: the palette builds the hand, its melds, dora and flowers ----

const MELD_MODES = { chi: "chi", pon: "pon", minkan: "minkan", kakan: "kakan", ankan: "ankan" };
const TAP_HINTS = {
  hand: "Tap the tiles of the hand; tap the winning tile last. Flowers go to Flowers.",
  chi: "Chi: tap the lowest tile of the chow (it was called from the left).",
  pon: "Pon: tap the tile of the pung, and say whom it was called from.",
  minkan: "Open kan: tap the tile of the kong, and say whom it was called from.",
  kakan: "Added kan: tap the tile of the kong added to a pon, and say whom the pon came from.",
  ankan: "Concealed kan: tap the tile of the kong.",
  dora: "Dora: tap each dora indicator (the tile turned up, not the dora).",
  ura: "Ura dora: tap each ura dora indicator.",
};

function setTapMode(mode) {
  state.tapMode = mode;
  for (const id of ["dora", "ura", "flowers"]) $(id).addEventListener("input", () => { if (state.source === "typed") renderHand(); });
  document.querySelectorAll("#tap-modes [data-mode]").forEach((b) => b.setAttribute("aria-pressed", b.dataset.mode === mode ? "true" : "false"));
  $("called-from-box").hidden = !["pon", "minkan", "kakan"].includes(mode);
  $("tap-hint").className = "note";
  $("tap-hint").textContent = TAP_HINTS[mode];
}

function tapHint(msg) {
  $("tap-hint").className = "note error";
  $("tap-hint").textContent = msg;
}

// tileNumber is a suited tile's number, a red five counting as 5.
function tileNumber(code) { return code[0] === "0" ? 5 : parseInt(code[0], 10); }

// meldOf builds the meld a tap makes in a meld mode, or says why not.
function meldOf(mode, code) {
  const suit = code[1];
  if (!/[mpsz]/.test(suit) || code === "0z") return { error: "Only suit tiles and honours make melds." };
  const n = tileNumber(code);
  if (mode === "chi") {
    if (suit === "z") return { error: "A chow is three suit tiles in a row: honours make no chow." };
    if (n > 7) return { error: "Tap the lowest tile of the chow: a chow from " + code + " runs past 9." };
    return { type: "chi", tiles: joinTiles([code, `${n + 1}${suit}`, `${n + 2}${suit}`]), from: "left" };
  }
  const four = mode !== "pon";
  const plain = `${n}${suit}`;
  const tiles = [code, plain, plain].concat(four ? [plain] : []);
  return { type: mode, tiles: joinTiles(tiles), from: mode === "ankan" ? "" : $("called-from").value };
}

function paletteTap(code) {
  if (state.source !== "typed") leavePhoto();
  if (state.typedError) { tapHint("Fix the notation in the box first, or press Clear."); return; }
  const mode = state.tapMode;
  if (/[fk]/.test(code[1])) {
    // Flowers, seasons, kings and queens are bonus tiles: they go to Flowers.
    if (!uses("flowers")) { tapHint(`${tileName(code)} is a bonus tile, and ${$("rules").value} plays none.`); return; }
    $("flowers").value = joinTiles(splitTiles($("flowers").value).concat(code));
  } else if (mode === "dora" || mode === "ura") {
    const box = $(mode === "dora" ? "dora" : "ura");
    box.value = joinTiles(splitTiles(box.value).concat(code));
  } else if (MELD_MODES[mode]) {
    if (state.typed.melds.length >= 4) { tapHint("A hand has at most four melds."); return; }
    const m = meldOf(mode, code);
    if (m.error) { tapHint(m.error); return; }
    state.typed.melds.push(m);
    setTapMode("hand");
  } else {
    state.typed.hand.push(code);
    state.typed.win = state.typed.hand.length - 1;
  }
  typedChanged();
  writeNotation();
}

// ---- the notation box: what the taps built, in the notation chosen ----

const MARKS = { left: "-", across: "=", right: "+" };

// mpszMeld writes a meld as ParseMPSZ reads it: "3-45p", "777=z", "5555p",
// "555=5m" (added), "5555+p" (open kong).
function mpszMeld(m) {
  const codes = splitTiles(m.tiles), suit = codes[0][1], d = codes.map((c) => c[0]);
  const mark = MARKS[m.from] || "-";
  if (m.type === "chi") return d[0] + "-" + d.slice(1).join("") + suit;
  if (m.type === "ankan") return d.join("") + suit;
  if (m.type === "kakan") return d.slice(0, 3).join("") + mark + d[3] + suit;
  return d.join("") + mark + suit;
}

// The MCR tools' honours: E S W N, then C (red) F (green) P (white).
const MCR_HONOURS = { "1z": "E", "2z": "S", "3z": "W", "4z": "N", "5z": "P", "6z": "F", "7z": "C" };
const MCR_FROM = { left: 1, across: 2, right: 3 };

function mcrTiles(codes) {
  let out = "", run = "", suit = "";
  for (const c0 of codes) {
    const c = c0[0] === "0" ? "5" + c0[1] : c0; // MCR has no red fives
    if (c[1] === "z") { out += run ? run + suit : ""; run = ""; suit = ""; out += MCR_HONOURS[c] || ""; continue; }
    if (c[1] !== suit && run) { out += run + suit; run = ""; }
    suit = c[1]; run += c[0];
  }
  return out + (run ? run + suit : "");
}

function mcrMeld(m) {
  const tiles = mcrTiles(splitTiles(m.tiles)), from = MCR_FROM[m.from] || 1;
  if (m.type === "chi") return `[${tiles}]`;
  if (m.type === "ankan") return `[${tiles}]`;
  if (m.type === "kakan") return `[${tiles},${from + 4}]`;
  return `[${tiles},${from}]`;
}

// writeNotation puts the typed hand in the box, the winning tile last.
function writeNotation() {
  const t = state.typed;
  const hand = t.hand.filter((_, i) => i !== t.win).concat(t.win >= 0 && t.win < t.hand.length ? [t.hand[t.win]] : []);
  const mcr = $("notation-kind").value === "mcr";
  $("notation").value = !hand.length && !t.melds.length ? "" : mcr ?
    t.melds.map(mcrMeld).join("") + mcrTiles(hand) :
    [joinTiles(hand)].concat(t.melds.map(mpszMeld)).join(",");
}

function removeMeld(k) {
  state.typed.melds.splice(k, 1);
  typedChanged();
  writeNotation();
}

// removeBonus takes tile p out of the dora, ura dora or flowers box.
function removeBonus(id, p) {
  const codes = splitTiles($(id).value);
  codes.splice(p, 1);
  $(id).value = joinTiles(codes);
  typedChanged();
}

async function checkPhotos() {
  const { data } = await api("GET", "/healthz");
  const on = data && data.recognition && data.recognition.ok;
  $("photo-on").hidden = !on;
  $("photo-off").hidden = !!on;
  if (!on) $("photo-off").textContent = "Photo recognition is not available on this server: enter the tiles instead.";
  showTab(on ? "photo" : "tiles");
}

function init() {
  $("tab-photo").addEventListener("click", () => showTab("photo"));
  $("tab-tiles").addEventListener("click", () => showTab("tiles"));
  $("clear").addEventListener("click", () => {
    $("notation").value = "";
    state.seq.notation++;
    leavePhoto();
    forgetHand("The hand was cleared");
    setTapMode("hand");
  });
  $("notation").addEventListener("input", onNotation);
  $("notation-kind").addEventListener("change", () => {
    // The hand stays; the box says it in the notation chosen (or, while it
    // does not read, is read again in it).
    if (state.source === "typed" && !state.typedError && state.typed.hand.length) writeNotation();
    else if ($("notation").value.trim()) onNotation();
  });
  document.querySelectorAll("#tap-modes [data-mode]").forEach((b) => b.addEventListener("click", () => setTapMode(b.dataset.mode)));
  $("score").addEventListener("click", score);
  $("undo").addEventListener("click", undo);
  $("photo-input").addEventListener("change", (e) => { if (e.target.files[0]) upload(e.target.files[0]); e.target.value = ""; });
  $("fixer-close").addEventListener("click", closeFixer);
  $("fixer-win").addEventListener("click", () => fixerAction("win"));
  $("fixer-nottile").addEventListener("click", () => fixerAction("nottile"));
  $("fixer-remove").addEventListener("click", () => fixerAction("remove"));
  $("preset").addEventListener("change", () => invalidateResult("The preset changed"));
  $("options").addEventListener("change", () => invalidateResult("The options changed"));
  $("options").addEventListener("input", () => invalidateResult("The options changed"));
  $("situation").addEventListener("change", (e) => { if (e.target.id !== "score") invalidateResult("The situation changed"); });
  $("situation").addEventListener("input", (e) => { if (e.target.tagName === "INPUT" && e.target.type !== "checkbox" && e.target.type !== "radio") invalidateResult("The situation changed"); });
  window.addEventListener("resize", () => { if (state.photo) fitPhoto(); });
  renderHand();
  loadRules();
  checkPhotos();
}

init();
