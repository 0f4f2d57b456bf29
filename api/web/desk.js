// mjscan desks: what the referee's and the organiser's pages share. The
// staff token is typed in once and kept in this tab's sessionStorage (never
// in a URL, never in localStorage); every call sends it as
// Authorization: Bearer, as the tournament routes expect.
"use strict";

const $ = (id) => document.getElementById(id);

const SUITS = { m: "characters", p: "dots", s: "bamboo" };
const HONOURS = ["", "East wind", "South wind", "West wind", "North wind", "White dragon", "Green dragon", "Red dragon"];

function tileName(code) {
  const n = parseInt(code[0], 10), s = code[1];
  if (SUITS[s]) return n === 0 ? `red 5 ${SUITS[s]}` : `${n} ${SUITS[s]}`;
  if (s === "z") return n === 0 ? "face-down tile" : HONOURS[n] || code;
  if (s === "f") return n <= 4 ? `Flower ${n}` : `Season ${n - 4}`;
  if (s === "k") return n <= 4 ? `King ${n}` : `Queen ${n - 4}`;
  if (s === "j") return "Joker";
  return code;
}

function isTileCode(code) {
  return /^([0-9][mps]|[0-7]z|[1-8][fk]|[1-9]j)$/.test(code);
}

// splitTiles reads "123m55z" into ["1m","2m","3m","5z","5z"].
function splitTiles(s) {
  const out = [];
  let digits = "";
  for (const ch of (s || "").replace(/[\s,()\[\]=+\-]/g, "")) {
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

// tileRow draws tiles as pictures (the shipped art), each with its code as
// a caption and its name for a screen reader.
function tileRow(codes, cls = "") {
  const d = el("span", { cls: "tiles static " + cls });
  for (const c of codes) {
    const wrap = el("span", { cls: "tile-pic", role: "img", "aria-label": tileName(c), "data-tile": c });
    const pic = el("span", { cls: "pic" + (c === "0z" ? " back" : "") });
    if (c !== "0z" && isTileCode(c)) {
      const img = el("img", { src: `/web/tiles/${c}.svg`, alt: "" });
      pic.appendChild(img);
    }
    wrap.appendChild(pic);
    wrap.appendChild(el("span", { cls: "code" }, c));
    d.appendChild(wrap);
  }
  return d;
}

function table(head, rows, attrs = {}) {
  const t = el("table", attrs);
  if (head) {
    const tr = el("tr");
    for (const h of head) tr.appendChild(el("th", { scope: "col" }, h));
    t.appendChild(tr);
  }
  for (const r of rows) {
    const tr = el("tr");
    for (const c of r) {
      const td = el("td", typeof c === "number" ? { cls: "n" } : {});
      if (c instanceof Node) td.appendChild(c); else td.textContent = c === undefined || c === null ? "" : String(c);
      tr.appendChild(td);
    }
    t.appendChild(tr);
  }
  return t;
}

// sentence makes an API message a sentence a person reads.
function sentence(s) {
  s = String(s || "").trim();
  if (!s) return "";
  s = s[0].toUpperCase() + s.slice(1);
  return /[.!?]$/.test(s) ? s : s + ".";
}

// ---- the token ----

const desk = {
  role: document.body.dataset.desk, // "referee" or "organiser"
  key(role) { return "mjscan.token." + (role || this.role); },
  token(role) { return sessionStorage.getItem(this.key(role)) || ""; },
};

// keyed are the writes the service takes with an Idempotency-Key: a game
// created, a hand recorded or corrected, a ruling, an overturn, a
// confirmation, a score-now. call sends each with a key of its own and,
// when the answer is lost (no connection) or the service is briefly
// unable (502-504, or the first try still running), sends it again with
// the same key: the service runs it once and answers every try alike, so
// nothing is lost and nothing is recorded twice.
const keyed = [/^\/v1\/games$/, /^\/v1\/games\/[^/]+\/hands(\/\d+\/correct)?$/, /^\/v1\/records$/,
  /^\/v1\/records\/[^/]+\/(overturn|confirm)$/, /^\/v1\/tables\/[^/]+\/score-now$/];
const retryWaits = [1000, 2000, 4000]; // ms before each new try

// call asks the service, with the desk's token (or the one named), and
// answers {status, ok, data} for JSON or {blob} with as: "blob".
async function call(method, path, body, opts = {}) {
  const headers = Object.assign({}, opts.headers || {});
  const tok = opts.token !== undefined ? opts.token : desk.token(opts.role);
  if (tok) headers.Authorization = "Bearer " + tok;
  const retries = method === "POST" && keyed.some((re) => re.test(path)) ? retryWaits : [];
  if (retries.length) headers["Idempotency-Key"] = newKey();
  const init = { method, headers };
  if (body !== undefined) { init.body = JSON.stringify(body); headers["Content-Type"] = "application/json"; }
  let resp;
  for (let attempt = 0; ; attempt++) {
    try {
      resp = await fetch(path, init);
    } catch (e) {
      resp = null;
    }
    const again = !resp || [502, 503, 504].includes(resp.status) || (resp.status === 409 && resp.headers.get("Retry-After"));
    if (!again || attempt >= retries.length) break;
    const after = resp && parseInt(resp.headers.get("Retry-After") || "", 10);
    await new Promise((done) => setTimeout(done, after > 0 ? Math.min(after * 1000, 5000) : retries[attempt]));
  }
  if (!resp) {
    return { status: 0, ok: false, data: { detail: "The service could not be reached: check the connection and try again." } };
  }
  if (resp.ok && opts.as === "blob") return { status: resp.status, ok: true, blob: await resp.blob(), type: resp.headers.get("Content-Type") || "" };
  if (resp.ok && opts.as === "text") return { status: resp.status, ok: true, text: await resp.text() };
  let data = null;
  try { data = await resp.json(); } catch (e) { data = { detail: `The service answered ${resp.status} with no explanation.` }; }
  if (resp.status === 401 && !opts.token && !opts.role) signedOut(data.detail);
  return { status: resp.status, ok: resp.ok, data };
}

// problem says what went wrong in the service's words.
function problem(out, data) {
  out.className = "error";
  out.textContent = sentence((data && (data.detail || data.title)) || "That did not work");
}

function say(out, text) {
  out.className = "ok";
  out.textContent = text;
}

function signedOut(why) {
  sessionStorage.removeItem(desk.key());
  showSignIn();
  if (why) { $("signin-status").className = "error"; $("signin-status").textContent = sentence(why) + " Type the token again."; }
}

function showSignIn() {
  const on = !!desk.token();
  $("signin").hidden = on;
  $("signed").hidden = !on;
  for (const e of document.querySelectorAll(".needs-token")) e.hidden = !on;
}

// download offers data as a file, without sending it anywhere.
function download(name, data, type) {
  const blob = data instanceof Blob ? data : new Blob([data], { type });
  const a = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

// resultParts lays out a scored result (CONTRACT JSON) as a referee or
// organiser reads it: the total, the han/fu or fan, and every line of the
// breakdown.
function resultParts(r) {
  const box = el("div", { cls: "breakdown" });
  if (!r) return box;
  if (r.ok === false) {
    box.appendChild(el("p", { cls: "error" }, sentence((r.error && r.error.message) || "The hand does not score")));
    return box;
  }
  const parts = [];
  if (r.yakuman) parts.push(`${r.yakuman}× yakuman`);
  else if (r.han) parts.push(`${r.han} han ${r.fu} fu`);
  if (r.limit) parts.push(r.limit);
  if (r.fan) parts.push(`${r.fan} fan`);
  if (r.value) parts.push(`value ${r.value}`);
  if (r.score) parts.push(`score ${r.score}`);
  box.appendChild(el("p", { cls: "total" }, `${r.points ? r.points.total : 0} points` + (parts.length ? " · " + parts.join(", ") : "")));
  if (r.yaku && r.yaku.length) box.appendChild(table(["Yaku", "Han"], r.yaku.map((y) => [y.name, y.yakuman ? y.yakuman + "× yakuman" : y.han])));
  if (r.fans && r.fans.length) box.appendChild(table(["Fan", "Points"], r.fans.map((f) => [f.name, f.count > 1 ? `${f.fan} × ${f.count}` : f.fan])));
  if (r.patterns && r.patterns.length) box.appendChild(table(["Pattern", "Value"], r.patterns.map((p) => [p.name, p.points || (p.doubles ? p.doubles + " double" : "")])));
  const b = r.breakdown || {};
  if (b.fu && b.fu.length) box.appendChild(table(["Why", "Set", "Fu"], b.fu.map((f) => [f.reason, f.set || "", f.fu])));
  if (r.points && r.points.payments && r.points.payments.length) {
    const who = { E: "East", S: "South", W: "West", N: "North", discarder: "the discarder" };
    box.appendChild(table(["Pays", "Amount", "Note"], r.points.payments.map((p) => [who[p.from] || p.from, p.amount, p.note || ""])));
  }
  return box;
}

// readingRow is one reading of a hand the engine considered: its sets,
// its yaku, its value and what it pays.
function readingRow(a) {
  if (!a || typeof a !== "object") return [String(a), "", "", ""];
  const what = a.yakuman ? a.yakuman + "× yakuman" : a.han !== undefined ? `${a.han} han ${a.fu} fu` : a.fan !== undefined ? `${a.fan} fan` : "";
  return [(a.chosen ? "✓ " : "") + (a.arrangement || a.reading || ""), (a.yaku || []).join(", "), what, a.total !== undefined ? a.total : (a.points || "")];
}

function initDesk(onSignedIn) {
  $("signin").addEventListener("submit", (e) => {
    e.preventDefault();
    const tok = $("token").value.trim();
    $("token").value = "";
    if (!tok) { problem($("signin-status"), { detail: "type the token the organiser gave you" }); return; }
    sessionStorage.setItem(desk.key(), tok);
    $("signin-status").textContent = "";
    showSignIn();
    onSignedIn();
  });
  $("signout").addEventListener("click", () => { sessionStorage.removeItem(desk.key()); showSignIn(); });
  showSignIn();
  if (desk.token()) onSignedIn();
}
