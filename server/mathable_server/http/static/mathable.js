// Mathable's board on the play page: the 14 by 14 squares of the ruleset (GET
// /v1/rulesets/mathable: operations and premiums), numbered tiles, the extra tile drawn
// after an operation square. A board module of the shell (shell.js) built on the board
// of tiles (tiles.js); registered for the ruleset ``mathable`` in the entry-point group
// mathable_server.boards (http/boards.py).
(function () {
  "use strict";
  let squares = null;  // the ruleset's board: columns, rows, operations, premiums

  function squareKind(name) {
    if (!squares) return "";
    for (const [op, names] of Object.entries(squares.operations || {})) if (names.includes(name)) return "op:" + op;
    for (const [p, names] of Object.entries(squares.premiums || {})) if (names.includes(name)) return "p" + p;
    return "";
  }

  // What lies on an empty square, in words (its accessible name follows the square: "A1, times 3").
  function contents(kind, _) {
    const ops = { "+": _("plus"), "-": _("minus"), "x": _("times"), "*": _("times"), "/": _("divided by") };
    if (kind.startsWith("op:")) return ops[kind.slice(3)] || kind.slice(3);
    if (kind) return _("times {n}", { n: kind.slice(1) });
    return _("empty");
  }

  async function sendPlacementsOneByOne(pending, ui) {
    while (pending.length) {
      const p = pending[0];
      await ui.send({ type: "place", square: p.square, tile: Number(p.tile) });
      pending.shift();
    }
  }

  const placements = (pending) => pending.map((p) => ({ type: "place", square: p.square, tile: Number(p.tile) }));

  MathablePlay.register(MathableTiles.board({
    async start(ui) {
      const found = await ui.api("GET", `/v1/rulesets/${ui.ruleset}`).catch(() => null);
      const data = found && (found.data || found);
      squares = data && data.board ? data.board : null;
    },
    held: (view) => view.rack || [],
    cells(view, put, { mine, _ }) {
      const cols = squares ? squares.columns : "ABCDEFGHIJKLMN";
      const rows = squares ? squares.rows : 14;
      for (let r = 1; r <= rows; r++) for (const c of cols) {
        const name = c + r;
        const kind = squareKind(name);
        if (view.board[name] !== undefined) put(name, String(view.board[name]), ["tile"], String(view.board[name]));
        else if (mine.has(name)) put(name, String(mine.get(name)), ["pending"], String(mine.get(name)));
        else if (kind.startsWith("op:")) put(name, kind.slice(3).replace("x", "×").replace("/", "÷"), ["op"], contents(kind, _));
        else if (kind) put(name, "×" + kind.slice(1), [kind], contents(kind, _));
        else put(name, "", [], contents("", _));
      }
      const rowNames = [];
      for (let r = 1; r <= rows; r++) rowNames.push(String(r));
      return { columns: cols.length, colNames: [...cols], rowNames };
    },
    fits: (c, tile) => (c.type === "place" && String(c.tile) === String(tile) ? [c.square] : []),
    place(name, tile, view, _) {
      if (view.board[name] !== undefined) return _("{square} is taken.", { square: name });
      return { name, square: name, tile };
    },
    trial: placements,
    legalAfter: (answer) => answer.legal || [],
    async sendTurn(pending, ui) {
      const committed = (ui.view.turn && ui.view.turn.placements || []).length;
      if (!pending.length && !committed) throw new Error(ui._("Place a tile first, or pass."));
      if (committed) { await sendPlacementsOneByOne(pending, ui); await ui.send({ type: "end_turn" }); return; }
      await ui.send({ type: "turn", placements: pending.map((p) => ({ square: p.square, tile: Number(p.tile) })) });
    },
    extra: {
      ready: (pending, view) => Boolean(view.bag_size) && (pending.length
        ? squareKind(pending[pending.length - 1].square).startsWith("op:")
        : Boolean((view.turn || {}).extra_available)),
      async send(pending, ui) {
        await sendPlacementsOneByOne(pending, ui);
        await ui.send({ type: "draw_extra" });
      },
    },
    exchange: (tiles) => ({ type: "exchange", tiles }),
    hint: placements,
    side(view, { $, _ }) {
      $("check").hidden = true;
      const pool = view.bag_size;
      $("pool").textContent = pool == null ? "" : _("Tiles in the bag: {n}.", { n: pool });
    },
    running: (answer, { _ }) => _("This turn so far: {n} points.",
      { n: answer.view && answer.view.turn ? answer.view.turn.points : answer.score_change }),
  }));
})();
