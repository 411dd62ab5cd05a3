// Transparent live-score overlay for OBS's browser source.
"use strict";
(() => {
  const gameId = document.body.dataset.game;
  const box = document.getElementById("overlay-scores");
  const show = (doc) => {
    if (!doc.state) return;
    const scores = Object.entries(doc.state.report.scores).sort((a, b) => b[1] - a[1]);
    box.replaceChildren(...scores.map(([c, s]) => {
      const row = document.createElement("div");
      row.className = `overlay-row ${c}`;
      row.textContent = `${c} ${s}`;
      return row;
    }));
  };
  new EventSource(`/api/games/${gameId}/events`).addEventListener("state", (e) => show(JSON.parse(e.data)));
})();
