// mjscan organiser desk: a tournament and its games, tables and their
// cameras (calibrated from a frame, the seat regions drawn on it), score
// now (the camera's proposal confirmed in one tap or corrected), hands and
// penalties, the standings, and CSV and MJAI exports.
"use strict";

const SEATS = ["East", "South", "West", "North"];
const WINDS = "ESWN";
const TOUR_RULES = { "msmc-2016": "riichi", mcr: "mcr", "zung-jung": "zung-jung", wsm: "wsm" };
const org = {
  tour: null, // the tournament view (GET /v1/tournaments/{id})
  game: null, // the open game (GET /v1/games/{id})
  proposal: null, // the last score-now answer
  ruleSets: [],
};

// ---- the tournament and its standings ----

function showTour(view) {
  org.tour = view;
  const next = $("tour-next");
  next.replaceChildren();
  const rows = Object.entries(view.next || {}).map(([where, players]) => [where, players.join(", ")]);
  // The stage (and qualifier table) a new game is most likely for: the
  // first the tournament says is played next.
  const where = Object.keys(view.next || {}).sort((a, b) => b.localeCompare(a))[0] || "";
  if (/^(qualifier|final)/.test(where)) $("game-stage").value = where.split(" ")[0];
  const qt = where.match(/^qualifier table (\d)/);
  if (qt) $("game-tableno").value = qt[1];
  showStage();
  if (rows.length) { next.appendChild(el("h3", {}, "Who plays next")); next.appendChild(table(["Where", "Players"], rows)); }
  if (view.winner) next.appendChild(el("p", { cls: "ok" }, `Winner: ${view.winner}`));
  const first = Object.values(view.next || {})[0];
  if (first) first.forEach((p, i) => { if (!$("game-p" + i).value) $("game-p" + i).value = p; });
  $("entrants").replaceChildren(...((view.tournament && view.tournament.entrants) || []).map((p) => el("option", { value: p })));
  const st = view.standings || [];
  $("standings-table").replaceChildren(st.length ?
    table(["Rank", "Player", "Stage", "Games", "Penalty", "Total"], st.map((s) => [s.rank, s.player, s.stage || "", (s.games || []).map((g, i) => `${g}: ${(s.scores || [])[i]}`).join(", "), s.penalty ? -s.penalty : 0, s.total]), { id: "standings-list" }) :
    el("p", { cls: "note" }, "No standings yet: add finished games to the tournament."));
}

async function createTour() {
  const id = $("tour-id").value.trim();
  const entrants = $("tour-entrants").value.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);
  const { ok, data } = await call("POST", "/v1/tournaments", { id, entrants });
  if (!ok) { problem($("tour-status"), data); return; }
  say($("tour-status"), `Created "${id}" for ${entrants.length} entrants.`);
  showTour(data);
}

async function openTour(quiet) {
  const id = $("tour-id").value.trim();
  if (!id) { if (!quiet) problem($("tour-status"), { detail: "type the tournament's name" }); return; }
  const { ok, data } = await call("GET", "/v1/tournaments/" + encodeURIComponent(id));
  if (!ok) { problem(quiet ? $("standings-status") : $("tour-status"), data); return; }
  if (!quiet) say($("tour-status"), `Tournament ${id} opened.`);
  showTour(data);
}

async function exportCSV() {
  const id = $("tour-id").value.trim();
  const path = id ? `/v1/tournaments/${encodeURIComponent(id)}?format=csv` : "/v1/standings?format=csv";
  const res = await call("GET", path, undefined, { as: "text" });
  if (!res.ok) { problem($("standings-status"), res.data); return; }
  download(`standings-${id || "all"}.csv`, res.text, "text/csv");
  say($("standings-status"), "The standings were saved as CSV.");
}

// ---- games ----

async function loadPresets() {
  const { ok, data } = await call("GET", "/v1/rules", undefined, { token: "" });
  if (ok) org.ruleSets = data.rules || [];
  showPresets();
}

