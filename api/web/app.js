// mjscan phone page: enter or photograph a hand, fix what was misread,
// score it. Plain JavaScript against the service's own JSON API.
"use strict";

const $ = (id) => document.getElementById(id);

// Unicode mahjong tiles for CONTRACT codes (5z white, 6z green, 7z red).
const GLYPHS = (() => {
  const g = {};
  for (let i = 1; i <= 9; i++) {
    g[i + "m"] = String.fromCodePoint(0x1f006 + i);
    g[i + "s"] = String.fromCodePoint(0x1f00f + i);
    g[i + "p"] = String.fromCodePoint(0x1f018 + i);
  }
  g["0m"] = g["5m"]; g["0s"] = g["5s"]; g["0p"] = g["5p"];
  ["1z", "2z", "3z", "4z"].forEach((c, i) => { g[c] = String.fromCodePoint(0x1f000 + i); });
  g["5z"] = "\u{1f006}"; g["6z"] = "\u{1f005}"; g["7z"] = "\u{1f004}\u{fe0e}";
  g["1f"] = "\u{1f022}"; g["2f"] = "\u{1f023}"; g["3f"] = "\u{1f025}"; g["4f"] = "\u{1f024}";
  for (let i = 5; i <= 8; i++) g[i + "f"] = String.fromCodePoint(0x1f021 + i);
  g["0z"] = "\u{1f02b}"; g["9j"] = "\u{1f02a}";
  return g;
})();

const PALETTE = [];
for (const s of ["m", "p", "s"]) for (let i = 1; i <= 9; i++) PALETTE.push(i + s);
for (let i = 1; i <= 7; i++) PALETTE.push(i + "z");
PALETTE.push("0m", "0p", "0s");
for (let i = 1; i <= 8; i++) PALETTE.push(i + "f");

// The hand being built: concealed tile codes, melds, which tile won.
const state = { hand: [], melds: [], win: -1, rec: null, fixing: -1, pending: null };

function tileEl(code, opts = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "tile" + (code[0] === "0" && code[1] !== "z" ? " red" : "") + (opts.cls ? " " + opts.cls : "");
  b.dataset.tile = code;
  b.title = code;
  b.innerHTML = `<span class="glyph">${GLYPHS[code] || "?"}</span><span class="code">${code}</span>`;
  if (opts.onclick) b.addEventListener("click", opts.onclick);
  return b;
}

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

// joinTiles writes ["1m","2m","5z"] as "12m5z".
function joinTiles(codes) {
  let out = "", run = "", suit = "";
  for (const c of codes) {
    if (c[1] !== suit && run) { out += run + suit; run = ""; }
    suit = c[1]; run += c[0];
  }
  return out + (run ? run + suit : "");
}

async function api(method, path, body, headers = {}) {
  const init = { method, headers };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) { init.body = JSON.stringify(body); init.headers["Content-Type"] = "application/json"; }
  const resp = await fetch(path, init);
  let data = null;
  try { data = await resp.json(); } catch (e) { data = { detail: "the service answered " + resp.status }; }
  return { status: resp.status, ok: resp.ok, data };
}

function renderHand() {
  const h = $("hand");
  h.replaceChildren();
  state.hand.forEach((code, i) => {
    h.appendChild(tileEl(code, {
      cls: i === state.win ? "win" : "",
      onclick: () => { state.hand.splice(i, 1); state.win = state.hand.length - 1; renderHand(); },
    }));
  });
  const m = $("melds");
  m.replaceChildren();
  state.melds.forEach((meld) => {
    splitTiles(meld.tiles).forEach((code) => m.appendChild(tileEl(code, { cls: "meld" })));
    const sep = document.createElement("span");
    sep.textContent = ` ${meld.type}${meld.from ? " from " + meld.from : ""}  `;
    sep.className = "note";
    m.appendChild(sep);
  });
  const win = $("win");
  win.replaceChildren();
  state.hand.forEach((code, i) => {
    const o = document.createElement("option");
    o.value = i; o.textContent = code; o.selected = i === state.win;
    win.appendChild(o);
  });
}

function setHand(codes, melds, winCode) {
  state.hand = codes.slice();
  state.melds = melds || [];
  state.win = state.hand.length - 1;
  if (winCode) {
    const i = state.hand.lastIndexOf(winCode);
    if (i >= 0) state.win = i;
  }
  renderHand();
}

function buildRequest() {
  const req = {
    id: "web", rules: $("rules").value, preset: $("preset").value,
    hand: joinTiles(state.hand),
    win_tile: state.win >= 0 ? state.hand[state.win] : "",
    melds: state.melds,
    tsumo: $("tsumo").checked,
    seat_wind: $("seat").value, round_wind: $("round").value,
    dora_indicators: $("dora").value.trim(), ura_dora_indicators: $("ura").value.trim(),
    flowers: $("flowers").value.trim(),
    honba: parseInt($("honba").value, 10) || 0, riichi_sticks: parseInt($("sticks").value, 10) || 0,
  };
  for (const f of ["riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei", "last_tile_of_kind"]) {
    req[f] = $(f).checked;
  }
  return req;
}

