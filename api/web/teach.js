// mjscan phone page, "Teach my tiles" (#18 item 8): after the player has
// fixed a photo's tiles and scored the hand, the page offers to remember
// those tiles as the player's own tile set (POST /v1/tile-sets from the
// photo sent and the tiles as confirmed, or POST /v1/tile-sets/{id}/photos
// to grow the set); later photos are read with the set (the upload's
// "tile_set" field), and the page says so. A grid calibration photo
// teaches a set too: its tiles are read, laid out in the grid's order
// (rows from the top: characters, dots, bamboo, honours, then the optional
// rows) and shown for the player to check before they teach.
//
// It uses the page's helpers (state, el, tilePic, $) and two hooks in
// app.js's upload: teach.beforeUpload(form, photo) and teach.afterRead(data).
"use strict";

const teach = (() => {
  const KEY = "mjscan.tileSet"; // {id, name}: the set's id is the only way to it
  let sent = null; // the photo last sent: the boxes are on it
  let offered = null; // {photo, labels} on offer
  let grid = null; // {photo, labels} of a grid photo read

  const saved = () => { try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { return null; } };
  const node = (id) => document.getElementById(id);

  function sentence(s) {
    s = String(s || "That did not work").trim();
    s = s[0].toUpperCase() + s.slice(1);
    return /[.!?]$/.test(s) ? s : s + ".";
  }

  function pics(codes) {
    const d = el("span", { cls: "tiles static" });
    for (const c of codes) {
      const p = tilePic(c);
      p.setAttribute("role", "img");
      p.setAttribute("aria-label", tileName(c));
      d.appendChild(p);
    }
    return d;
  }

  function build() {
    const sec = el("section", { id: "teach", "aria-labelledby": "teach-h" });
    sec.innerHTML = `
<h2 id="teach-h">Teach my tiles</h2>
<p id="teach-set" class="note"></p>
<div id="teach-offer" hidden>
  <p id="teach-offer-text"></p>
  <div id="teach-offer-tiles"></div>
  <label id="teach-name-label">Name of your set <input id="teach-name" autocomplete="off" maxlength="80" placeholder="my tiles"></label>
  <button id="teach-go" type="button" class="big-button"></button>
</div>
<details id="teach-grid">
  <summary>Teach from a grid photo</summary>
  <p class="note">Lay the tiles face up in rows from the top, with small gaps: 1m–9m, 1p–9p, 1s–9s, then East South West North White Green Red;
  then, when your set has them, the 8 flowers and seasons, the red fives with a face-down tile, kings and queens, jokers. Photograph them from straight above.</p>
  <label class="big-button" id="teach-grid-button">Pick a grid photo <input id="teach-grid-input" type="file" accept="image/jpeg,image/png"></label>
  <div id="teach-grid-rows"></div>
  <button id="teach-grid-go" type="button" class="big-button" hidden>Teach these tiles</button>
</details>
<button id="teach-forget" type="button" hidden>Stop reading with my set</button>
<p id="teach-status" role="status"></p>`;
    const result = node("result");
    result.parentNode.insertBefore(sec, result.nextSibling);
    const read = el("p", { id: "teach-read", cls: "note", hidden: "" });
    const ps = node("photo-status");
    ps.parentNode.insertBefore(read, ps.nextSibling);
    node("teach-go").addEventListener("click", () => { if (offered) send(offered, node("teach-status")); });
    node("teach-grid-go").addEventListener("click", () => { if (grid) send(grid, node("teach-status")); });
    node("teach-grid-input").addEventListener("change", (e) => { if (e.target.files[0]) readGrid(e.target.files[0]); e.target.value = ""; });
    node("teach-forget").addEventListener("click", () => {
      localStorage.removeItem(KEY);
      say("Later photos are read with the tiles the service knows, not your set. Its id is gone from this phone.");
      showSet();
    });
    new MutationObserver(onResult).observe(result, { childList: true, subtree: true });
    showSet();
  }

  function say(text, error) {
    const s = node("teach-status");
    s.className = error ? "error" : "ok";
    s.textContent = text;
  }

  function showSet() {
    const set = saved();
    node("teach-set").textContent = set ? `Photos are read with your tile set “${set.name || "my tiles"}”.` :
      "Teach the service your own tiles: fix a photo's tiles and score the hand, then remember them here, or use a grid photo.";
    node("teach-forget").hidden = !set;
    node("teach-name-label").hidden = !!set;
    node("teach-go").textContent = set ? `Add these tiles to “${set.name || "my tiles"}”` : "Remember my tiles";
  }

  // confirmed are the photo's tiles as the player left them: every tile
  // with a box in the hand, melds, dora or flowers, with its code as
  // fixed (discards, tiles marked "not a tile" and added ones are left out).
  function confirmed() {
    const p = state.photo;
    if (!p) return [];
    const out = [];
    p.tiles.forEach((t, i) => {
      if (!t.box || t.notTile || t.added) return;
      const at = groupOf(i);
      if (!at || at.group.kind === "loose") return;
      out.push({ tile: t.tile, box: t.box, rotated: !!t.rotated, fixed: t.tile !== t.read });
    });
    return out;
  }

  function onResult() {
    const shown = !!node("result-total") && state.source === "photo" && !!sent;
    if (!shown) { node("teach-offer").hidden = true; offered = null; return; }
    if (offered) return;
    const labels = confirmed();
    if (new Set(labels.map((l) => l.tile)).size < 2) return;
    offered = { photo: sent, labels: labels.map(({ tile, box, rotated }) => ({ tile, box, rotated })) };
    const fixed = labels.filter((l) => l.fixed).length;
    node("teach-offer-text").textContent = `Remember these ${labels.length} tiles` + (fixed ? ` (with the ${fixed} you fixed)` : "") +
      (saved() ? " in your tile set?" : " as your own tile set?") + " Later photos are then read with your tiles.";
    node("teach-offer-tiles").replaceChildren(pics(labels.map((l) => l.tile)));
    node("teach-status").textContent = "";
    node("teach-offer").hidden = false;
  }

  // blurredWords asks for a sharper photo of the tiles a set saw only
  // blurred (its summary's "blurred" codes), which it reads mostly as the
  // service's models alone do; "" when there are none.
  function blurredWords(codes) {
    let names = (codes || []).map(tileName);
    if (!names.length) return "";
    const one = names.length === 1;
    if (names.length > 6) names = names.slice(0, 5).concat(`${names.length - 5} more kinds`);
    const list = names.length === 1 ? names[0] : names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
    return ` It has seen ${list} only blurred: remember a sharper photo of ${one ? "that tile" : "those tiles"}, and it will read ${one ? "it" : "them"} better.`;
  }

  async function send(what, out) {
    const set = saved();
    const form = new FormData();
    if (!set) form.append("name", node("teach-name").value.trim() || "my tiles");
    form.append("photo", what.photo, "photo.jpg");
    form.append("labels", JSON.stringify(what.labels));
    out.className = "";
    out.textContent = "Learning your tiles… (this takes a few seconds)";
    const path = set ? `/v1/tile-sets/${encodeURIComponent(set.id)}/photos` : "/v1/tile-sets";
    const { ok, data } = await api("POST", path, form, { "Idempotency-Key": newKey() });
    if (!ok) { say(sentence(data && data.detail), true); return; }
    localStorage.setItem(KEY, JSON.stringify({ id: data.id, name: data.name }));
    say(`Your set “${data.name || "my tiles"}” knows ${data.codes.length} kinds of tile from ${data.photos} photo${data.photos === 1 ? "" : "s"} (version ${data.version}).` +
      (data.known ? " The service already reads these tiles well, so later photos are read as before; your set is kept." : " Later photos are read with it.") +
      blurredWords(data.blurred));
    node("teach-offer").hidden = true;
    node("teach-grid-go").hidden = true;
    node("teach-grid-rows").replaceChildren();
    grid = null;
    showSet();
  }

  // ---- a grid photo ----

  const GRID = [
    ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"],
    ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p"],
    ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s"],
    ["1z", "2z", "3z", "4z", "5z", "6z", "7z"],
    ["1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"],
    ["0m", "0p", "0s", "0z"],
    ["1k", "2k", "3k", "4k", "5k", "6k", "7k", "8k"],
    ["1j", "2j", "3j", "4j", "5j", "6j", "7j", "8j", "9j"],
  ];
  const REQUIRED = 4, EXTRA = 5, JOKERS = 7;

  // rowFits is what grid row g holds laid out with n tiles (as the
  // service's calibration grid says), or null.
  function rowFits(g, n) {
    const row = GRID[g];
    if (!row) return null;
    if (n === row.length) return row;
    if ((g === EXTRA || g === JOKERS) && n === row.length - 1) return row.slice(0, n);
    if (g === JOKERS && n === 1) return row.slice(-1);
    return null;
  }

  // gridLabels reads a recognition of a grid photo into labels: rows from
  // the top by the tiles' centres, each left to right, each row matched to
  // the next grid row it fits; or an error in words.
  function gridLabels(tiles) {
    const boxes = tiles.filter((t) => t.box).map((t) => ({ box: t.box, rotated: !!t.rotated, cy: (t.box[1] + t.box[3]) / 2, cx: (t.box[0] + t.box[2]) / 2 }));
    if (!boxes.length) return { error: "No tiles were found in the grid photo: photograph the rows from straight above, in good light." };
    const heights = boxes.map((b) => b.box[3] - b.box[1]).sort((a, b) => a - b);
    const h = heights[Math.floor(heights.length / 2)];
    boxes.sort((a, b) => a.cy - b.cy);
    const rows = [];
    for (const b of boxes) {
      const last = rows[rows.length - 1];
      if (last && b.cy - last.cy < h * 0.6) { last.tiles.push(b); last.cy = last.tiles.reduce((s, t) => s + t.cy, 0) / last.tiles.length; }
      else rows.push({ cy: b.cy, tiles: [b] });
    }
    const labels = [], shown = [];
    let g = 0;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r].tiles.sort((a, b) => a.cx - b.cx);
      let codes = null;
      for (let k = g; k < GRID.length && !codes; k++) {
        if (k > g && g < REQUIRED) break; // the first four rows are never left out
        codes = rowFits(k, row.length);
        if (codes) g = k + 1;
      }
      if (!codes) {
        const want = g < GRID.length ? `${GRID[g].length} (${GRID[g].join(" ")})` : "no more rows";
        return { error: `Row ${r + 1} of the grid photo has ${row.length} tiles, but the grid's next row holds ${want}. Lay the rows out as shown and take the photo again.` };
      }
      row.forEach((t, i) => labels.push({ tile: codes[i], box: t.box, rotated: t.rotated }));
      shown.push(codes);
    }
    if (g < REQUIRED) return { error: `The grid photo shows ${rows.length} rows: it needs at least the characters, dots, bamboo and honours, one row each.` };
    return { labels, rows: shown };
  }

  async function readGrid(file) {
    const out = node("teach-status");
    node("teach-grid-go").hidden = true;
    node("teach-grid-rows").replaceChildren();
    grid = null;
    out.className = "";
    out.textContent = "Reading the grid photo…";
    const photo = typeof shrinkPhoto === "function" ? await shrinkPhoto(file) : file;
    const form = new FormData();
    form.append("photo", photo, "grid.jpg");
    const { ok, data } = await api("POST", "/v1/recognitions", form, { "Idempotency-Key": newKey() });
    if (!ok || !data.tiles) { say(sentence(data && data.detail), true); return; }
    const g = gridLabels(data.tiles);
    if (g.error) { say(g.error, true); return; }
    grid = { photo, labels: g.labels };
    const rows = node("teach-grid-rows");
    rows.appendChild(el("p", {}, `${g.labels.length} tiles in ${g.rows.length} rows, read in the grid's order. Check each row, then teach them:`));
    g.rows.forEach((codes, i) => { const d = el("div", { cls: "grid-row", "data-row": i + 1 }); d.appendChild(pics(codes)); rows.appendChild(d); });
    node("teach-grid-go").hidden = false;
    out.textContent = "";
  }

  // ---- the hooks in upload ----

  function beforeUpload(form, photo) {
    sent = photo;
    offered = null;
    node("teach-offer").hidden = true;
    node("teach-read").hidden = true;
    const set = saved();
    if (set) form.append("tile_set", set.id);
  }

  function afterRead(data) {
    const v = data.versions || {};
    const read = node("teach-read");
    read.hidden = !v.tile_set;
    if (v.tile_set) {
      const set = saved();
      read.textContent = `Read with your tile set “${(set && set.id === v.tile_set && set.name) || v.tile_set}” (version ${v.tile_set_version}).`;
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", build); else build();
  return { beforeUpload, afterRead, gridLabels, blurredWords };
})();
