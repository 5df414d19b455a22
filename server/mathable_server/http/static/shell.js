// The play page's shell (/play/{id}): what every game's page does, whatever its board.
// Our own small script, no build step, no framework, no inline script (strict CSP).
//
// The shell fetches the seat's view (GET /v1/games/{id}), follows the game's stream
// (GET /v1/games/{id}/stream), keeps the move list (/play/{id}/moves) and the live region
// (#news), shows refusals (#error), the scores, the status, the clock, the game over,
// Pass (confirmed), Resign, Join/Decline, Rematch, Next game, the skip links and the
// seats' messages with their time, and sends every command through the JSON API
// (/v1/games/{id}/moves) with the game's version and an Idempotency-Key.
//
// A game's board is a second script (its plugin's, mathable_server.http.boards; else the
// generic board, /static/generic.js) that calls, once:
//
//   MathablePlay.register({
//     start(ui),            // optional, async: once, before the first view is drawn
//     refresh(ui),          // optional, async: after each new view and each command
//                           //   (e.g. ask POST /v1/games/{id}/trial), then ui.draw();
//                           //   without it the shell calls ui.draw()
//     render(view, ui),     // draws the board's own parts; called by ui.draw() after the
//                           //   shell drew its own (it may adjust #pass, #pool...)
//     changed(old, view, ui), // optional: another version came (forget stale choices)
//     held(view),           // optional: the tiles in hand not yet placed (the shell says
//                           //   which ones came after a command: "You drew 7.")
//     done(ui),             // optional: a command went through (clear the choices)
//     focus(part),          // optional: "board", "rack" or "actions" (the skip links,
//                           //   and the focus after a turn sent); true if it moved it
//     explain(message),     // optional: a refusal's message as the board words it
//   });
//
// ``ui`` is what the shell lends a board (see ``ui`` below): ``view`` (the current view),
// ``busy``, ``myTurn()``, ``names()``, ``api(method, path, body)``, ``send(command)`` (one
// command at the version shown; the answer becomes the view), ``act(async fn)`` (a
// command or several, with the page busy meanwhile, then the refusal or what was drawn
// said), ``draw()``, ``refresh()``, ``error(text)``, ``say(text)`` (the live region),
// ``_(text, values)`` (the page's words), ``listed(names)``, ``localTime(iso)``, ``$``,
// ``game``, ``ruleset``, ``root``.
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
  let board = null;         // the board module registered
  let busy = false;

  function api(method, path, body, extra) {
    const headers = Object.assign({ "Accept": "application/json" }, extra || {});
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
    view = await api("POST", `/v1/games/${GAME}/moves`,
                     Object.assign({}, command, { expected_version: view.version }),
                     { "Idempotency-Key": key() });
    return view;
  }

  const names = () => (view.seats || []).map((s) => s.name || _("seat {n}", { n: s.seat + 1 }));
  const myTurn = () => Boolean(view && view.status === "playing" && view.turn && view.turn.seat === view.you);

  // A refusal, in the alert region beside the actions (the board does not move).
  function error(text) {
    $("error").textContent = board && board.explain && text ? board.explain(text) : (text || "");
  }
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

  // --- drawing --------------------------------------------------------------------------
  function drawShell() {
    const who = names();
    const tbody = $("scores").querySelector("tbody");
    tbody.textContent = "";
    for (const s of view.seats || []) {
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
    // No dead buttons: once the game is over the actions go.
    $("actions").hidden = view.status === "ended";
    $("pass").hidden = false;
    $("pass").disabled = !myTurn() || busy;
    $("resign").disabled = view.status !== "playing" || busy;
    $("rated").hidden = !view.rated;
    drawOver(who);
    $("talk").hidden = view.you == null;  // the seats' messages: a seat's page only
    root.dataset.version = String(view.version);  // the version shown (tests read it)
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
    if (!view) return;
    drawShell();
    board.render(view, ui);
  }

  async function refresh() {
    if (!view) return;
    if (board.refresh) await board.refresh(ui); else draw();
  }

  // --- what the player does -------------------------------------------------------------
  // The tiles that came to the hand since ``before`` (what was left of it), in words.
  function drawnSince(before, now) {
    const left = before.map(String);
    const came = [];
    for (const t of now) {
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

  const focusOn = (part) => Boolean(board && board.focus && board.focus(part));
  function focusActions() {
    if (focusOn("actions")) return;
    const b = [...$("actions").querySelectorAll("button")].find((x) => !x.hidden && !x.disabled);
    (b || $("actions")).focus();
  }

  async function act(what) {
    if (busy) return;
    busy = true; error(""); draw();
    const before = board.held && view ? board.held(view) : null;
    const wasMine = myTurn();
    try {
      await what();
      if (board.done) board.done(ui);
      const came = before ? drawnSince(before, board.held(view)) : [];
      if (came.length && view.you != null) {
        const words = came.length === 1 ? _("You drew {tile}.", { tile: came[0] })
          : _("You drew {tiles}.", { tiles: listed(came) });
        const drawn = $("drawn");
        if (drawn) drawn.textContent = words;
        say(words);
      }
      if (wasMine && !myTurn()) {
        nextGame();
        // The button pressed is disabled now: the keyboard's focus waits on the rack.
        if (!document.activeElement || document.activeElement === document.body
            || $("actions").contains(document.activeElement)) focusOn("rack");
      }
    }
    catch (e) { error(e.message); if (e.data && e.data.code === "version_conflict") await load(); }
    finally {
      busy = false;
      if (queued && queued.version > view.version) { const next = queued; queued = null; changed(next); }
      moves(false); await refresh();
    }
  }

  $("pass").addEventListener("click", () => {
    if (window.confirm(_("Pass this turn?"))) act(() => send({ type: "pass" }));
  });
  $("resign").addEventListener("click", () => {
    if (window.confirm(_("Resign this game?"))) act(() => send({ type: "resign" }));
  });
  $("join").addEventListener("click", () => act(async () => {
    await api("POST", `/v1/games/${GAME}/join`, {});
    await load();
  }));
  $("decline").addEventListener("click", () => act(async () => {
    await api("POST", `/v1/games/${GAME}/decline`, {});
    window.location.href = "/me";
  }));
  // A rematch: the same game and clock, the seats rotated; asked twice, the same new game.
  $("rematch").addEventListener("click", () => act(async () => {
    const answer = await api("POST", `/v1/games/${GAME}/rematch`, {});
    window.location.href = `/play/${answer.id}`;
  }));
  for (const a of document.querySelectorAll("a[data-skip]")) {
    a.addEventListener("click", (ev) => {
      ev.preventDefault();
      if (a.dataset.skip === "actions") focusActions();
      else focusOn(a.dataset.skip);
    });
  }

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
      await api("POST", `/v1/games/${GAME}/messages`, { text }, { "Idempotency-Key": key() });
      $("say-text").value = "";
      error("");
      await readMessages();
    } catch (e) { error(e.message); }
    finally { $("say-send").disabled = false; }
  });

  // --- live -----------------------------------------------------------------------------
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
      if (board.changed) board.changed(old, next, ui);
      moves(true);
    }
    refresh();
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

  // What the shell lends a board module (see the head of this file).
  const ui = {
    get view() { return view; },
    get busy() { return busy; },
    game: GAME,
    ruleset: root.dataset.ruleset,
    root, $, _, listed, localTime, names, myTurn, api, send, act, draw, refresh, error, say,
  };

  async function start() {
    try {
      if (board.start) await board.start(ui);
      await load();
      await refresh();
      moves(false);
      readMessages();
      follow(changed);
    } catch (e) { error(e.message); }
  }

  window.MathablePlay = Object.freeze({
    // The board module of this page: registered once, by the script that follows this one.
    register(module) {
      if (board) throw new Error("MathablePlay: a board is registered already");
      if (!module || typeof module.render !== "function") throw new Error("MathablePlay: a board needs render(view, ui)");
      board = module;
      start();
    },
  });
})();