function showPresets() {
  const rs = org.ruleSets.find((r) => r.name === TOUR_RULES[$("game-rules").value]) || {};
  const presets = (rs.presets || []).filter((p) => p && p !== "default");
  $("game-preset").replaceChildren(el("option", { value: "" }, "as the tournament rules say"), ...presets.map((p) => el("option", { value: p }, p)));
}

function showGame(g) {
  org.game = g;
  const v = $("game-view");
  v.replaceChildren();
  v.appendChild(el("h3", {}, `Game ${g.id} at ${g.table}: ${g.rules.rules}` + (g.rules.preset ? `/${g.rules.preset}` : "") + (g.over ? " · over" : "")));
  v.appendChild(table(["Seat", "Player", "Score"], g.players.map((p, i) => [SEATS[i], p, g.scores[i]]), { id: "game-scores" }));
  if (g.hands && g.hands.length) {
    v.appendChild(table(["Hand", "Round", "Outcome", "Change"], g.hands.map((h) =>
      [h.number, h.round, outcomeText(g, h.play), h.deltas.map((d, i) => `${g.players[i]} ${d > 0 ? "+" : ""}${d}`).join(", ")]), { id: "game-hands" }));
  } else {
    v.appendChild(el("p", { cls: "note" }, "No hands yet: score one now by camera, or enter it under Hands."));
  }
  const named = (i) => `${SEATS[i]}: ${g.players[i]}`;
  const snSeat = $("sn-seat").value, snFrom = $("sn-from").value;
  $("sn-seat").replaceChildren(...g.players.map((p, i) => el("option", { value: WINDS[i] }, named(i))));
  $("sn-from").replaceChildren(el("option", { value: -1 }, "self-draw (tsumo)"), ...g.players.map((p, i) => el("option", { value: i }, named(i))));
  $("sn-seat").value = snSeat; $("sn-from").value = snFrom;
  const who = $("hand-player"), from = $("hand-from");
  const chosen = [who.value, from.value];
  who.replaceChildren(...g.players.map((p, i) => el("option", { value: i }, `${SEATS[i]}: ${p}`)));
  from.replaceChildren(el("option", { value: -1 }, "self-draw (tsumo)"), ...g.players.map((p, i) => el("option", { value: i }, `${SEATS[i]}: ${p}`)));
  // What was chosen stays chosen when the game is shown again.
  if (chosen[0]) who.value = chosen[0];
  if (chosen[1]) from.value = chosen[1];
  const boxes = (id, legend) => {
    const ticked = new Set([...document.querySelectorAll(`#${id} input:checked`)].map((c) => c.value));
    $(id).replaceChildren(el("legend", {}, legend), ...g.players.map((p, i) => {
      const l = el("label", {});
      const c = el("input", { type: "checkbox", value: i, id: `${id}-${i}` });
      c.checked = ticked.has(String(i));
      l.append(c, ` ${SEATS[i]}: ${p}`);
      return l;
    }));
  };
  boxes("hand-tenpai", "Tenpai at the draw (leave all unticked: everyone noten)");
  boxes("hand-riichi", "Declared riichi this hand");
  showOutcome();
  if (!$("cam-table").value) $("cam-table").value = g.table;
}

// outcomeText says what happened in a hand, with the players' names.
function outcomeText(g, p) {
  const name = (i) => g.players[i] || "?";
  if (p.outcome === "win") return `win by ${name(p.player)}` + (p.from >= 0 ? ` off ${name(p.from)}` : " (self-draw)");
  if (p.outcome === "draw") return "draw, " + ((p.tenpai || []).length ? "tenpai: " + p.tenpai.map(name).join(", ") : "all noten");
  if (p.outcome === "chombo") return `chombo by ${name(p.player)}`;
  return p.outcome;
}

async function createGame() {
  const body = {
    id: $("game-id").value.trim(), table: $("game-table").value.trim(), rules: $("game-rules").value,
    players: [0, 1, 2, 3].map((i) => $("game-p" + i).value.trim()),
  };
  if ($("game-preset").value) body.preset = $("game-preset").value;
  const { ok, data } = await call("POST", "/v1/games", body);
  if (!ok) { problem($("game-status"), data); return; }
  $("game-token").textContent = data.table_token;
  $("game-token-box").hidden = false;
  say($("game-status"), `Created game ${data.id} at "${data.table}".`);
  showGame(data);
}

