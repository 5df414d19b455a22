// The generic board of the play page: a game that registers no board script of its own
// (mathable_server.http.boards) is played here through what every game offers: its text
// board and its legal moves (GET /play/{id}/board, rendered by the server from the
// game's ruleset), and a field for its notation (POST /v1/games/{id}/notation reads it).
// Every command goes through the JSON API (/v1/games/{id}/moves) with the game's version
// and an Idempotency-Key, as the tiles board sends them. No build step, no framework.
(function () {
  "use strict";
  const root = document.getElementById("play");
  const GAME = root.dataset.game;
  const CSRF = root.dataset.csrf;
  const $ = (id) => document.getElementById(id);
  const LANG = document.documentElement.lang || "en";
  const WORDS = JSON.parse(($("play-words") || {}).textContent || "{}");
  function _(text, values) {
    const said = WORDS[text] || text;
    if (!values) return said;
    return said.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
  }
  const listed = (names) => (LANG === "en" || !Intl.ListFormat
    ? names.join(" and ") : new Intl.ListFormat(LANG, { type: "conjunction" }).format(names));
  let view = null;
  let busy = false;

  function refusal(data, r) {
    const found = (data && data.error) || {};
    const e = new Error(found.message || r.statusText);
    e.data = found;
    return e;
  }
  async function api(method, path, body, extra) {
    const headers = Object.assign({ "Accept": "application/json" }, extra || {});
    if (method !== "GET") { headers["Content-Type"] = "application/json"; headers["X-CSRF-Token"] = CSRF; }
    const r = await fetch(path, { method, headers, credentials: "same-origin",
                                  body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    const data = text ? JSON.parse(text) : {};
    if (!r.ok) throw refusal(data, r);
    return data;
  }
  const key = () => (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now());
  const say = (text) => { $("news").textContent = text; };
  const error = (text) => { $("error").textContent = text || ""; };
  const names = () => (view.seats || []).map((s) => s.name || _("seat {n}", { n: s.seat + 1 }));
  const myTurn = () => view && view.status === "playing" && view.turn && view.turn.seat === view.you;

  async function send(command) {
    if (busy) return;
    busy = true; error(""); drawSide();
    try {
      view = await api("POST", `/v1/games/${GAME}/moves`,
                       Object.assign({}, command, { expected_version: view.version }),
                       { "Idempotency-Key": key() });
      $("notation").value = "";
    } catch (e) {
      error(e.message);
      if (e.data && e.data.code === "version_conflict") view = await api("GET", `/v1/games/${GAME}`);
    } finally { busy = false; await draw(true); }
  }

  function drawSide() {
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
      const w = ((view.result || {}).winners || []).map((i) => who[i]);
      status = !w.length ? _("Game over: no winner.")
        : w.length > 1 ? _("Game over: {winners} share the win.", { winners: listed(w) })
        : _("Game over: {winner} wins.", { winner: w[0] });
    } else if (view.status === "playing") {
      status = myTurn() ? _("Your turn.") : _("{name} to play.", { name: who[view.turn.seat] });
    } else status = _("Waiting for players.");
    $("status").textContent = status;
    const over = view.status === "ended";
    $("over").hidden = !over;
    $("rematch").hidden = true;
    // No dead buttons: the actions and the field go once the game is over.
    $("actions").hidden = over;
    $("notation-form").hidden = over || view.you == null;
    $("pass").disabled = !myTurn() || busy;
    $("resign").disabled = view.status !== "playing" || busy;
    $("invite-actions").hidden = !(view.status === "waiting" && view.you == null);
    root.dataset.version = String(view.version);
  }

  // The text board and the legal moves, as the server draws them for this seat.
  async function draw(announce) {
    drawSide();
    try {
      const r = await fetch(`/play/${GAME}/board`, { credentials: "same-origin" });
      if (r.ok) {
        const holder = document.createElement("div");
        holder.innerHTML = await r.text();  // the server's template escaped every word
        $("text-board").textContent = holder.querySelector("pre").textContent;
        const legal = $("legal");
        legal.textContent = "";
        for (const b of holder.querySelectorAll("#legal-fresh button")) {
          b.addEventListener("click", () => send(JSON.parse(b.dataset.command)));
          legal.appendChild(b);
        }
        if (!legal.children.length) {
          const p = document.createElement("p");
          p.className = "muted";
          p.textContent = myTurn() ? _("Write your move below.") : _("Nothing to play now.");
          legal.appendChild(p);
        }
      }
      const m = await fetch(`/play/${GAME}/moves`, { credentials: "same-origin" });
      if (m.ok) {
        $("moves").innerHTML = await m.text();
        const done = [...$("moves").querySelectorAll("li")].filter((li) => li.dataset.kind !== "playing");
        const ended = $("moves").querySelector("li[data-kind=ended]");
        $("reason").textContent = ended ? ended.textContent : "";
        if (announce && done.length) say(done[done.length - 1].textContent);
      }
    } catch (e) { /* shown again at the next change */ }
  }

  $("notation-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error("");
    try {
      const read = await api("POST", `/v1/games/${GAME}/notation`, { text: $("notation").value });
      await send(read.command);
    } catch (e) { error(e.message); }
  });
  $("pass").addEventListener("click", () => {
    if (window.confirm(_("Pass this turn?"))) send({ type: "pass" });
  });
  $("resign").addEventListener("click", () => {
    if (window.confirm(_("Resign this game?"))) send({ type: "resign" });
  });
  $("join").addEventListener("click", async () => {
    try { await api("POST", `/v1/games/${GAME}/join`, {}); view = await api("GET", `/v1/games/${GAME}`); draw(false); }
    catch (e) { error(e.message); }
  });
  $("decline").addEventListener("click", async () => {
    try { await api("POST", `/v1/games/${GAME}/decline`, {}); window.location.href = "/"; }
    catch (e) { error(e.message); }
  });
  for (const a of document.querySelectorAll("a[data-skip]")) {
    a.addEventListener("click", (ev) => {
      const target = a.dataset.skip === "board" ? ($("legal").querySelector("button") || $("notation")) : $("actions");
      if (target) { ev.preventDefault(); target.focus(); }
    });
  }

  // Messages between the seats (GET/POST /v1/games/{id}/messages), read at each change
  // and every half minute, each with its time.
  let lastMessage = 0;
  async function readMessages() {
    if (!view || view.you == null) return;
    $("talk").hidden = false;
    try {
      const found = await api("GET", `/v1/games/${GAME}/messages?since=${lastMessage}`);
      const who = names();
      for (const m of found.messages || []) {
        if (m.id <= lastMessage) continue;
        lastMessage = m.id;
        const li = document.createElement("li");
        const time = document.createElement("time");
        time.dateTime = m.at;
        time.textContent = new Date(m.at).toLocaleString(LANG === "en" ? "en-GB" : LANG,
          { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
        const name = document.createElement("strong");
        name.textContent = (m.seat === view.you ? _("you") : who[m.seat] || _("seat {n}", { n: m.seat + 1 })) + ": ";
        li.append(time, name, document.createTextNode(m.text));
        $("messages").appendChild(li);
      }
    } catch (e) { /* read again at the next change */ }
  }
  $("say").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await api("POST", `/v1/games/${GAME}/messages`, { text: $("say-text").value }, { "Idempotency-Key": key() });
      $("say-text").value = "";
      await readMessages();
    } catch (e) { error(e.message); }
  });
  setInterval(readMessages, 30000);

  // Follows the game by long-polls of GET /v1/games/{id} (?wait&since): each new version
  // draws the board again and says the turn that was played.
  async function follow() {
    for (;;) {
      try {
        const r = await fetch(`/v1/games/${GAME}?wait=25&since=${view.version}`,
                              { credentials: "same-origin", cache: "no-store" });
        if (r.status === 401) { error(_("Signed out: sign in again.")); return; }
        if (!r.ok) { await new Promise((ok) => setTimeout(ok, 3000)); continue; }
        if (r.status === 200) {
          const next = await r.json();
          if (next.version > view.version && !busy) { view = next; await draw(true); readMessages(); }
        }
        if (r.headers.get("X-Long-Poll") === "refused") await new Promise((ok) => setTimeout(ok, 3000));
      } catch (e) { await new Promise((ok) => setTimeout(ok, 3000)); }
    }
  }

  (async function start() {
    try {
      view = await api("GET", `/v1/games/${GAME}`);
      await draw(false);
      readMessages();
      follow();
    } catch (e) { error(e.message); }
  })();
})();
