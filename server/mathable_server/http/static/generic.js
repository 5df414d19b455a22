// The generic board of the play page: a game that registers no board script of its own
// (mathable_server.http.boards) is played here through what every game offers: its text
// board and its legal moves (GET /play/{id}/board, rendered by the server from the
// game's ruleset), and a field for its notation (POST /v1/games/{id}/notation reads it).
// A board module of the shell (shell.js), which sends the commands and does the rest.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);

  MathablePlay.register({
    start(ui) {
      $("notation-form").addEventListener("submit", async (ev) => {
        ev.preventDefault();
        ui.error("");
        let read;
        try {
          read = await ui.api("POST", `/v1/games/${ui.game}/notation`, { text: $("notation").value });
        } catch (e) { ui.error(e.message); return; }
        ui.act(() => ui.send(read.command));
      });
    },
    // The text board and the legal moves, as the server draws them for this seat.
    async refresh(ui) {
      ui.draw();
      try {
        const r = await fetch(`/play/${ui.game}/board`, { credentials: "same-origin" });
        if (!r.ok) return;
        const holder = document.createElement("div");
        holder.innerHTML = await r.text();  // the server's template escaped every word
        $("text-board").textContent = holder.querySelector("pre").textContent;
        const legal = $("legal");
        legal.textContent = "";
        for (const b of holder.querySelectorAll("#legal-fresh button")) {
          b.addEventListener("click", () => ui.act(() => ui.send(JSON.parse(b.dataset.command))));
          legal.appendChild(b);
        }
        if (!legal.children.length) {
          const p = document.createElement("p");
          p.className = "muted";
          p.textContent = ui.myTurn() ? ui._("Write your move below.") : ui._("Nothing to play now.");
          legal.appendChild(p);
        }
      } catch (e) { /* drawn again at the next change */ }
    },
    render(view) {
      // No dead field: it goes once the game is over, and a spectator has none.
      $("notation-form").hidden = view.status === "ended" || view.you == null;
    },
    done() { $("notation").value = ""; },
    focus(part) {
      if (part !== "board") return false;
      const target = $("legal").querySelector("button") || $("notation");
      if (target) target.focus();
      return Boolean(target);
    },
  });
})();