async function openGame(id) {
  id = id || $("game-id").value.trim();
  if (!id) { problem($("game-status"), { detail: "type the game's id" }); return; }
  const { ok, data } = await call("GET", "/v1/games/" + encodeURIComponent(id));
  if (!ok) { problem($("game-status"), data); return; }
  showGame(data);
}

// tokenAgain shows the open game's table token again, for a table whose
// phone lost it: the same token the game was created with.
async function tokenAgain() {
  if (!org.game) { problem($("game-status"), { detail: "create or open a game first" }); return; }
  const { ok, data } = await call("GET", `/v1/games/${encodeURIComponent(org.game.id)}/table-token`);
  if (!ok) { problem($("game-status"), data); return; }
  $("game-token").textContent = data.table_token;
  $("game-token-box").hidden = false;
  say($("game-status"), `The token of game ${data.game} at "${data.table}", the same as when it was created.`);
}

async function addGame() {
  if (!org.game) { problem($("game-status"), { detail: "create or open a game first" }); return; }
  const id = $("tour-id").value.trim();
  if (!id) { problem($("game-status"), { detail: "create or open the tournament first" }); return; }
  const body = { stage: $("game-stage").value, table: parseInt($("game-tableno").value || "0", 10), game: org.game.id };
  const { ok, data } = await call("POST", `/v1/tournaments/${encodeURIComponent(id)}/games`, body);
  if (!ok) { problem($("game-status"), data); return; }
  say($("game-status"), `Game ${org.game.id} ended and added to the ${body.stage}.`);
  showTour(data);
  await openGame(org.game.id);
}

async function exportMJAI() {
  if (!org.game) { problem($("game-status"), { detail: "create or open a game first" }); return; }
  const res = await call("GET", `/v1/games/${encodeURIComponent(org.game.id)}/mjai`, undefined, { as: "text" });
  if (!res.ok) { problem($("game-status"), res.data); return; }
  download(`${org.game.id}.mjai.jsonl`, res.text, "application/jsonl");
  say($("game-status"), `Game ${org.game.id} was saved in MJAI form.`);
}

// ---- tables and cameras ----

async function registerTable() {
  const body = { table: $("cam-table").value.trim(), snapshot_url: $("cam-url").value.trim(), near: $("cam-near").value };
  const { ok, data } = await call("POST", "/v1/tables", body);
  if (!ok) { problem($("cam-status"), data); return; }
  say($("cam-status"), `Registered "${data.table.table}": calibrate it next.`);
}

// invert3 inverts a row-major 3×3 matrix.
function invert3(m) {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  return [A, -(b * i - c * h), b * f - c * e, B, a * i - c * g, -(a * f - c * d), C, -(a * h - b * g), a * e - b * d].map((v) => v / det);
}