function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

function table(rows, head) {
  if (!rows.length) return "";
  return `<table>${head ? "<tr>" + head.map((h) => `<th>${esc(h)}</th>`).join("") + "</tr>" : ""}` +
    rows.map((r) => "<tr>" + r.map((c, i) => `<td class="${typeof c === "number" ? "n" : ""}">${esc(c)}</td>`).join("") + "</tr>").join("") +
    "</table>";
}

function renderResult(r) {
  const out = [];
  if (!r.ok) {
    const err = r.error || { message: r.detail || "could not score" };
    out.push(`<p class="error" id="result-error">${esc(err.message || err.detail)}</p>`);
    if (r.waits) out.push(`<p>Waits / improving tiles: ${esc(r.waits)}</p>`);
    if (r.fan) out.push(`<p>Fan counted: ${r.fan}</p>`);
  } else {
    out.push(`<p class="total" id="result-total">${r.points ? r.points.total : 0} points</p>`);
    const parts = [];
    if (r.yakuman) parts.push(`${r.yakuman}× yakuman`);
    else if (r.han) parts.push(`${r.han} han ${r.fu} fu`);
    if (r.limit) parts.push(r.limit);
    if (r.fan) parts.push(`${r.fan} fan`);
    if (r.value) parts.push(`value ${r.value}`);
    if (r.score) parts.push(`score ${r.score}`);
    out.push(`<p id="result-summary">${esc(parts.join(", "))}</p>`);
  }
  if (r.yaku && r.yaku.length) out.push("<h2>Yaku</h2>" + table(r.yaku.map((y) => [y.name, y.yakuman ? y.yakuman + "× yakuman" : y.han + " han"])));
  if (r.fans && r.fans.length) out.push("<h2>Fans</h2>" + table(r.fans.map((f) => [f.name, f.count > 1 ? `${f.fan} × ${f.count}` : f.fan])));
  if (r.patterns && r.patterns.length) out.push("<h2>Patterns</h2>" + table(r.patterns.map((p) => [p.name, p.points || (p.doubles ? p.doubles + " double" : ""), p.detail || ""])));
  const b = r.breakdown || {};
  if (b.fu && b.fu.length) out.push("<h2>Fu</h2>" + table(b.fu.map((f) => [f.reason, f.set || "", f.fu])));
  if (b.sets && b.sets.length) out.push("<h2>Sets</h2>" + table(b.sets.map((s) => [s.tiles, s.kind + (s.open ? " (open)" : ""), s.fu ? s.fu + " fu" : ""])));
  if (r.points && r.points.payments && r.points.payments.length) {
    out.push("<h2>Payments</h2>" + table(r.points.payments.map((p) => [p.from, p.amount, p.note || ""])));
  }
  if (b.alternatives && b.alternatives.length > 1) {
    out.push("<h2>Readings considered</h2>" + table(b.alternatives.map((a) =>
      [(a.chosen ? "✓ " : "") + (a.arrangement || ""), a.yakuman ? a.yakuman + "× yakuman" : `${a.han} han ${a.fu} fu`, a.total])));
  }
  if (r.versions) $("versions").textContent = `engine ${r.versions.engine}` + (r.versions.model ? `, model ${r.versions.model}` : "");
  $("result").innerHTML = out.join("");
}

async function score() {
  $("result").textContent = "Scoring…";
  if (state.pending) await state.pending; // the hand of the latest correction
  const { data } = await api("POST", "/v1/scores", buildRequest());
  if (data && data.ok === undefined && data.detail) { // a problem that is not a result
    $("result").innerHTML = `<p class="error" id="result-error">${esc(data.detail)}</p>`;
    return;
  }
  renderResult(data);
}

// ---- photo ----

function newKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Date.now().toString(36) + Math.random().toString(36).slice(2);
}

async function upload(file) {
  $("photo-status").textContent = "Reading the tiles…";
  $("photo-img").src = URL.createObjectURL(file);
  const form = new FormData();
  form.append("photo", file);
  const { ok, data } = await api("POST", "/v1/recognitions", form, { "Idempotency-Key": newKey() });
  if (!ok) { $("photo-status").innerHTML = `<span class="error">${esc(data.detail || "could not read the photo")}</span>`; return; }
  state.rec = data;
  $("photo-status").textContent = `${data.tiles.length} tiles found. Tap any that are wrong.`;
  renderBoxes();
  state.pending = handFromRecognition();
}

function renderBoxes() {
  const rec = state.rec, layer = $("boxes");
  layer.replaceChildren();
  if (!rec || !rec.width) return;
  rec.tiles.forEach((t, i) => {
    const [x0, y0, x1, y1] = t.box;
    const d = document.createElement("div");
    d.className = "box" + (t.fixed ? " fixed" : t.confidence < 0.6 ? " low" : "");
    d.dataset.index = i;
    Object.assign(d.style, {
      left: (100 * x0 / rec.width) + "%", top: (100 * y0 / rec.height) + "%",
      width: (100 * (x1 - x0) / rec.width) + "%", height: (100 * (y1 - y0) / rec.height) + "%",
    });
    d.innerHTML = `<span>${esc(t.tile)}</span>`;
    d.addEventListener("click", () => openFixer(i));
    layer.appendChild(d);
  });
}

