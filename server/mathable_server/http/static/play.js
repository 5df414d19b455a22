// The seat's game page: our own small script, no build step, no framework.
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
  const listed = (names) => (LANG === "en" || !Intl.ListFormat
    ? names.join(" and ") : new Intl.ListFormat(LANG, { type: "conjunction" }).format(names));
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

  function error(text) { $("error").textContent = text || ""; }

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

  function squareButton(name) {
    const b = document.createElement("button");
    b.type = "button";
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
    const cell = (name, shown, classes) => {
      if (last.has(name)) classes.push("last");
      if (fits.has(name)) classes.push("fits");
      out.push({ name, shown, classes });
    };
    if (isBoard()) {
      const cols = rulesData ? rulesData.board.columns : "ABCDEFGHIJKLMN";
      const rows = rulesData ? rulesData.board.rows : 14;
      for (let r = 1; r <= rows; r++) for (const c of cols) {
        const name = c + r;
        const kind = squareKind(name);
        if (view.board[name] !== undefined) cell(name, String(view.board[name]), ["tile"]);
        else if (mine.has(name)) cell(name, String(mine.get(name)), ["pending"]);
        else if (kind.startsWith("op:")) cell(name, kind.slice(3).replace("x", "×").replace("/", "÷"), ["op"]);
        else if (kind) cell(name, "×" + kind.slice(1), [kind]);
        else cell(name, "", []);
      }
      return { columns: cols.length, cells: out };
    }
    const cells = new Map((view.table || []).map((t) => [`${t.x},${t.y}`, t.tile]));
    const xs = [0], ys = [0];
    const reach = [];
    for (const c of legal) for (const p of c.placements || []) reach.push(`${p.x},${p.y}`);
    for (const k of [...cells.keys(), ...mine.keys(), ...reach]) {
      const [x, y] = k.split(",").map(Number); xs.push(x); ys.push(y);
    }
    const x0 = Math.min(...xs) - 1, x1 = Math.max(...xs) + 1;
    const y0 = Math.min(...ys) - 1, y1 = Math.max(...ys) + 1;
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) {
      const name = `${x},${y}`;
      if (cells.has(name)) cell(name, cells.get(name), ["tile"]);
      else if (mine.has(name)) cell(name, mine.get(name), ["pending"]);
      else cell(name, "", []);
    }
    return { columns: x1 - x0 + 1, cells: out };
  }

  let layout = "";
  function drawBoard() {
    const grid = $("board");
    const { columns, cells } = cellsToShow();
    const shape = columns + ":" + cells.map((c) => c.name).join(" ");
    if (shape !== layout) {  // new squares: built again (the focus stays on its square)
      const focused = document.activeElement && document.activeElement.dataset.square;
      layout = shape;
      grid.textContent = "";
      grid.style.gridTemplateColumns = `repeat(${columns}, 1fr)`;
      for (const c of cells) grid.appendChild(squareButton(c.name));
      if (focused) {
        const again = grid.querySelector(`[data-square="${CSS.escape(focused)}"]`);
        if (again) again.focus();
      }
    }
    // The same squares: changed in place, so that nothing under a finger or a click moves.
    const buttons = grid.children;
    cells.forEach((c, i) => {
      const b = buttons[i];
      const cls = c.classes.join(" ");
      if (b.className !== cls) b.className = cls;
      if (b.firstChild.textContent !== c.shown) b.firstChild.textContent = c.shown;
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
        b.addEventListener("click", () => onTile(i));
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
    } else if (trialOk && !trialOk.ok) running = _("Not legal: {why}", { why: trialOk.refused.message });
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
    retry();
  }

  async function act(what) {
    if (busy) return;
    busy = true; error(""); drawSide();
    try { await what(); pending = []; selected = []; }
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
  $("pass").addEventListener("click", () => act(() => send({ type: "pass" })));
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
          const name = document.createElement("strong");
          name.textContent = (m.seat === view.you ? _("you") : who[m.seat] || _("seat {n}", { n: m.seat + 1 })) + ": ";
          li.append(name, document.createTextNode(m.text));
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
      if (announce && done.length) $("news").textContent = done[done.length - 1].textContent;
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
      readMessages();
      follow(changed);
    } catch (e) { error(e.message); }
  })();
})();
