// mjscan referee desk: a table's records, one record with its photo,
// tiles, corrections and computed score, a claim checked, a ruling
// recorded or overturned, a record printed or exported.
"use strict";

const ref = {
  open: null, // {record, in_force, chain} of GET /v1/records/{id}
  photo: "", // the blob: URL of the open record's photo
  verdict: null, // the last POST /v1/verify answer, with its claim
  drafted: "", // the ruling the desk drafted from the last verdict
  opens: 0, // how many records were asked for: the last is the one shown
  opening: null, // the open under way, which a claim checked waits for
};

function claimText(c) {
  const parts = [];
  if (c.points !== undefined) parts.push(`${c.points} points`);
  if (c.han !== undefined) parts.push(`${c.han} han`);
  if (c.fu !== undefined) parts.push(`${c.fu} fu`);
  if (c.fan !== undefined) parts.push(`${c.fan} fan`);
  return parts.join(", ");
}

async function openTable() {
  const out = $("find-status");
  const tableName = $("find-table").value.trim();
  if (!tableName) { problem(out, { detail: "type the table's name" }); return; }
  const q = new URLSearchParams({ table: tableName });
  if ($("find-game").value.trim()) q.set("game", $("find-game").value.trim());
  out.className = ""; out.textContent = "Opening…";
  const { ok, data } = await call("GET", "/v1/records?" + q);
  const list = $("records");
  list.replaceChildren();
  if (!ok) { problem(out, data); return; }
  ref.listed = data.records;
  const overturned = new Set(data.records.filter((r) => r.overturns).map((r) => r.overturns));
  say(out, data.records.length ? `${data.records.length} record${data.records.length === 1 ? "" : "s"} at "${tableName}".` : `"${tableName}" has no records yet: check the table's name as the organiser registered it.`);
  out.className = "";
  for (const r of data.records) {
    const b = el("button", { type: "button", cls: "record-item", "data-id": r.id });
    b.appendChild(el("strong", {}, `#${r.id}`));
    b.appendChild(el("span", {}, ` ${r.game ? r.game + (r.hand ? " hand " + r.hand : "") : "not tied to a game"} · ${r.ruling}`));
    if (overturned.has(r.id)) b.appendChild(el("span", { cls: "tag" }, "overturned"));
    if (r.overturns) b.appendChild(el("span", { cls: "tag" }, `overturns #${r.overturns}`));
    if (r.tampered) b.appendChild(el("span", { cls: "tag bad" }, "fails its check"));
    b.addEventListener("click", () => openRecord(r.id));
    list.appendChild(el("li")).appendChild(b);
  }
}

// openRecord shows record id. Opening takes several calls (the record,
// the rulings before it, its photo): an open asked for later supersedes
// one still under way, and a claim checked meanwhile waits for the record
// it is about (see verify), so that the record's arrival never wipes it.
function openRecord(id) {
  const n = ++ref.opens;
  // A verdict is about the record it was checked on: it goes at once.
  $("verdict").replaceChildren();
  ref.verdict = null;
  const p = showRecord(id, () => n === ref.opens);
  ref.opening = p;
  $("record").setAttribute("aria-busy", "true");
  const done = () => { if (ref.opening === p) { ref.opening = null; $("record").removeAttribute("aria-busy"); } };
  p.then(done, done);
  return p;
}