// handFromRecognition shows the hand the service builds from the photo's
// tiles (as corrected) and their grouping: the page never puts a hand
// together itself. The recognition carries it when complete and nothing
// was corrected; otherwise POST /v1/recognitions/hand builds it by the
// same rule. Scoring waits for it (state.pending).
function handFromRecognition() {
  const rec = state.rec;
  if (!rec) return Promise.resolve();
  if (rec.hand && !rec.tiles.some((t) => t.fixed)) { useHand(rec.hand); return Promise.resolve(); }
  const body = { tiles: rec.tiles.map((t) => ({ tile: t.tile, box: t.box, rotated: !!t.rotated })), groups: rec.groups || [] };
  return api("POST", "/v1/recognitions/hand", body).then(({ ok, data }) => {
    if (!ok) { $("photo-status").innerHTML = `<span class="error">${esc(data.detail || "could not build the hand")}</span>`; return; }
    useHand(data.hand);
  });
}

// useHand shows a hand request from the service: its tiles, melds and
// winning tile, and the dora indicators and flowers it found.
function useHand(h) {
  setHand(splitTiles(h.hand), h.melds || [], h.win_tile || "");
  if (h.dora_indicators) $("dora").value = h.dora_indicators;
  if (h.flowers) $("flowers").value = h.flowers;
}

function openFixer(i) {
  state.fixing = i;
  const t = state.rec.tiles[i];
  const alts = $("fixer-alts");
  alts.replaceChildren();
  (t.alternatives || []).forEach((a) => alts.appendChild(tileEl(a.tile, { onclick: () => fixTile(a.tile) })));
  $("fixer").hidden = false;
}

function fixTile(code) {
  const t = state.rec.tiles[state.fixing];
  if (t.tile !== code) {
    t.alternatives = [{ tile: t.tile, confidence: t.confidence }].concat((t.alternatives || []).filter((a) => a.tile !== code));
    t.tile = code; t.fixed = true;
  }
  $("fixer").hidden = true;
  renderBoxes();
  state.pending = handFromRecognition();
}

// ---- set-up ----

function showTab(name) {
  for (const t of ["photo", "tiles"]) {
    $(t + "-panel").hidden = t !== name;
    $("tab-" + t).classList.toggle("active", t === name);
  }
}

async function loadRules() {
  const { data } = await api("GET", "/v1/rules");
  const rules = $("rules");
  (data.rules || []).forEach((r) => {
    const o = document.createElement("option");
    o.value = r.name; o.textContent = r.name; o.selected = r.name === "riichi";
    rules.appendChild(o);
  });
  const presets = () => {
    const r = (data.rules || []).find((x) => x.name === rules.value) || { presets: [] };
    $("preset").replaceChildren(...[""].concat(r.presets.filter((p) => p !== "")).map((p) => {
      const o = document.createElement("option"); o.value = p; o.textContent = p || "(default)"; return o;
    }));
  };
  rules.addEventListener("change", presets);
  presets();
  if (data.versions) $("versions").textContent = `engine ${data.versions.engine}`;
}

async function checkPhotos() {
  const { data } = await api("GET", "/healthz");
  const on = data && data.recognition && data.recognition.ok;
  $("photo-on").hidden = !on;
  $("photo-off").hidden = !!on;
  if (!on) $("photo-off").textContent = "Photo recognition is not available on this server: enter the tiles instead.";
  showTab(on ? "photo" : "tiles");
}

let notationTimer = 0;
function onNotation() {
  clearTimeout(notationTimer);
  notationTimer = setTimeout(async () => {
    const q = $("notation").value.trim();
    if (!q) return;
    const { ok, data } = await api("GET", "/v1/notation?mpsz=" + encodeURIComponent(q));
    if (!ok) { $("result").innerHTML = `<p class="error">${esc(data.detail)}</p>`; return; }
    $("result").textContent = "";
    setHand(data.tiles, data.melds, data.win_tile);
  }, 250);
}

function init() {
  const pal = $("palette"), fpal = $("fixer-palette");
  PALETTE.forEach((code) => {
    pal.appendChild(tileEl(code, { onclick: () => { state.hand.push(code); state.win = state.hand.length - 1; renderHand(); } }));
    fpal.appendChild(tileEl(code, { onclick: () => fixTile(code) }));
  });
  $("tab-photo").addEventListener("click", () => showTab("photo"));
  $("tab-tiles").addEventListener("click", () => showTab("tiles"));
  $("clear").addEventListener("click", () => { setHand([], [], ""); $("notation").value = ""; });
  $("notation").addEventListener("input", onNotation);
  $("win").addEventListener("change", () => { state.win = parseInt($("win").value, 10); renderHand(); });
  $("score").addEventListener("click", score);
  $("photo-input").addEventListener("change", (e) => { if (e.target.files[0]) upload(e.target.files[0]); });
  $("fixer-close").addEventListener("click", () => { $("fixer").hidden = true; });
  renderHand();
  loadRules();
  checkPhotos();
}

init();
