// The board of tiles that Mathable and Summy share (their plugins register this script,
// mathable_server.http.boards): our own small script, no build step, no framework.
// Every command goes through the JSON API (/v1/games/{id}/moves) with the game's version
// and an Idempotency-Key, authenticated by the session cookie and the page's CSRF token.
// The rules stay on the server: where a tile fits, the running score and whether a
// Summy equation is one come from POST /v1/games/{id}/trial.
(function () {
  "use strict";
  const root = document.getElementById("play");
  const GAME = root.dataset.game;
  const CSRF = root.dataset.csrf;
  const $ = (id) => document.getElementById(id);
  // The page's words in its language, which the server embeds (#play-words: no inline
  // script runs); a text it does not give is shown as written (English).
  const LANG = document.documentElement.lang || "en";
  const WORDS = JSON.parse(($("play-words") || {}).textContent || "{}");
  function _(text, values) {
    const said = WORDS[text] || text;
    if (!values) return said;
    return said.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
  }
  // Names as the page's language lists them ("ann and bob").
  const listed = (names) => (Intl.ListFormat
    ? new Intl.ListFormat(LANG, { type: "conjunction" }).format(names) : names.join(", "));
  let view = null;          // the seat's view, as the API answers it
  let rulesData = null;     // GET /v1/rulesets/{name}: the board's squares
  let pending = [];         // placements chosen, not sent: {square,tile} or {x,y,tile}
  let selected = [];        // indices into the rack (what is left of it)
  let legal = [];           // legal commands after the pending placements
  let trialOk = null;       // the last trial's answer
  let busy = false;

  function api(method, path, body) {
    const headers = { "Accept": "application/json" };
    if (method !== "GET") {
      headers["Content-Type"] = "application/json";
      headers["X-CSRF-Token"] = CSRF;
    }
    return fetch(path, { method, headers, credentials: "same-origin",
                         body: body === undefined ? undefined : JSON.stringify(body) })
      .then(async (r) => {
        const text = await r.text();
        const data = text ? JSON.parse(text) : {};
        if (!r.ok) throw refusal(data, r);
        return data;
      });
  }

  // The API's refusal as an Error: its message is what the page shows.
  function refusal(data, r) {
    const found = (data && data.error) || {};
    const e = new Error(found.message || r.statusText);
    e.data = found;
    return e;
  }

  function key() {
    return (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now());
  }

  // One command, sent as the CLI sends it: the version it was chosen at, a fresh key.
  async function send(command) {
    const body = Object.assign({}, command, { expected_version: view.version });
    const headers = { "Content-Type": "application/json", "X-CSRF-Token": CSRF,
                      "Idempotency-Key": key(), "Accept": "application/json" };
    const r = await fetch(`/v1/games/${GAME}/moves`, { method: "POST", headers,
                          credentials: "same-origin", body: JSON.stringify(body) });
    const data = await r.json();
    if (!r.ok) throw refusal(data, r);
    view = data;
    return data;
  }

  const isBoard = () => view && view.board !== undefined;
  const names = () => (view.seats || []).map((s) => s.name || _("seat {n}", { n: s.seat + 1 }));
  const myTurn = () => view && view.status === "playing" && view.turn && view.turn.seat === view.you;
  const held = () => (isBoard() ? view.rack : view.hand) || [];

  function rackLeft() {
    const left = held().slice();
    for (const p of pending) {
      const i = left.findIndex((t) => String(t) === String(p.tile));
      if (i >= 0) left.splice(i, 1);
    }
    return left;
  }

  // A refusal as the board shows it: without the rules' technical prefix ("placement 1:",
  // "pose 1 :"), in the alert region beside the actions (the board does not move).
  const plain = (text) => (text || "").replace(/^[\p{L} ]{1,20} \d+\s?:\s*/u, "");
  function error(text) { $("error").textContent = plain(text); }
  // Said to everyone: shown, and read by screen readers (a live region).
  function say(text) { $("news").textContent = text || ""; }

  // A time in the player's time zone (PATCH /v1/me), else the browser's, the zone named.
  function localTime(iso) {
    const asked = root.dataset.timeZone || undefined;
    try {
      const zone = asked || Intl.DateTimeFormat().resolvedOptions().timeZone;
      const words = new Date(iso).toLocaleString(LANG === "en" ? "en-GB" : LANG, {
        weekday: "short", day: "numeric", month: "short", year: "numeric",
        hour: "2-digit", minute: "2-digit", timeZone: zone, timeZoneName: "short" });
      return `${words} (${zone})`;
    } catch (e) { return iso; }
  }

  // --- drawing ------------------------------------------------------------------------
  function squareKind(name) {
    const b = rulesData && rulesData.board;
    if (!b) return "";
    for (const [op, squares] of Object.entries(b.operations || {})) if (squares.includes(name)) return "op:" + op;
    for (const [p, squares] of Object.entries(b.premiums || {})) if (squares.includes(name)) return "p" + p;
    return "";
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
    for (const c of legal) {
      if (c.type === "place" && String(c.tile) === String(tile)) out.add(c.square);
      if (c.type === "equation") for (const p of c.placements) if (p.tile === String(tile)) out.add(`${p.x},${p.y}`);
    }
    return out;
  }

  // What lies on a square, in words (its accessible name follows the square: "I8, 12").
  function contents(name, kind) {
    const ops = { "+": _("plus"), "-": _("minus"), "x": _("times"), "*": _("times"), "/": _("divided by") };
    if (isBoard() && view.board[name] !== undefined) return String(view.board[name]);
    if (kind.startsWith("op:")) return ops[kind.slice(3)] || kind.slice(3);
    if (kind) return _("times {n}", { n: kind.slice(1) });
    return _("empty");
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

  // The squares to show, each {name, shown, classes}, and how many columns.
  function cellsToShow() {
    const last = lastSquares();
    const tile = selected.length ? rackLeft()[selected[0]] : undefined;
    const fits = fitsFor(tile);
    const mine = new Map(pending.map((p) => [p.square || `${p.x},${p.y}`, p.tile]));
    const out = [];
    const cell = (name, shown, classes, said) => {
      const words = [name, said];
      if (classes.includes("pending")) words.push(_("placed this turn"));
      if (last.has(name)) { classes.push("last"); words.push(_("last turn")); }
      if (fits.has(name)) classes.push("fits");
      if (tile !== undefined && !classes.includes("tile") && !classes.includes("pending")) {
        words.push(fits.has(name) ? _("{tile} fits", { tile }) : _("{tile} does not fit", { tile }));
      }
      out.push({ name, shown, classes, label: words.join(", ") });
    };
    if (isBoard()) {
      const cols = rulesData ? rulesData.board.columns : "ABCDEFGHIJKLMN";
      const rows = rulesData ? rulesData.board.rows : 14;
      for (let r = 1; r <= rows; r++) for (const c of cols) {
        const name = c + r;
        const kind = squareKind(name);
        if (view.board[name] !== undefined) cell(name, String(view.board[name]), ["tile"], String(view.board[name]));
        else if (mine.has(name)) cell(name, String(mine.get(name)), ["pending"], String(mine.get(name)));
        else if (kind.startsWith("op:")) cell(name, kind.slice(3).replace("x", "×").replace("/", "÷"), ["op"], contents(name, kind));
        else if (kind) cell(name, "×" + kind.slice(1), [kind], contents(name, kind));
        else cell(name, "", [], _("empty"));
      }
      const rowNames = [];
      for (let r = 1; r <= rows; r++) rowNames.push(String(r));
      return { columns: cols.length, cells: out, colNames: [...cols], rowNames };
    }
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
      if (cells.has(name)) cell(name, cells.get(name), ["tile"], String(cells.get(name)));
      else if (mine.has(name)) cell(name, mine.get(name), ["pending"], String(mine.get(name)));
      else cell(name, "", [], _("empty"));
    }
    const colNames = [], rowNames = [];
    for (let x = x0; x <= x1; x++) colNames.push(String(x));
    for (let y = y0; y <= y1; y++) rowNames.push(String(y));
    return { columns: x1 - x0 + 1, cells: out, colNames, rowNames };
  }

  let rackCurrent = 0;  // the rack's one Tab stop (roving tabindex)

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
  for (const a of document.querySelectorAll("a[data-skip]")) {
    a.addEventListener("click", (ev) => {
      ev.preventDefault();
      if (a.dataset.skip === "board") focusBoard();
      else if (a.dataset.skip === "rack") focusRack();
      else { const b = [...$("actions").querySelectorAll("button")].find((x) => !x.hidden && !x.disabled); (b || $("actions")).focus(); }
    });
  }

  let layout = "";
  let columnsShown = 1;
  let current = null;  // the board's one Tab stop (roving tabindex): a square's name
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

  function drawSide() {
    const who = names();
    const tbody = $("scores").querySelector("tbody");
    tbody.textContent = "";
    for (const s of view.seats) {
      const tr = document.createElement("tr");
      if (view.turn && view.turn.seat === s.seat && view.status === "playing") tr.className = "to-play";
      const th = document.createElement("th");
      th.textContent = s.seat === view.you ? _("{name} (you)", { name: who[s.seat] }) : who[s.seat];
      const td = document.createElement("td");
      td.className = "num";
      td.textContent = String(s.score);
      tr.append(th, td);
      tbody.appendChild(tr);
    }
    let status;
    if (view.status === "ended") {
      const winners = (view.result || {}).winners;
      const w = (winners || []).map((i) => who[i]);
      status = !w.length ? _("Game over: no winner.")
        : w.length > 1 ? _("Game over: {winners} share the win.", { winners: listed(w) })
        : _("Game over: {winner} wins.", { winner: w[0] });
      // Its bag order still dealt in another game: who won is told once that game ends.
      if (winners === null) status = _("Game over: who won shows once the other games of its bag order have ended.");
    } else if (view.status === "playing") {
      status = myTurn() ? _("Your turn.") : _("{name} to play.", { name: who[view.turn.seat] });
    } else status = _("Waiting for players.");
    $("status").textContent = status;
    // Invited by name (not seated yet, a seat free): join or decline from the page.
    $("invite-actions").hidden = !(view.status === "waiting" && view.you == null);
    const clock = view.clock;
    $("clock").textContent = clock && clock.deadline ? _("Deadline: {time}", { time: localTime(clock.deadline) }) : "";
    const turn = view.turn || {};
    const committed = (turn.placements || []).length;
    const extraReady = isBoard() && (pending.length
      ? squareKind(pending[pending.length - 1].square).startsWith("op:")
      : Boolean(turn.extra_available));
    const playing = myTurn() && !busy;
    $("send").disabled = !playing;
    $("undo").disabled = !playing || !pending.length;
    $("extra").disabled = !playing || !extraReady || !view.bag_size;
    $("extra").hidden = !isBoard();
    $("exchange").disabled = !playing || !selected.length || pending.length > 0 || committed > 0;
    $("pass").disabled = !playing || pending.length > 0;
    // Summy: a discard (not an exchange), and a pass only once the supply is empty.
    if (!isBoard()) {
      $("exchange").textContent = $("exchange").dataset.summy;
      $("pass").hidden = Boolean(view.supply);
    }
    const pool = isBoard() ? view.bag_size : view.supply;
    $("pool").textContent = pool == null ? ""
      : isBoard() ? _("Tiles in the bag: {n}.", { n: pool }) : _("Tiles in the supply: {n}.", { n: pool });
    // No dead buttons: once the game is over the rack and the actions go.
    const over = view.status === "ended";
    $("actions").hidden = over;
    $("rack").hidden = over || view.you == null;
    $("rack-title").hidden = over || view.you == null;
    $("drawn").hidden = over;
    $("resign").disabled = view.status !== "playing" || busy;
    $("hint").disabled = !playing || Boolean(view.rated);
    $("hint").hidden = Boolean(view.rated);  // a rated game offers no hints
    $("rated").hidden = !view.rated;
    drawOver(who);
    $("talk").hidden = view.you == null;  // the seats' messages: a seat's page only
    $("check").hidden = isBoard();
    $("check").disabled = !playing || !pending.length;
    let running = "";
    if (trialOk && trialOk.ok && (pending.length || committed)) {
      const pts = trialOk.view && trialOk.view.turn ? trialOk.view.turn.points : trialOk.score_change;
      running = isBoard() ? _("This turn so far: {n} points.", { n: pts })
        : _("That is an equation: {n} points.", { n: trialOk.score_change });
    } else if (trialOk && !trialOk.ok) running = _("Not legal: {why}", { why: plain(trialOk.refused.message) });
    $("running").textContent = running;
  }

  // A finished game: the result with what the end took off each rack, and the rematch.
  function drawOver(who) {
    const result = view.status === "ended" ? view.result : null;
    $("over").hidden = !result;
    if (!result) return;
    const words = [];
    const taken = (result.deductions || []).map((d, i) => (d ? `${who[i]} ${d > 0 ? "-" + d : "+" + -d}` : null)).filter(Boolean);
    if (taken.length) words.push(_("The tiles left on the racks counted: {list}.", { list: taken.join(", ") }));
    const scores = (result.scores || []).map((s, i) => (s == null ? null : `${who[i]} ${s}`)).filter(Boolean);
    if (scores.length) words.push(_("Final scores: {list}.", { list: scores.join(", ") }));
    $("result").textContent = words.join(" ");
    $("rematch").hidden = view.you == null;
  }

  function draw() {
    root.dataset.version = String(view.version);  // the version shown (tests read it)
    drawBoard(); drawRack(); drawSide();
  }

  // --- what the player does -------------------------------------------------------------
  function pendingCommands() {
    return pending.map((p) => (isBoard()
      ? { type: "place", square: p.square, tile: Number(p.tile) }
      : null)).filter(Boolean);
  }

  function summyCommand() {
    const placements = pending.map((p) => ({ x: p.x, y: p.y, tile: String(p.tile) }));
    const command = { type: "equation", placements };
    if (placements.length > 1) command.direction = placements.every((p) => p.y === placements[0].y) ? "across" : "down";
    return command;
  }

  async function retry() {
    // Where the tiles fit after the placements chosen so far, and what they score.
    if (!view || !myTurn()) { legal = []; trialOk = null; draw(); return; }
    draw();  // what was chosen shows at once; where tiles fit follows
    try {
      const commands = isBoard() ? pendingCommands() : (pending.length ? [summyCommand()] : []);
      trialOk = await api("POST", `/v1/games/${GAME}/trial`, { commands });
      legal = trialOk.legal || (isBoard() ? [] : legal);
      if (!isBoard() && !pending.length) legal = trialOk.legal || [];
    } catch (e) { trialOk = null; }
    draw();
  }

  function onTile(i) {
    error("");
    const at = selected.indexOf(i);
    if (at >= 0) selected.splice(at, 1); else selected.push(i);
    draw();
  }

  function onSquare(name) {
    error("");
    if (!myTurn()) { error(_("It is not your turn.")); return; }
    const at = pending.findIndex((p) => (p.square || `${p.x},${p.y}`) === name);
    if (at >= 0) { pending.splice(at, 1); retry(); return; }
    if (!selected.length) { error(_("Choose a tile of your rack first.")); return; }
    const tile = rackLeft()[selected[0]];
    if (isBoard()) {
      if (view.board[name] !== undefined) { error(_("{square} is taken.", { square: name })); return; }
      pending.push({ square: name, tile });
    } else {
      const [x, y] = name.split(",").map(Number);
      pending.push({ x, y, tile: String(tile) });
    }
    selected = [];
    say(_("{tile} placed on {square}.", { tile, square: name }));
    retry();
  }

  // The tiles that came to the rack since ``before`` (what was left of it), in words.
  function drawnSince(before) {
    const left = before.map(String);
    const came = [];
    for (const t of held()) {
      const i = left.indexOf(String(t));
      if (i >= 0) left.splice(i, 1); else came.push(String(t));
    }
    return came;
  }

  // After a turn sent: the next game waiting on this player (GET /v1/me), if any.
  async function nextGame() {
    try {
      const me = await api("GET", "/v1/me?limit=100");
      const next = (me.games || []).find((g) => (g.your_turn || g.waiting_on_you) && (g.id || g.game_id) !== GAME);
      $("next-game").hidden = !next;
      if (next) $("next-game-link").href = `/play/${next.id || next.game_id}`;
    } catch (e) { /* no link */ }
  }

  async function act(what) {
    if (busy) return;
    busy = true; error(""); drawSide();
    const before = rackLeft();
    const wasMine = myTurn();
    try {
      await what(); pending = []; selected = [];
      const came = drawnSince(before);
      if (came.length && view.you != null) {
        const words = came.length === 1 ? _("You drew {tile}.", { tile: came[0] })
          : _("You drew {tiles}.", { tiles: listed(came) });
        $("drawn").textContent = words;
        say(words);
      }
      if (wasMine && !myTurn()) {
        nextGame();
        // The button pressed is disabled now: the keyboard's focus waits on the rack.
        if (!document.activeElement || document.activeElement === document.body
            || $("actions").contains(document.activeElement)) focusRack();
      }
    }
    catch (e) { error(e.message); if (e.data && e.data.code === "version_conflict") await load(); }
    finally {
      busy = false;
      if (queued && queued.version > view.version) { const next = queued; queued = null; changed(next); }
      moves(false); await retry();
    }
  }

  async function sendPlacementsOneByOne() {
    for (const c of pendingCommands()) { await send(c); pending.shift(); }
  }

  $("send").addEventListener("click", () => act(async () => {
    if (!isBoard()) { await send(summyCommand()); return; }
    const committed = (view.turn && view.turn.placements || []).length;
    if (!pending.length && !committed) throw new Error(_("Place a tile first, or pass."));
    if (committed) { await sendPlacementsOneByOne(); await send({ type: "end_turn" }); return; }
    await send({ type: "turn", placements: pending.map((p) => ({ square: p.square, tile: Number(p.tile) })) });
  }));
  $("extra").addEventListener("click", () => act(async () => {
    await sendPlacementsOneByOne();
    await send({ type: "draw_extra" });
  }));
  $("undo").addEventListener("click", () => { pending.pop(); error(""); retry(); });
  $("check").addEventListener("click", () => retry());
  $("pass").addEventListener("click", () => {
    if (window.confirm(_("Pass this turn?"))) act(() => send({ type: "pass" }));
  });
  $("join").addEventListener("click", () => act(async () => {
    await api("POST", `/v1/games/${GAME}/join`, {});
    await load();
  }));
  $("decline").addEventListener("click", () => act(async () => {
    await api("POST", `/v1/games/${GAME}/decline`, {});
    window.location.href = "/me";
  }));
  $("exchange").addEventListener("click", () => act(() => {
    const left = rackLeft();
    const tiles = selected.map((i) => left[i]);
    return send(isBoard() ? { type: "exchange", tiles } : { type: "discard", tiles: tiles.map(String) });
  }));
  $("resign").addEventListener("click", () => {
    if (window.confirm(_("Resign this game?"))) act(() => send({ type: "resign" }));
  });
  $("hint").addEventListener("click", async () => {
    if (view.rated) { error(_("Rated game: no hints.")); return; }
    try {
      const commands = isBoard() ? pendingCommands() : [];
      const answer = await api("POST", `/v1/games/${GAME}/trial`, { commands, hint: true });
      $("hint-text").textContent = answer.hint ? _("Hint: {words}", { words: answer.hint.words }) : _("No hint: nothing fits.");
    } catch (e) { error(e.message); }
  });

  // A rematch: the same game and clock, the seats rotated; asked twice, the same new game.
  $("rematch").addEventListener("click", () => act(async () => {
    const answer = await api("POST", `/v1/games/${GAME}/rematch`, {});
    window.location.href = `/play/${answer.id}`;
  }));

  // --- messages between the seats -------------------------------------------------------
  // Read with GET /v1/games/{id}/messages after the last one shown; written with POST.
  // The game's stream has no message lines: they are read at each of its lines while the
  // page is lively (two minutes after it opened, a move, a message, coming back to the
  // tab), else at every sixth heartbeat (a minute), so that idle pages cost little.
  let lastMessage = 0;
  let reading = null;
  let livelyUntil = Date.now() + 120000;
  let beats = 0;
  const lively = () => { livelyUntil = Date.now() + 120000; };
  function streamLine(heartbeat) {
    if (!heartbeat) lively();
    beats += 1;
    if (!heartbeat || Date.now() < livelyUntil || beats % 6 === 0) readMessages();
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") { lively(); readMessages(); }
  });
  function readMessages() {
    if (!view || view.you == null) return Promise.resolve();
    if (reading) return reading;
    reading = (async () => {
      try {
        const found = await api("GET", `/v1/games/${GAME}/messages?since=${lastMessage}`);
        const who = names();
        for (const m of found.messages || []) {
          if (m.id <= lastMessage) continue;
          lastMessage = m.id;
          lively();
          const li = document.createElement("li");
          li.dataset.id = String(m.id);
          li.title = m.at;
          const time = document.createElement("time");
          time.dateTime = m.at;
          time.textContent = localTime(m.at);
          const name = document.createElement("strong");
          name.textContent = (m.seat === view.you ? _("you") : who[m.seat] || _("seat {n}", { n: m.seat + 1 })) + ": ";
          li.append(time, name, document.createTextNode(m.text));
          $("messages").appendChild(li);
        }
      } catch (e) { /* shown at the next read */ }
      finally { reading = null; }
    })();
    return reading;
  }

  $("say").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const text = $("say-text").value;
    $("say-send").disabled = true;
    try {
      const headers = { "Content-Type": "application/json", "X-CSRF-Token": CSRF,
                        "Idempotency-Key": key(), "Accept": "application/json" };
      const r = await fetch(`/v1/games/${GAME}/messages`, { method: "POST", headers,
                            credentials: "same-origin", body: JSON.stringify({ text }) });
      const data = await r.json();
      if (!r.ok) throw refusal(data, r);
      $("say-text").value = "";
      error("");
      await readMessages();
    } catch (e) { error(e.message); }
    finally { $("say-send").disabled = false; }
  });

  // --- live ---------------------------------------------------------------------------------
  // The move list, as the server words it; the last finished turn is announced.
  async function moves(announce) {
    try {
      const r = await fetch(`/play/${GAME}/moves`, { credentials: "same-origin" });
      if (!r.ok) return;
      $("moves").innerHTML = await r.text();  // the server's template escaped every word
      const done = [...$("moves").querySelectorAll("li")].filter((li) => li.dataset.kind !== "playing");
      const ended = $("moves").querySelector("li[data-kind=ended]");
      $("reason").textContent = ended ? ended.textContent : "";
      if (announce && done.length) say(done[done.length - 1].textContent);
    } catch (e) { /* the list stays as it was */ }
  }

  function changed(next) {
    const old = view;
    view = next;
    if (old && next.version !== old.version) {
      if (!myTurn()) pending = [];
      moves(true);
    }
    retry();
  }

  // Follows the game over its own stream (GET /v1/games/{id}/stream: the whole view after
  // every change, NDJSON), resumed from the version shown after any break. A view that comes
  // while a command of ours is on its way waits for it (``queued``).
  let queued = null;
  async function follow(onView) {
    const pause = () => new Promise((ok) => setTimeout(ok, 3000));
    const take = (next) => {
      if (next.version <= view.version) return;
      if (busy) queued = next; else onView(next);
    };
    for (;;) {
      try {
        const r = await fetch(`/v1/games/${GAME}/stream?since=${view.version}`,
                              { credentials: "same-origin", headers: { "Accept": "application/x-ndjson" } });
        if (r.status === 401) { error(_("Signed out: sign in again.")); return; }
        if (!r.ok || !r.body) { await pause(); continue; }
        const reader = r.body.getReader();
        const decoder = new TextDecoder();
        let text = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
          let end;
          while ((end = text.indexOf("\n")) >= 0) {
            const raw = text.slice(0, end).trim();
            text = text.slice(end + 1);
            streamLine(!raw);  // the messages, read at the lines of the stream
            if (!raw) continue;  // a heartbeat
            const line = JSON.parse(raw);
            if (line.type === "game" && line.view) take(line.view);
          }
        }
      } catch (e) { await pause(); }
    }
  }

  async function load() {
    view = await api("GET", `/v1/games/${GAME}`);
  }

  (async function start() {
    try {
      rulesData = await api("GET", `/v1/rulesets/${root.dataset.ruleset}`).catch(() => null);
      rulesData = rulesData && (rulesData.data || rulesData);
      await load();
      await retry();
      moves(false);
      readMessages();
      follow(changed);
    } catch (e) { error(e.message); }
  })();
})();
