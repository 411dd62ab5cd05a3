// The game page: upload with progress, live updates over SSE, the overlay, corrections.
"use strict";
(() => {
  const root = document.querySelector(".game");
  if (!root) return;
  const gameId = root.dataset.game;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const $ = (id) => document.getElementById(id);
  const COLOURS = { red: "#d33", blue: "#2a62d8", yellow: "#e8b400", green: "#2e9e44" };
  const SHOWN_WARNINGS = 8; // rule warnings listed before "Show N more"
  const FOCUS_SCALE = 3; // a piece picked from the list is shown zoomed in at least this much
  let view = null, mode = "select", selected = null, wallStart = null;
  const zoom = window.PhotoZoom.create($("photo-wrap"), $("photo-zoom"));

  function showError(text) { const e = $("error"); e.textContent = text || ""; e.hidden = !text; }

  async function api(path, body) {
    const res = await fetch(`/api/games/${gameId}${path}`, {
      method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body || {}),
    });
    const doc = await res.json().catch(() => ({ error: `the server answered ${res.status}` }));
    if (!res.ok) throw new Error(doc.error || `the server answered ${res.status}`);
    return doc;
  }

  // The reader's steps, pushed over SSE while this page's upload is being read (see "reading" below).
  let showReadingStep = () => {};

  function upload(file) {
    showError("");
    const form = new FormData();
    form.append("photo", file);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/games/${gameId}/photo`);
    xhr.setRequestHeader("X-CSRF-Token", csrf);
    $("progress").hidden = false;
    const set = (share, text) => { $("progress-bar").style.width = `${share * 100}%`; $("progress-text").textContent = text; };
    set(0, "uploading…");
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) set(0.5 * e.loaded / e.total, "uploading…"); };
    xhr.upload.onload = () => set(0.6, "reading the castle…");
    showReadingStep = (step) => set(0.6, `${step}…`);
    xhr.onload = () => {
      showReadingStep = () => {};
      $("progress").hidden = true;
      let doc = {};
      try { doc = JSON.parse(xhr.responseText); } catch (_) { doc = { error: `the server answered ${xhr.status}` }; }
      if (xhr.status >= 400) showError(doc.error || "the photo could not be read");
      else render(doc);
    };
    xhr.onerror = () => { showReadingStep = () => {}; $("progress").hidden = true; showError("the server cannot be reached: is tablesight still running?"); };
    xhr.send(form);
  }

  const input = $("photo-input");
  if (input) {
    input.addEventListener("change", () => input.files[0] && upload(input.files[0]));
    // A photo chosen while the page was still loading (before this listener) is not lost.
    if (input.files[0]) upload(input.files[0]);
  }
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault(); drop.classList.remove("over");
    if (e.dataTransfer.files[0]) upload(e.dataTransfer.files[0]);
  });

  function el(tag, attrs, text) {
    const ns = ["svg", "circle", "line", "polygon", "rect", "text", "g"].includes(tag) ? "http://www.w3.org/2000/svg" : null;
    const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function render(doc) {
    view = doc.state ? doc : view;
    const state = doc.state;
    if (!state) return;
    const report = state.report;
    $("drop-hint").hidden = true;
    $("photo-wrap").hidden = !state.photo;
    $("tools").hidden = !state.photo;
    if (state.photo) {
      const img = $("photo");
      const src = `/api/photos/${state.photo}.jpg`;
      const [w, h] = state.image_size;
      const svg = $("marks");
      svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
      drawMarks(svg, state, markUnit(state, Math.max(w, h) / 1000));
      if (img.getAttribute("src") !== src) {
        // A new photo: its castle framed (a correction keeps the view, and so does a live camera's next
        // state once the view was moved by hand).
        img.onload = () => { if (!(root.dataset.live === "yes" && zoom.touched)) frameCastle(); };
        img.src = src;
      }
    }
    renderScores(report);
    renderTrust(report.trust);
    renderYards(state.courtyards, report);
    renderWarnings([...report.warnings, ...(report.history_warnings || [])], report.notes || [], report.doubts || []);
    selectPiece(null);
  }

  function castleBox() {
    // The pieces read, in shares of the photo: [x0, y0, x1, y1], or null if none.
    const [w, h] = view.state.image_size;
    const points = view.state.marks.flatMap((m) => (m.to ? [m.px, m.to] : [m.px]));
    if (!points.length) return null;
    const xs = points.map((p) => p[0] / w), ys = points.map((p) => p[1] / h);
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  }

  function frameCastle() {
    const box = view && view.state && castleBox();
    if (box) zoom.frame(box); else zoom.whole();
  }

  function markUnit(state, fallback) {
    // Marks and labels are sized by the towers as the photo shows them (the old fixed sizes were for a
    // tower 14 units across): a far or small castle is not buried under its own marks.
    const radii = state.marks.filter((m) => m.kind === "tower" && m.r).map((m) => m.r).sort((a, b) => a - b);
    return radii.length ? radii[Math.floor(radii.length / 2)] / 14 : fallback;
  }

  function drawMarks(svg, state, s) {
    svg.replaceChildren();
    // Labels stay legible on the whole photo (this many screen pixels at least), however small the towers.
    const screenPx = state.image_size[0] / Math.max(1, $("photo-wrap").clientWidth);
    const label = (size, least) => Math.max(size * s, least * screenPx);
    const yards = el("g", { class: "yards-layer" });
    for (const y of state.courtyards) {
      const poly = el("polygon", { points: y.points.map((p) => p.join(",")).join(" "), class: "yard", "data-yard": y.id,
        fill: y.owner ? COLOURS[y.owner] : "#bbb" });
      yards.append(poly);
    }
    svg.append(yards);
    for (const m of state.marks.filter((m) => m.kind === "wall")) {
      svg.append(el("line", { x1: m.px[0], y1: m.px[1], x2: m.to[0], y2: m.to[1], class: `piece wall ${m.wall}`,
        "data-id": m.id, "stroke-width": m.width || (m.wall === "long" ? 9 : 7) * s }));
    }
    const doubtful = new Set((state.report.doubts || []).map((d) => d.id));  // read one way, maybe the other
    for (const m of state.marks.filter((m) => m.kind !== "wall")) {
      const r = m.r || (m.kind === "tower" ? 14 : 11) * s;
      svg.append(el("circle", { cx: m.px[0], cy: m.px[1], r, class: `piece ${m.kind}`, "data-id": m.id,
        fill: m.kind === "keep" ? COLOURS[m.color] : "rgba(255,230,0,0.35)", "stroke-width": 2 * s }));
      const mark = (m.double ? "×2" : "") + (doubtful.has(m.id) ? "?" : "");
      if (mark) svg.append(el("text", { x: m.px[0] + r, y: m.px[1] - r, class: "double", "font-size": label(22, 10) }, mark));
    }
    for (const y of state.courtyards) {
      const cx = y.points.reduce((a, p) => a + p[0], 0) / y.points.length;
      const cy = y.points.reduce((a, p) => a + p[1], 0) / y.points.length;
      svg.append(el("text", { x: cx, y: cy, class: "yard-value", "font-size": label(30, 12), "data-yard": y.id }, y.owner ? y.value : "?"));
    }
  }

  function renderScores(report) {
    const bars = $("score-bars");
    bars.replaceChildren();
    const scores = Object.entries(report.scores).sort((a, b) => b[1] - a[1]);
    const top = Math.max(1, ...scores.map(([, v]) => v));
    for (const [colour, score] of scores) {
      const row = el("div", { class: "score-row", "data-colour": colour });
      row.append(el("span", { class: "name" }, colour));
      const bar = el("span", { class: "bar" });
      bar.append(el("span", { class: "fill", style: `width:${(100 * score) / top}%;background:${COLOURS[colour]}` }));
      row.append(bar, el("span", { class: "score" }, String(score)));
      bars.append(row);
    }
    const w = report.winner;
    $("winner").className = "winner";
    $("winner").textContent = w === null ? "Nobody owns a courtyard yet."
      : Array.isArray(w) ? `Shared victory: ${w.join(" & ")}` : `Winner: ${w}`;
    const counts = Object.entries(report.scores).map(([, v]) => v);
    if (w && !Array.isArray(w) && counts.filter((v) => v === Math.max(...counts)).length > 1) {
      $("winner").textContent += " (tie-break: more keeps on the table)";
    }
  }

  function renderYards(yards, report) {
    const body = $("yards");
    body.replaceChildren();
    report.courtyards.forEach((y) => {
      const tr = el("tr", { "data-yard": y.id });
      const dot = el("td");
      dot.append(el("span", { class: `dot ${y.owner || "none"}` }));
      tr.append(dot, el("td", {}, y.owner ? y.owner + (y.double ? " ×2" : "") : "unclaimed"), el("td", {}, String(y.towers)), el("td", {}, String(y.value)));
      tr.addEventListener("mouseenter", () => highlight(y.id, true));
      tr.addEventListener("mouseleave", () => highlight(y.id, false));
      body.append(tr);
    });
    if (!report.courtyards.length) {
      const tr = el("tr");
      tr.append(el("td", { colspan: 4, class: "muted" }, "No courtyard enclosed yet."));
      body.append(tr);
    }
  }

  function highlight(id, on) {
    document.querySelectorAll(`[data-yard="${id}"]`).forEach((n) => n.classList.toggle("hot", on));
    const yard = view && view.state.courtyards.find((y) => y.id === id);
    if (!yard) return;
    document.querySelectorAll("circle.tower").forEach((c) => c.classList.toggle("hot", on && yard.towers.includes(c.dataset.id)));
  }

  function renderTrust(trust) {
    // A reading breaking the rules at many pieces is more likely misread than the castle illegal, and keeps read
    // with a tower or two mean a castle the photo hardly showed: said above the scores, not among the warnings,
    // so that nobody takes such scores for the game's.
    const box = $("trust");
    box.hidden = !(trust && (trust.level === "misread" || trust.castle_unseen));
    box.textContent = box.hidden ? "" : `${trust.sentence[0].toUpperCase()}${trust.sentence.slice(1)}.`;
  }

  function renderWarnings(warnings, notes, doubts) {
    const list = $("warnings");
    list.replaceChildren();
    // Pieces the photo left uncertain, those that would change a score first: look at them on the table.
    for (const d of doubts) {
      const li = el("li", { class: "doubt", title: "select it on the photo to correct it" });
      li.append(el("strong", {}, "Check: "), d.sentence);
      li.addEventListener("click", () => {
        const mark = view && view.state.marks.find((m) => m.id === d.id);
        if (!mark) return;
        selectPiece(d.id);
        // Shown where it is, near enough to see it: the page scrolls to the photo on a phone.
        const [w, h] = view.state.image_size;
        zoom.focus(mark.px[0] / w, mark.px[1] / h, FOCUS_SCALE);
        $("photo-wrap").scrollIntoView({ block: "nearest", behavior: "smooth" });
      });
      list.append(li);
    }
    const rows = warnings.map(warningRow);
    // A misread photo can break dozens of rules: the first few, then the rest on request. The reading's
    // notes (how it was read, what to do about it) always show.
    rows.forEach((li, i) => { li.hidden = i >= SHOWN_WARNINGS && rows.length > SHOWN_WARNINGS + 2; list.append(li); });
    const hidden = rows.filter((li) => li.hidden).length;
    if (hidden) {
      const more = el("button", { type: "button", class: "more-warnings" }, `Show ${hidden} more`);
      const li = el("li", { class: "muted" });
      li.append(more);
      list.append(li);
      more.addEventListener("click", () => { rows.forEach((row) => { row.hidden = false; }); li.remove(); });
    }
    for (const n of notes) list.append(el("li", { class: "note" }, n));
    if (!warnings.length && !notes.length && !doubts.length) list.append(el("li", { class: "muted" }, "None."));
  }

  function warningRow(w) {
    const li = el("li", { class: "warning" });
    if (w.rule) {
      const a = el("a", { href: `/rules#${w.rule}`, title: (window.TABLESIGHT_RULES || {})[w.rule] || "", target: "_blank" }, w.rule);
      li.append(a, " ");
    }
    li.append(w.message);
    // Pointing at a warning between pieces shows them on the photo.
    const pieces = w.pieces || [];
    if (pieces.length) {
      li.dataset.pieces = pieces.join(" ");
      const show = (on) => pieces.forEach((id) => document.querySelectorAll(`.piece[data-id="${id}"]`)
        .forEach((n) => n.classList.toggle("hot", on)));
      li.addEventListener("mouseenter", () => show(true));
      li.addEventListener("mouseleave", () => show(false));
    }
    return li;
  }

  function imagePoint(evt) {
    const img = $("photo");
    const rect = img.getBoundingClientRect();
    const [w, h] = view.state.image_size;
    return [((evt.clientX - rect.left) / rect.width) * w, ((evt.clientY - rect.top) / rect.height) * h];
  }

  function selectPiece(id) {
    selected = id;
    document.querySelectorAll(".piece.selected").forEach((n) => n.classList.remove("selected"));
    $("selected").hidden = !id;
    if (!id) return;
    document.querySelectorAll(`[data-id="${id}"]`).forEach((n) => n.classList.add("selected"));
    const mark = view.state.marks.find((m) => m.id === id);
    $("selected-name").textContent = mark.kind === "keep" ? `${mark.color} keep` : mark.kind === "wall" ? `${mark.wall} wall ${id}` : `tower ${id}`;
    $("keep-edit").hidden = mark.kind !== "keep";
    $("wall-edit").hidden = mark.kind !== "wall";
    if (mark.kind === "keep") { $("selected-colour").value = mark.color; $("selected-double").checked = mark.double; }
    if (mark.kind === "wall") $("selected-kind").value = mark.wall;
  }

  async function correct(action) {
    try { showError(""); render(await api("/corrections", action)); } catch (err) { showError(err.message); }
  }

  const TAP_REACH_PX = 22; // a tap this near a piece on the screen picks it: a finger is wider than a tower

  function nearestPiece(px, py, kinds) {
    // The id of the piece (of `kinds`) nearest the photo point, if within TAP_REACH_PX on the screen.
    const img = $("photo");
    const reach = TAP_REACH_PX * view.state.image_size[0] / img.getBoundingClientRect().width;
    let best = null, bestDistance = reach;
    for (const m of view.state.marks.filter((m) => kinds.includes(m.kind))) {
      const d = m.kind === "wall" ? segmentDistance([px, py], m.px, m.to) : Math.hypot(px - m.px[0], py - m.px[1]) - (m.r || 0);
      if (d < bestDistance) { best = m.id; bestDistance = d; }
    }
    return best;
  }

  function segmentDistance(p, a, b) {
    const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
    const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy || 1)));
    return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
  }

  $("marks").addEventListener("click", (evt) => {
    if (!view) return;
    const [px, py] = imagePoint(evt);
    const kinds = mode === "add_wall" ? ["tower"] : ["tower", "keep", "wall"];
    const id = (evt.target.dataset && evt.target.dataset.id) || nearestPiece(px, py, kinds);
    if (mode === "select") { selectPiece(id || null); return; }
    if (mode === "add_tower") correct({ action: "add_tower", px, py });
    if (mode === "add_keep") correct({ action: "add_keep", px, py, color: $("keep-colour").value });
    if (mode === "add_wall" && id && id.startsWith("t")) {
      if (!wallStart) { wallStart = id; selectPiece(id); } else { correct({ action: "add_wall", from: wallStart, to: id }); wallStart = null; }
    }
  });
  document.querySelectorAll("button.mode").forEach((b) => b.addEventListener("click", () => {
    mode = b.dataset.mode; wallStart = null;
    document.querySelectorAll("button.mode").forEach((x) => x.classList.toggle("active", x === b));
  }));
  $("zoom-in").addEventListener("click", () => zoom.zoomIn());
  $("zoom-out").addEventListener("click", () => zoom.zoomOut());
  $("zoom-castle").addEventListener("click", frameCastle);
  $("zoom-whole").addEventListener("click", () => zoom.whole());
  $("delete-piece").addEventListener("click", () => selected && correct({ action: "delete", id: selected }));
  $("selected-colour").addEventListener("change", () => correct({ action: "set_keep", id: selected, color: $("selected-colour").value }));
  $("selected-double").addEventListener("change", () => correct({ action: "set_keep", id: selected, double: $("selected-double").checked }));
  $("selected-kind").addEventListener("change", () => correct({ action: "set_wall", id: selected, kind: $("selected-kind").value }));
  $("undo").addEventListener("click", async () => { try { render(await api("/undo")); } catch (err) { showError(err.message); } });

  async function savePlayers() {
    try { const doc = await api("/players", { player1: $("player1").value, player2: $("player2").value }); showConfirmations(doc.game); }
    catch (err) { showError(err.message); }
  }
  function showConfirmations(game) {
    const parts = [1, 2].map((i) => game[`confirmed${i}`] ? `${game[`player${i}`]} confirmed` : null).filter(Boolean);
    $("confirmations").textContent = parts.length ? parts.join(" · ") : "Not confirmed yet.";
  }
  $("player1").addEventListener("change", savePlayers);
  $("player2").addEventListener("change", savePlayers);
  for (const i of [1, 2]) {
    $(`confirm${i}`).addEventListener("click", async () => {
      await savePlayers();
      try { showConfirmations((await api(`/confirm/${i}`)).game); } catch (err) { showError(err.message); }
    });
  }

  const events = new EventSource(`/api/games/${gameId}/events`);
  events.addEventListener("state", (e) => { const doc = JSON.parse(e.data); if (doc.state) render(doc); });
  events.addEventListener("reading", (e) => showReadingStep(JSON.parse(e.data).step));
  events.addEventListener("status", (e) => { const s = $("live-status"); if (s) s.textContent = JSON.parse(e.data).status; });
  fetch(`/api/games/${gameId}`).then((r) => r.json()).then((doc) => { showConfirmations(doc.game); if (doc.state) render(doc); });
})();
