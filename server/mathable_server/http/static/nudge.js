// The play page's "Nudge" button and its heartbeat: while the page is open and visible it
// tells the server every 30 seconds, so nothing of this game is pushed to this player
// (a page not heard from for 90 seconds silences nothing).
"use strict";
(function () {
  const box = document.getElementById("nudge-box");
  if (!box) return;
  const game = box.dataset.game;
  const csrf = box.dataset.csrf;
  const headers = { "Content-Type": "application/json", "X-CSRF-Token": csrf };

  function beat() {
    const visible = document.visibilityState === "visible";
    fetch("/v1/me/watching", { method: "POST", headers, credentials: "same-origin", keepalive: true,
                               body: JSON.stringify({ game_id: game, visible }) }).catch(() => {});
  }
  if (box.dataset.seat !== "") {
    beat();
    setInterval(() => { if (document.visibilityState === "visible") beat(); }, 30000);
    document.addEventListener("visibilitychange", beat);
  }

  const button = document.getElementById("nudge");
  const said = document.getElementById("nudge-said");
  if (!button) return;
  button.addEventListener("click", async () => {
    button.disabled = true;
    const r = await fetch(`/v1/games/${encodeURIComponent(game)}/nudge`,
                          { method: "POST", headers, credentials: "same-origin", body: "{}" });
    const body = await r.json().catch(() => ({}));
    said.textContent = r.ok ? box.dataset.done : (body.message || box.dataset.failed);
    button.disabled = false;
  });
})();