async function showRecord(id, current) {
  const { ok, data } = await call("GET", `/v1/records/${id}`);
  if (!current()) return;
  if (!ok) { problem($("find-status"), data); return; }
  // The chain runs from the first ruling on: walk back from this one.
  for (let n = 0; data.chain[0].overturns && n < 50; n++) {
    const back = await call("GET", `/v1/records/${data.chain[0].overturns}`);
    if (!back.ok) break;
    data.chain.unshift(back.data.record);
  }
  if (!current()) return;
  ref.open = data;
  const r = data.record;
  $("record").hidden = false;
  $("record-h").textContent = `Record #${r.id}`;
  const force = $("record-force");
  if (r.tampered) { force.className = "error"; force.textContent = sentence(r.tampered); }
  else if (data.in_force.id !== r.id) { force.className = "stale"; force.textContent = `Overturned: the ruling in force is record #${data.in_force.id}.`; }
  else { force.className = "ok"; force.textContent = "This ruling is in force."; }
  const facts = $("record-facts");
  facts.replaceChildren();
  const fact = (k, v) => { if (v === undefined || v === "" || v === null) return; facts.appendChild(el("dt", {}, k)); facts.appendChild(el("dd", {}, String(v))); };
  fact("Table", r.table);
  fact("Game", r.game);
  fact("Hand", r.hand);
  fact("Asked by", r.asked_by);
  fact("When", new Date(r.at).toLocaleString());
  fact("Rule set", r.rule_set);
  fact("Claimed", r.claimed);
  fact("Ruling", r.ruling);
  fact("Referee", r.referee);
  fact("Overturns", r.overturns ? `record #${r.overturns}` : "");
  fact("Versions", `engine ${r.engine_version}` + (r.model_version ? `, model ${r.model_version}` : ""));
  fact("Photo SHA-256", r.photo_sha256);
  fact("Digest", r.digest);
  await showPhoto(r, current);
  if (!current()) return;
  const tiles = $("record-tiles");
  tiles.replaceChildren(r.recognized ? tileRow(splitTiles(r.recognized)) : el("p", { cls: "note" }, "No tiles were recognised for this record."));
  const corr = $("record-corrections");
  corr.replaceChildren();
  if (!r.corrections || !r.corrections.length) corr.appendChild(el("p", { cls: "note" }, "No corrections were made."));
  else {
    corr.appendChild(table(["From", "To", "By", "Why"], r.corrections.map((c) =>
      [tileRow(splitTiles(c.from)), tileRow(splitTiles(c.to)), c.by, c.reason || ""]), { id: "corrections-table" }));
  }
  $("record-computed").replaceChildren(r.computed ? resultParts(r.computed) : el("p", { cls: "note" }, "No score was computed."));
  const chain = $("record-chain");
  chain.replaceChildren();
  for (const c of data.chain) {
    const li = el("li", c.id === data.in_force.id ? { cls: "in-force" } : {});
    const b = el("button", { type: "button", cls: "linkish", "data-id": c.id }, `#${c.id}`);
    b.addEventListener("click", () => openRecord(c.id));
    li.appendChild(b);
    li.appendChild(el("span", {}, ` ${c.ruling}` + (c.referee ? ` (${c.referee})` : "") + (c.overturns ? ` · overturns #${c.overturns}` : "") + (c.id === data.in_force.id ? " · in force" : "")));
    chain.appendChild(li);
  }
  $("verify-request").value = r.request ? JSON.stringify(r.request, null, 1) : "";
  showClaimFields();
  $("ruling-overturn").textContent = `Overturn #${data.in_force.id} with this ruling`;
  if ($("ruling-text").value === ref.drafted) $("ruling-text").value = "";
  ref.drafted = "";
  $("ruling-asked").value = r.asked_by || "";
  $("ruling-status").textContent = "";
  $("record").scrollIntoView({ block: "start" });
}

// keeper is the record that keeps r's photo: r itself, or the record of
// its table listed or in its chain with the same photo hash (a ruling
// names the photo it rules on by its hash and does not keep it again).
function keeper(r) {
  if (r.photo_size || !r.photo_sha256) return r.photo_size ? r : null;
  const seen = (ref.listed || []).concat(ref.open ? ref.open.chain : []);
  return seen.find((o) => o.photo_sha256 === r.photo_sha256 && o.photo_size) || null;
}

