// A board of tiles for the play page's shell (shell.js): the squares as a grid of buttons
// (one Tab stop, arrow keys within, drag and drop beside tap-tap), a rack of tiles, and
// the actions Send turn, Undo, Check, Hint and Exchange. What a game's tiles and squares
// are is the game's own board module's to say (mathable.js, summy.js): it calls
//
//   MathablePlay.register(MathableTiles.board(game))
//
// with ``game`` an object of the hooks below (each documented where it is called):
// ``start(ui)``, ``held(view)``, ``cells(view, put, ctx)``, ``fits(command, tile)``,
// ``place(name, tile, view, _)``, ``trial(pending)``, ``legalAfter(answer, pending, legal)``,
// ``sendTurn(pending, ui)``, ``exchange(tiles)``, ``hint(pending)``,
// ``side(view, ctx)`` and ``running(answer, ctx)``.
// The rules stay on the server: where a tile fits, the running score and whether a move
// is legal come from POST /v1/games/{id}/trial.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);

  function board(game) {
    let ui = null;
    let view = null;
    let pending = [];         // placements chosen, not sent: {name, tile, ...the game's}
    let selected = [];        // indices into the rack (what is left of it)
    let legal = [];           // legal commands after the pending placements
    let trialOk = null;       // the last trial's answer
    const _ = (text, values) => ui._(text, values);

    function rackLeft() {
      const left = (view ? game.held(view) : []).slice();
      for (const p of pending) {
        const i = left.findIndex((t) => String(t) === String(p.tile));
        if (i >= 0) left.splice(i, 1);
      }
      return left;
    }

    function lastSquares() {
      const t = view.last_turn;
      const out = new Set();
      if (t && t.placements) for (const p of t.placements) out.add(p.square || `${p.x},${p.y}`);
      return out;
    }

    function fitsFor(tile) {
      const out = new Set();
      if (tile === undefined) return out;
      for (const c of legal) for (const name of game.fits(c, tile)) out.add(name);
      return out;
    }

    function squareButton(name) {
      const b = document.createElement("button");
      b.type = "button";
      b.tabIndex = -1;
      b.setAttribute("aria-label", name);
      b.dataset.square = name;
      const span = document.createElement("span");
      span.setAttribute("aria-hidden", "true");
      b.appendChild(span);
      b.addEventListener("click", () => onSquare(name));
      return b;
    }

    // The squares to show, each {name, shown, classes, label}, and how many columns.
    function cellsToShow() {
      const last = lastSquares();
      const tile = selected.length ? rackLeft()[selected[0]] : undefined;
      const fits = fitsFor(tile);
      const mine = new Map(pending.map((p) => [p.name, p.tile]));
      const out = [];
      // One square: its name, what it shows, its classes, what lies on it in words.
      const put = (name, shown, classes, said) => {
        const words = [name, said];
        if (classes.includes("pending")) words.push(_("placed this turn"));
        if (last.has(name)) { classes.push("last"); words.push(_("last turn")); }
        if (fits.has(name)) classes.push("fits");
        if (tile !== undefined && !classes.includes("tile") && !classes.includes("pending")) {
          words.push(fits.has(name) ? _("{tile} fits", { tile }) : _("{tile} does not fit", { tile }));
        }
        out.push({ name, shown, classes, label: words.join(", ") });
      };
      // The game lays out its squares (each through ``put``, row by row) and answers
      // {columns, colNames, rowNames}; ``mine`` the tiles placed this turn by square.
      const shape = game.cells(view, put, { mine, legal, _ });
      return Object.assign({ cells: out }, shape);
    }

    let rackCurrent = 0;  // the rack's one Tab stop (roving tabindex)
    let layout = "";
    let columnsShown = 1;
    let current = null;  // the board's one Tab stop (roving tabindex): a square's name

    // The board and the rack are one Tab stop each; arrow keys move within them.
    function focusBoard() {
      const b = $("board").querySelector(`[data-square="${CSS.escape(current || "")}"]`)
        || $("board").querySelector("button");
      if (b) { current = b.dataset.square; b.tabIndex = 0; b.focus(); }
    }
    function focusRack() {
      const buttons = $("rack").querySelectorAll("button");
      const b = buttons[Math.min(rackCurrent, buttons.length - 1)];
      if (b) b.focus();
    }

    function listen() {
      $("board").addEventListener("keydown", (ev) => {
        const buttons = [...$("board").querySelectorAll("button")];
        const at = buttons.indexOf(document.activeElement);
        if (at < 0) return;
        const cols = columnsShown, rowStart = at - (at % cols);
        const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, ArrowUp: at - cols, ArrowDown: at + cols,
                        Home: ev.ctrlKey ? 0 : rowStart, End: ev.ctrlKey ? buttons.length - 1 : rowStart + cols - 1,
                        PageUp: at - 5 * cols, PageDown: at + 5 * cols };
        if (!(ev.key in moves)) return;
        ev.preventDefault();
        let to = moves[ev.key];
        if (ev.key === "PageUp") to = Math.max(to, at % cols);
        if (ev.key === "PageDown") while (to >= buttons.length) to -= cols;
        if ((ev.key === "ArrowLeft" && at % cols === 0) || (ev.key === "ArrowRight" && at % cols === cols - 1)) return;
        if (to < 0 || to >= buttons.length) return;
        buttons[at].tabIndex = -1;
        buttons[to].tabIndex = 0;
        current = buttons[to].dataset.square;
        buttons[to].focus();
      });
      $("board").addEventListener("focusin", (ev) => {
        if (ev.target.dataset && ev.target.dataset.square) current = ev.target.dataset.square;
      });
      $("board").addEventListener("dragover", (ev) => {
        if (ev.target.closest("button")) { ev.preventDefault(); ev.target.closest("button").classList.add("drop"); }
      });
      $("board").addEventListener("dragleave", (ev) => {
        const b = ev.target.closest && ev.target.closest("button");
        if (b) b.classList.remove("drop");
      });
      $("board").addEventListener("drop", (ev) => {
        const b = ev.target.closest("button");
        if (!b) return;
        ev.preventDefault();
        b.classList.remove("drop");
        const i = Number(ev.dataTransfer.getData("text/plain"));
        if (!Number.isInteger(i)) return;
        selected = [i];
        onSquare(b.dataset.square);
      });
      $("rack").addEventListener("keydown", (ev) => {
        const buttons = [...$("rack").querySelectorAll("button")];
        const at = buttons.indexOf(document.activeElement);
        if (at < 0) return;
        const n = buttons.length;  // the arrows go round the rack, as a toolbar's do
        const to = { ArrowLeft: (at + n - 1) % n, ArrowUp: (at + n - 1) % n, ArrowRight: (at + 1) % n,
                     ArrowDown: (at + 1) % n, Home: 0, End: n - 1 }[ev.key];
        if (to === undefined) return;
        ev.preventDefault();
        rackCurrent = to;
        buttons.forEach((b, i) => { b.tabIndex = i === to ? 0 : -1; });
        buttons[to].focus();
      });
      $("rack").addEventListener("focusin", (ev) => {
        if (ev.target.dataset && ev.target.dataset.index !== undefined) rackCurrent = Number(ev.target.dataset.index);
      });

      $("send").addEventListener("click", () => ui.act(() => game.sendTurn(pending, ui)));
      if (game.extra) $("extra").addEventListener("click", () => ui.act(() => game.extra.send(pending, ui)));
      $("undo").addEventListener("click", () => { pending.pop(); ui.error(""); refresh(); });
      $("check").addEventListener("click", () => refresh());
      $("exchange").addEventListener("click", () => ui.act(() => {
        const left = rackLeft();
        return ui.send(game.exchange(selected.map((i) => left[i])));
      }));
      $("hint").addEventListener("click", async () => {
        if (view.rated) { ui.error(_("Rated game: no hints.")); return; }
        try {
          const answer = await ui.api("POST", `/v1/games/${ui.game}/trial`, { commands: game.hint(pending), hint: true });
          $("hint-text").textContent = answer.hint ? _("Hint: {words}", { words: answer.hint.words }) : _("No hint: nothing fits.");
        } catch (e) { ui.error(e.message); }
      });
    }

    function drawBoard() {
      const grid = $("board");
      const { columns, cells, colNames, rowNames } = cellsToShow();
      columnsShown = columns;
      const shape = columns + ":" + cells.map((c) => c.name).join(" ");
      if (shape !== layout) {  // new squares: built again (the focus stays on its square)
        const focused = document.activeElement && document.activeElement.dataset.square;
        layout = shape;
        grid.textContent = "";
        grid.style.gridTemplateColumns = `repeat(${columns}, 1fr)`;
        for (const c of cells) grid.appendChild(squareButton(c.name));
        // The coordinates on the board's edges: what refusals and the move list name.
        $("cols").style.gridTemplateColumns = `repeat(${columns}, 1fr)`;
        $("cols").textContent = "";
        for (const n of colNames) { const s = document.createElement("span"); s.textContent = n; $("cols").appendChild(s); }
        $("rows").style.gridTemplateRows = `repeat(${rowNames.length}, 1fr)`;
        $("rows").textContent = "";
        for (const n of rowNames) { const s = document.createElement("span"); s.textContent = n; $("rows").appendChild(s); }
        if (!current || !grid.querySelector(`[data-square="${CSS.escape(current)}"]`)) {
          const middle = cells[Math.floor(cells.length / 2)];
          current = middle ? middle.name : null;
        }
        if (focused) {
          const again = grid.querySelector(`[data-square="${CSS.escape(focused)}"]`);
          if (again) { current = focused; again.tabIndex = 0; again.focus(); }
        }
      }
      // The same squares: changed in place, so that nothing under a finger or a click moves.
      const buttons = grid.children;
      cells.forEach((c, i) => {
        const b = buttons[i];
        const cls = c.classes.join(" ");
        if (b.className !== cls) b.className = cls;
        if (b.firstChild.textContent !== c.shown) b.firstChild.textContent = c.shown;
        if (b.getAttribute("aria-label") !== c.label) b.setAttribute("aria-label", c.label);
        const stop = c.name === current ? 0 : -1;
        if (b.tabIndex !== stop) b.tabIndex = stop;
      });
    }

    function drawRack() {
      const rack = $("rack");
      const tiles = rackLeft();
      if (rack.children.length !== tiles.length) {
        const focused = document.activeElement && document.activeElement.dataset.index;
        rack.textContent = "";
        tiles.forEach((_tile, i) => {
          const b = document.createElement("button");
          b.type = "button";
          b.dataset.index = String(i);
          b.tabIndex = -1;
          b.draggable = true;  // drag and drop on a desktop, beside tap-tap
          b.addEventListener("click", (ev) => {
            onTile(i);
            // Chosen by the keyboard: on to the board, where Enter places it.
            if (ev.detail === 0 && selected.includes(i)) focusBoard();
          });
          b.addEventListener("dragstart", (ev) => {
            ev.dataTransfer.setData("text/plain", String(i));
            b.classList.add("dragging");
          });
          b.addEventListener("dragend", () => b.classList.remove("dragging"));
          rack.appendChild(b);
        });
        if (focused !== undefined) {
          const again = rack.querySelector(`[data-index="${focused}"]`);
          if (again) again.focus();
        }
      }
      tiles.forEach((tile, i) => {
        const b = rack.children[i];
        b.textContent = String(tile);
        b.setAttribute("aria-label", _("tile {tile}", { tile }));
        b.setAttribute("aria-pressed", selected.includes(i) ? "true" : "false");
        b.tabIndex = i === Math.min(rackCurrent, tiles.length - 1) ? 0 : -1;
      });
    }

    // The actions of a board of tiles (the shell drew its own before: Pass, Resign...).
    function drawSide() {
      const turn = view.turn || {};
      const committed = (turn.placements || []).length;
      const playing = ui.myTurn() && !ui.busy;
      $("send").disabled = !playing;
      $("undo").disabled = !playing || !pending.length;
      $("extra").hidden = !game.extra;
      $("extra").disabled = !playing || !game.extra || !game.extra.ready(pending, view);
      $("exchange").disabled = !playing || !selected.length || pending.length > 0 || committed > 0;
      $("pass").disabled = !playing || pending.length > 0;
      const over = view.status === "ended";
      $("rack").hidden = over || view.you == null;
      $("rack-title").hidden = over || view.you == null;
      $("drawn").hidden = over;
      $("hint").disabled = !playing || Boolean(view.rated);
      $("hint").hidden = Boolean(view.rated);  // a rated game offers no hints
      $("check").disabled = !playing || !pending.length;
      // The game's own words: its pool of tiles, its actions' names, Check shown or not.
      game.side(view, { pending, committed, $, _ });
      let running = "";
      if (trialOk && trialOk.ok && (pending.length || committed)) running = game.running(trialOk, { _ });
      else if (trialOk && !trialOk.ok) running = _("Not legal: {why}", { why: plain(trialOk.refused.message) });
      $("running").textContent = running;
    }

    // A refusal as the board shows it: without the rules' technical prefix ("placement 1:",
    // "pose 1 :").
    const plain = (text) => (text || "").replace(/^[\p{L} ]{1,20} \d+\s?:\s*/u, "");

    async function refresh() {
      // Where the tiles fit after the placements chosen so far, and what they score.
      view = ui.view;
      if (!view || !ui.myTurn()) { legal = []; trialOk = null; ui.draw(); return; }
      ui.draw();  // what was chosen shows at once; where tiles fit follows
      try {
        trialOk = await ui.api("POST", `/v1/games/${ui.game}/trial`, { commands: game.trial(pending) });
        legal = game.legalAfter(trialOk, pending, legal);
      } catch (e) { trialOk = null; }
      ui.draw();
    }

    function onTile(i) {
      ui.error("");
      const at = selected.indexOf(i);
      if (at >= 0) selected.splice(at, 1); else selected.push(i);
      ui.draw();
    }

    function onSquare(name) {
      ui.error("");
      if (!ui.myTurn()) { ui.error(_("It is not your turn.")); return; }
      const at = pending.findIndex((p) => p.name === name);
      if (at >= 0) { pending.splice(at, 1); refresh(); return; }
      if (!selected.length) { ui.error(_("Choose a tile of your rack first.")); return; }
      const tile = rackLeft()[selected[0]];
      // The game's placement ({name, tile, ...}), or its refusal in words.
      const placed = game.place(name, tile, view, _);
      if (typeof placed === "string") { ui.error(placed); return; }
      pending.push(placed);
      selected = [];
      ui.say(_("{tile} placed on {square}.", { tile, square: name }));
      refresh();
    }

    return {
      async start(lent) {
        ui = lent;
        listen();
        if (game.start) await game.start(ui);
      },
      refresh,
      render(shown) {
        view = shown;
        drawBoard(); drawRack(); drawSide();
      },
      changed() { if (!ui.myTurn()) pending = []; },
      held(shown) { view = shown; return rackLeft(); },
      done() { pending = []; selected = []; },
      focus(part) {
        if (part === "board") { focusBoard(); return true; }
        if (part === "rack") { focusRack(); return true; }
        return false;
      },
      explain: plain,
    };
  }

  window.MathableTiles = Object.freeze({ board });
})();