function apply(m, x, y) {
  const w = m[6] * x + m[7] * y + m[8];
  return [(m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w];
}

// seatRegions are the hand bands of the four seats in frame pixels, as the
// service cuts them (calibration.HandBand on the rectified square, turned
// so each seat sits at the near edge), keyed by wind.
function seatRegions(cal) {
  const S = 1200, band = [S / 10, S * 78 / 100, S * 9 / 10, S * 98 / 100];
  const inv = invert3(cal.homography);
  // A point (x, y) of the square turned k quarters clockwise, back on
  // the unturned square.
  const unturn = (k, x, y) => [[x, y], [y, S - x], [S - x, S - y], [S - y, x]][k];
  const out = {};
  for (let k = 0; k < 4; k++) {
    const wind = WINDS[(WINDS.indexOf(cal.near || "E") + k) % 4];
    const corners = [[band[0], band[1]], [band[2], band[1]], [band[2], band[3]], [band[0], band[3]]];
    out[wind] = corners.map(([x, y]) => apply(inv, ...unturn(k, x, y)));
  }
  return out;
}

function drawCalibration(cal) {
  const svg = $("cam-svg");
  const ns = "http://www.w3.org/2000/svg";
  svg.setAttribute("viewBox", `0 0 ${cal.width} ${cal.height}`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.replaceChildren();
  const poly = (pts, colour, id, label) => {
    const p = document.createElementNS(ns, "polygon");
    p.setAttribute("points", pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "));
    p.setAttribute("fill", "none");
    p.setAttribute("stroke", colour);
    p.setAttribute("stroke-width", Math.max(3, cal.width / 200));
    p.setAttribute("id", id);
    svg.appendChild(p);
    if (label) {
      const cx = pts.reduce((s, q) => s + q[0], 0) / pts.length, cy = pts.reduce((s, q) => s + q[1], 0) / pts.length;
      const t = document.createElementNS(ns, "text");
      t.setAttribute("x", cx); t.setAttribute("y", cy);
      t.setAttribute("fill", "#fff"); t.setAttribute("stroke", colour); t.setAttribute("stroke-width", Math.max(2, cal.width / 300));
      t.setAttribute("paint-order", "stroke");
      t.setAttribute("font-size", Math.max(16, cal.width / 22)); t.setAttribute("font-weight", "bold");
      t.setAttribute("text-anchor", "middle"); t.setAttribute("dominant-baseline", "middle");
      t.textContent = label;
      svg.appendChild(t);
    }
  };
  poly(cal.corners.map((c) => [c.x, c.y]), "#e0a800", "felt");
  const colours = { E: "#c0392b", S: "#1f6fd1", W: "#7d3cb5", N: "#111111" };
  for (const [wind, pts] of Object.entries(seatRegions(cal))) poly(pts, colours[wind], "seat-" + wind, SEATS[WINDS.indexOf(wind)]);
}

async function calibrate() {
  const name = $("cam-table").value.trim();
  if (!name) { problem($("cam-status"), { detail: "type the table's name" }); return; }
  $("cam-status").className = ""; $("cam-status").textContent = "Taking a frame and finding the table…";
  const { ok, data } = await call("POST", `/v1/tables/${encodeURIComponent(name)}/calibrate`);
  if (!ok) { problem($("cam-status"), data); return; }
  const cal = data.table.calibration;
  const frame = await call("GET", `/v1/tables/${encodeURIComponent(name)}/frame`, undefined, { as: "blob" });
  if (!frame.ok) { problem($("cam-status"), frame.data); return; }
  const img = $("cam-img");
  if (img.src.startsWith("blob:")) URL.revokeObjectURL(img.src);
  img.src = URL.createObjectURL(frame.blob);
  drawCalibration(cal);
  $("cam-frame").hidden = false;
  say($("cam-status"), `Calibrated "${name}" on a ${cal.width}×${cal.height} frame, the camera behind ${SEATS[WINDS.indexOf(cal.near)]}. Check that each seat's region lies over that player's hand.`);
}

// ---- score now, hands, penalties ----

async function scoreNow() {
  const out = $("sn-status");
  if (!org.game) { problem(out, { detail: "create or open the game being played first" }); return; }
  const g = org.game;
  out.className = ""; out.textContent = "Taking a snapshot and reading the hand…";
  const seat = $("sn-seat").value;
  const body = { seat, game: g.id, request: {} };
  const from = parseInt($("sn-from").value, 10);
  if (from < 0) body.request.tsumo = true;
  const { ok, data } = await call("POST", `/v1/tables/${encodeURIComponent(g.table)}/score-now`, body);
  $("proposal").hidden = true;
  if (!ok) { problem(out, data); return; }
  org.proposal = { answer: data, seat, from };
  const p = data.proposal;
  $("proposal-tiles").replaceChildren(el("p", {}, `${SEATS[WINDS.indexOf(seat)]}'s hand as the camera read it (record #${data.record.id}):`), tileRow(splitTiles(p.request.hand), "proposal-hand"));
  $("proposal-result").replaceChildren(resultParts(p.result));
  $("proposal").hidden = false;
  say(out, "The camera's proposal: confirm it, or correct it.");
}

// confirmProposal rules on the camera's proposal as it was proposed, in
// one tap: POST /v1/records/{id}/confirm appends the ruling that points
// at the proposal (no overturn), and the confirmed hand goes into the game
// as the win of the player at that seat, all on the organiser's token.
// (The camera's seats are the table's seats as at the first hand, the
// players' order, so the desk names the winner itself rather than
// confirm's win, which reads the seat as this hand's wind.)
async function confirmProposal() {
  const out = $("sn-status");
  const pr = org.proposal;
  if (!pr) return;
  const rec = pr.answer.record.id;
  const ruled = await call("POST", `/v1/records/${rec}/confirm`, {});
  if (!ruled.ok) { problem(out, ruled.data); return; }
  const play = { outcome: "win", player: seatOf(pr.seat), from: pr.from < 0 ? -1 : pr.from, hand: ruled.data.record.request };
  const riichi = ticked("hand-riichi");
  if (riichi.length) play.riichi = riichi;
  const { ok, data } = await call("POST", `/v1/games/${encodeURIComponent(org.game.id)}/hands`, play);
  if (!ok) { problem(out, { detail: `the ruling is record #${ruled.data.record.id}, but the hand did not go into the game: ${(data && data.detail) || "try Hands"}` }); return; }
  $("proposal").hidden = true;
  org.proposal = null;
  await openGame(org.game.id);
  say(out, `Hand ${data.hand.number} confirmed as the camera proposed it (record #${ruled.data.record.id}).`);
}

function ticked(id) {
  return [...document.querySelectorAll(`#${id} input:checked`)].map((c) => parseInt(c.value, 10));
}

// seatOf is the player at a seat of the table: the camera's seats are
// the seats of the game's first hand, the players' order.
function seatOf(wind) {
  return WINDS.indexOf(wind);
}

function correctProposal() {
  const pr = org.proposal;
  if (!pr) return;
  $("hand-outcome").value = "win";
  showOutcome();
  $("hand-player").value = String(seatOf(pr.seat));
  $("hand-from").value = String(pr.from);
  $("hand-request").value = JSON.stringify(pr.answer.proposal.request, null, 1); // the whole request: its situation stays
  pr.correcting = true;
  $("hand-request").focus();
  say($("sn-status"), "Correct the hand under Hands, then record it: the ruling records the correction.");
}

async function recordHand() {
  const out = $("hand-status");
  if (!org.game) { problem(out, { detail: "create or open the game first" }); return; }
  const outcome = $("hand-outcome").value;
  const play = { outcome, player: parseInt($("hand-player").value, 10) };
  if (outcome === "win") {
    play.from = parseInt($("hand-from").value, 10);
    play.hand = await winningHand($("hand-request").value.trim(), out);
    if (!play.hand) return;
  }
  if (outcome !== "chombo") { const r = ticked("hand-riichi"); if (r.length) play.riichi = r; }
  if (outcome === "draw") { play.tenpai = ticked("hand-tenpai"); play.player = 0; }
  if (outcome === "win" && org.proposal && org.proposal.correcting) {
    // A corrected proposal: the ruling records the correction against
    // the proposal (scored again), and the game takes the corrected hand.
    const ruled = await call("POST", `/v1/records/${org.proposal.answer.record.id}/confirm`, { request: play.hand, note: "corrected at the organiser's desk" });
    if (!ruled.ok) { problem(out, ruled.data); return; }
    play.hand = ruled.data.record.request;
  }
  const { ok, data } = await call("POST", `/v1/games/${encodeURIComponent(org.game.id)}/hands`, play);
  if (!ok) { problem(out, data); return; }
  const hand = data.hand;
  const corrected = org.proposal && org.proposal.correcting;
  $("proposal").hidden = true;
  org.proposal = null;
  await openGame(org.game.id);
  // The form starts afresh for the next hand, so that nothing of this
  // one is recorded twice by a second tap; then the desk says what was
  // recorded, the game's view already showing it.
  for (const c of document.querySelectorAll("#hand-tenpai input, #hand-riichi input")) c.checked = false;
  $("hand-outcome").value = "win";
  $("hand-request").value = "";
  showOutcome();
  if (corrected) say($("sn-status"), `Hand ${hand.number} recorded as corrected (the ruling records the correction).`);
  say(out, `Hand ${hand.number} recorded (${outcomeText(org.game, hand.play)}): ${hand.deltas.map((d, i) => `${org.game.players[i]} ${d > 0 ? "+" : ""}${d}`).join(", ")}.`);
}

// winningHand reads the winning hand as typed: MPSZ (melds after commas,
// the last concealed tile the winning one), read by GET /v1/notation, or
// a hand request as JSON. It says what is wrong in out, and answers null.
async function winningHand(text, out) {
  if (!text) { problem(out, { detail: "type the winning hand, in MPSZ (234678s777z222z44z) or as a hand request" }); return null; }
  if (text.startsWith("{")) {
    try { return JSON.parse(text); } catch (e) { problem(out, { detail: "the winning hand is not valid JSON: type it in MPSZ (234678s777z222z44z) instead" }); return null; }
  }
  const { ok, data } = await call("GET", "/v1/notation?" + new URLSearchParams({ mpsz: text }), undefined, { token: "" });
  if (!ok) { problem(out, data); return null; }
  const hand = { hand: data.hand, win_tile: data.win_tile };
  if (data.melds && data.melds.length) hand.melds = data.melds;
  return hand;
}

async function addPenalty() {
  const out = $("pen-status");
  const id = $("tour-id").value.trim();
  if (!id) { problem(out, { detail: "create or open the tournament first" }); return; }
  const body = { player: $("pen-player").value.trim(), points: parseInt($("pen-points").value || "0", 10), reason: $("pen-reason").value.trim() };
  if ($("pen-stage").value) body.stage = $("pen-stage").value;
  const { ok, data } = await call("POST", `/v1/tournaments/${encodeURIComponent(id)}/penalties`, body);
  if (!ok) { problem(out, data); return; }
  say(out, `${body.points} points taken off ${body.player}'s final score.`);
  showTour(data);
}

// showOutcome shows the fields the chosen outcome takes: a win its
// winner, discarder and hand; a draw who was tenpai; a chombo its
// offender.
function showOutcome() {
  const o = $("hand-outcome").value;
  $("hand-player-box").hidden = o === "draw";
  $("hand-player-label").textContent = o === "chombo" ? "Offender" : "Winner";
  $("hand-from-box").hidden = o !== "win";
  $("hand-win-box").hidden = o !== "win";
  $("hand-tenpai").hidden = o !== "draw";
  $("hand-riichi").hidden = o === "chombo" || !org.game || org.game.rules.rules !== "riichi";
  $("hand-chombo-note").hidden = o !== "chombo";
  $("hand-record").textContent = o === "win" ? "Record the win" : o === "draw" ? "Record the draw" : "Record the chombo";
}

// showStage asks for the qualifier table only for a qualifier game.
function showStage() {
  $("game-tableno-box").hidden = $("game-stage").value !== "qualifier";
}

function signedIn() {
  loadPresets();
}

$("tour-create").addEventListener("click", createTour);
$("tour-open").addEventListener("click", () => openTour(false));
$("game-rules").addEventListener("change", showPresets);
$("game-create").addEventListener("click", createGame);
$("game-open").addEventListener("click", () => openGame());
$("game-token-again").addEventListener("click", tokenAgain);
$("game-add").addEventListener("click", addGame);
$("game-stage").addEventListener("change", showStage);
$("game-mjai").addEventListener("click", exportMJAI);
$("cam-register").addEventListener("click", registerTable);
$("cam-calibrate").addEventListener("click", calibrate);
$("sn-go").addEventListener("click", scoreNow);
$("proposal-confirm").addEventListener("click", confirmProposal);
$("proposal-correct").addEventListener("click", correctProposal);
$("hand-record").addEventListener("click", recordHand);
$("hand-outcome").addEventListener("change", showOutcome);
$("pen-add").addEventListener("click", addPenalty);
$("standings-refresh").addEventListener("click", () => openTour(true));
$("standings-csv").addEventListener("click", exportCSV);
showOutcome();
showStage();
initDesk(signedIn);