async function showPhoto(r, current) {
  if (ref.photo) { URL.revokeObjectURL(ref.photo); ref.photo = ""; }
  const box = $("record-photo-box"), img = $("record-photo"), note = $("record-photo-note");
  box.hidden = !r.photo_sha256;
  img.hidden = true;
  img.removeAttribute("src");
  if (!r.photo_sha256) return;
  const k = keeper(r);
  if (!k) { note.textContent = "The table keeps no photos: only the photo's hash is recorded."; return; }
  const res = await call("GET", `/v1/records/${k.id}/photo`, undefined, { as: "blob" });
  if (!current()) return;
  if (!res.ok) { note.textContent = sentence(res.data && res.data.detail); return; }
  ref.photo = URL.createObjectURL(res.blob);
  img.src = ref.photo;
  img.hidden = false;
  note.textContent = k.id === r.id ? "The photo as it was taken, checked against the record's hash." :
    `The photo this ruling is about, kept with record #${k.id} and checked against its hash.`;
}

// showClaimFields offers the claim's fields the hand's rule set counts
// in: han and fu under riichi, fan under the others (MCR, HK, Zung Jung…);
// all of them while the request does not say.
function showClaimFields() {
  let rules = "";
  const text = $("verify-request").value.trim();
  if (text.startsWith("{")) { try { rules = JSON.parse(text).rules || ""; } catch (e) { rules = ""; } }
  else if (text) rules = situation().rules || "";
  const riichi = rules === "riichi", known = rules !== "";
  for (const [k, show] of [["han", !known || riichi], ["fu", !known || riichi], ["fan", !known || !riichi]]) {
    $("claim-" + k + "-box").hidden = !show;
    if (!show) $("claim-" + k).value = "";
  }
}

function claim() {
  const c = {};
  for (const k of ["points", "han", "fu", "fan"]) {
    const v = $("claim-" + k).value.trim();
    if (v !== "") c[k] = parseInt(v, 10);
  }
  return c;
}

// situation is what a hand typed in MPSZ is scored with: the open
// record's request (its rules, winds, self-draw…) less its tiles, or
// riichi's defaults when no record is open.
function situation() {
  const base = Object.assign({ rules: "riichi" }, (ref.open && ref.open.record.request) || {});
  delete base.hand; delete base.win_tile; delete base.melds; delete base.id;
  return base;
}

// verifyRequest reads the hand to check: a hand request as JSON, or the
// tiles in MPSZ (melds after commas, the winning tile last) read by GET
// /v1/notation and scored with the open record's situation. It says what
// is wrong in out, and answers null.
async function verifyRequest(out) {
  const text = $("verify-request").value.trim();
  const fail = (why) => { out.appendChild(el("p", { cls: "error" }, why)); return null; };
  if (!text) return fail("Type the hand: its tiles in MPSZ (234678s777z222z44z, the winning tile last), or open a record that has one.");
  if (text.startsWith("{")) {
    try { return JSON.parse(text); } catch (e) { return fail("The hand request is not valid JSON: fix it, type the tiles in MPSZ instead, or open a record that has one."); }
  }
  const { ok, data } = await call("GET", "/v1/notation?" + new URLSearchParams({ mpsz: text }), undefined, { token: "" });
  if (!ok) return fail(sentence(data && data.detail));
  const req = Object.assign(situation(), { hand: data.hand, win_tile: data.win_tile });
  if (data.melds && data.melds.length) req.melds = data.melds;
  return req;
}

