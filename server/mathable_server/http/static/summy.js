// Summy's board on the play page: an open table of tiles at x,y (it grows as equations are
// laid), a hand of digits and operators, an equation sent at once, a discard, and Pass only
// once the supply is empty. A board module of the shell (shell.js) built on the board of
// tiles (tiles.js); registered for the ruleset ``summy`` in the entry-point group
// mathable_server.boards (http/boards.py).
(function () {
  "use strict";
  function equation(pending) {
    const placements = pending.map((p) => ({ x: p.x, y: p.y, tile: String(p.tile) }));
    const command = { type: "equation", placements };
    if (placements.length > 1) command.direction = placements.every((p) => p.y === placements[0].y) ? "across" : "down";
    return command;
  }

  MathablePlay.register(MathableTiles.board({
    held: (view) => view.hand || [],
    cells(view, put, { mine, legal, _ }) {
      const cells = new Map((view.table || []).map((t) => [`${t.x},${t.y}`, t.tile]));
      const xs = [0], ys = [0];
      const reach = [];
      for (const c of legal) for (const p of c.placements || []) reach.push(`${p.x},${p.y}`);
      for (const k of [...cells.keys(), ...mine.keys(), ...reach]) {
        const [x, y] = k.split(",").map(Number); xs.push(x); ys.push(y);
      }
      // Room around the tiles for an equation (at least 9 by 9: not a 3 by 3 grid at first).
      let x0 = Math.min(...xs) - 1, x1 = Math.max(...xs) + 1;
      let y0 = Math.min(...ys) - 1, y1 = Math.max(...ys) + 1;
      while (x1 - x0 < 8) { x0 -= 1; if (x1 - x0 < 8) x1 += 1; }
      while (y1 - y0 < 8) { y0 -= 1; if (y1 - y0 < 8) y1 += 1; }
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) {
        const name = `${x},${y}`;
        if (cells.has(name)) put(name, cells.get(name), ["tile"], String(cells.get(name)));
        else if (mine.has(name)) put(name, mine.get(name), ["pending"], String(mine.get(name)));
        else put(name, "", [], _("empty"));
      }
      const colNames = [], rowNames = [];
      for (let x = x0; x <= x1; x++) colNames.push(String(x));
      for (let y = y0; y <= y1; y++) rowNames.push(String(y));
      return { columns: x1 - x0 + 1, colNames, rowNames };
    },
    fits(c, tile) {
      if (c.type !== "equation") return [];
      return c.placements.filter((p) => p.tile === String(tile)).map((p) => `${p.x},${p.y}`);
    },
    place(name, tile) {
      const [x, y] = name.split(",").map(Number);
      return { name, x, y, tile: String(tile) };
    },
    trial: (pending) => (pending.length ? [equation(pending)] : []),
    // Where tiles fit: the legal equations from the table as it is (kept while placing).
    legalAfter: (answer, pending, legal) => (pending.length ? answer.legal || legal : answer.legal || []),
    sendTurn: (pending, ui) => ui.send(equation(pending)),
    exchange: (tiles) => ({ type: "discard", tiles: tiles.map(String) }),
    hint: () => [],
    side(view, { $, _ }) {
      // A discard (not an exchange), and a pass only once the supply is empty.
      $("exchange").textContent = $("exchange").dataset.summy;
      $("pass").hidden = Boolean(view.supply);
      $("check").hidden = false;
      const pool = view.supply;
      $("pool").textContent = pool == null ? "" : _("Tiles in the supply: {n}.", { n: pool });
    },
    running: (answer, { _ }) => _("That is an equation: {n} points.", { n: answer.score_change }),
  }));
})();