async function verify() {
  const out = $("verdict");
  out.replaceChildren();
  while (ref.opening) await ref.opening.catch(() => {});
  const opens = ref.opens;
  const req = await verifyRequest(out);
  if (!req) return;
  const c = claim();
  if (!Object.keys(c).length) { out.appendChild(el("p", { cls: "error" }, "Type what the player claimed: points, han and fu, or fan.")); return; }
  const { ok, data } = await call("POST", "/v1/verify", { request: req, claim: c });
  if (opens !== ref.opens) return; // another record was opened meanwhile
  if (!ok) { out.appendChild(el("p", { cls: "error", id: "verdict-error" }, sentence(data.detail || (data.error && data.error.message)))); return; }
  ref.verdict = { claim: c, data, request: req };
  out.appendChild(el("p", { id: "verdict-summary", cls: data.agree ? "ok" : "error" }, sentence(data.summary)));
  out.appendChild(table(["Claimed", "Field", "Computed", "Agrees"], data.checks.map((k) => [k.claimed, k.field, k.computed, k.agree ? "✓ agrees" : "✗ differs"]), { id: "verdict-checks" }));
  out.appendChild(el("h3", {}, "Computed breakdown"));
  out.appendChild(resultParts(data.result));
  const readings = [].concat(data.alternatives || []);
  if (readings.length) {
    out.appendChild(el("h3", {}, "Readings considered"));
    out.appendChild(el("p", { cls: "note" }, "✓ marks the reading the engine counts: the one that pays most."));
    out.appendChild(table(["Reading", "Yaku", "Value", "Pays"], readings.map(readingRow), { id: "verdict-readings" }));
  }
  // The desk drafts the ruling from the verdict, and redrafts it for a
  // later verdict unless the referee has written their own.
  const text = $("ruling-text").value.trim();
  if (!text || text === ref.drafted) {
    ref.drafted = data.agree ? `Claim of ${claimText(c)} upheld.` : `Claim of ${claimText(c)} corrected: ${data.result.points ? data.result.points.total : 0} points.`;
    $("ruling-text").value = ref.drafted;
  }
}

// ruling is the record a new ruling appends: where the open record is,
// its evidence, and the verdict when the claim was checked.
function ruling() {
  const r = ref.open.record;
  const body = { ruling: $("ruling-text").value.trim(), asked_by: $("ruling-asked").value.trim() };
  const name = $("ruling-referee").value.trim();
  if (name) body.referee = name;
  if (r.recognized) body.recognized = r.recognized;
  if (r.corrections) body.corrections = r.corrections;
  if (r.photo_sha256) body.photo_sha256 = r.photo_sha256;
  if (r.rule_set) body.rule_set = r.rule_set;
  if (r.model_version) body.model_version = r.model_version;
  if (ref.verdict) {
    body.request = ref.verdict.request;
    body.claimed = claimText(ref.verdict.claim);
    body.computed = ref.verdict.data.result;
    body.rule_set = body.request.rules + (ref.verdict.data.result.preset ? "/" + ref.verdict.data.result.preset : "");
  } else {
    if (r.request) body.request = r.request;
    if (r.claimed) body.claimed = r.claimed;
    if (r.computed) body.computed = r.computed;
  }
  return body;
}

async function record(overturn) {
  const out = $("ruling-status");
  if (!ref.open) { problem(out, { detail: "open a record first" }); return; }
  const body = ruling();
  if (!body.ruling) { problem(out, { detail: "write the ruling first" }); return; }
  if (!body.asked_by) { problem(out, { detail: "say who asked for the ruling" }); return; }
  let path = "/v1/records";
  if (overturn) {
    path = `/v1/records/${ref.open.in_force.id}/overturn`;
  } else {
    const r = ref.open.record;
    body.table = r.table;
    if (r.game) body.game = r.game;
    if (r.hand) body.hand = r.hand;
  }
  const { ok, data } = await call("POST", path, body);
  if (!ok) { problem(out, data); return; }
  $("ruling-text").value = "";
  ref.drafted = "";
  await openRecord(data.record.id);
  say(out, overturn ? `Recorded as #${data.record.id}, overturning #${data.record.overturns}.` : `Recorded as #${data.record.id}.`);
  if ($("find-table").value.trim()) openTable();
}

function exportRecord() {
  if (!ref.open) return;
  download(`record-${ref.open.record.id}.json`, JSON.stringify(ref.open, null, 2) + "\n", "application/json");
}

function signedIn() {
  $("find-table").focus();
}

$("find-go").addEventListener("click", openTable);
$("find-table").addEventListener("keydown", (e) => { if (e.key === "Enter") openTable(); });
$("verify-go").addEventListener("click", verify);
$("verify-request").addEventListener("input", showClaimFields);
$("ruling-record").addEventListener("click", () => record(false));
$("ruling-overturn").addEventListener("click", () => record(true));
$("print").addEventListener("click", () => window.print());
$("export").addEventListener("click", exportRecord);
initDesk(signedIn);
