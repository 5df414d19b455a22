// The site's own script (no build step), on every page of a signed-in browser:
// - the title starts with "(N) ", the games waiting on you, and stays current: the
//   player's stream (/v1/me/stream) says when something changed, /v1/me counts again;
//   each time a stream opens the count is taken again too (what changed while none was
//   open), and a stream that ends is resumed from the last line read (?since=);
// - forms and buttons marked data-api send their command through the JSON API (with
//   the session's CSRF token) and say what came back;
// - the home's Join/Decline/Rematch buttons, the new-game form.
"use strict";
(function () {
  const csrfMeta = document.querySelector('meta[name="csrf-token"]');
  const csrf = csrfMeta ? csrfMeta.content : "";
  const lang = document.documentElement.lang || "en";
  const plainTitle = document.title.replace(/^\(\d+\) /, "");

  async function api(method, url, body) {
    const headers = { "X-CSRF-Token": csrf, "Accept-Language": lang };
    const init = { method: method, headers: headers, credentials: "same-origin" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const answer = await fetch(url, init);
    let data = null;
    try { data = await answer.json(); } catch (e) { data = null; }
    if (!answer.ok) {
      // Every error is {"error": {"code", "message"}} (http/errors.py).
      const said = (data && data.error) || {};
      const error = new Error(said.message || answer.statusText || String(answer.status));
      error.code = said.code;
      throw error;
    }
    return data;
  }

  // --- the title ------------------------------------------------------------------------
  // One tab of the site (the leader) follows the player's stream and counts; the others
  // hear its counts (BroadcastChannel): a player with many tabs open holds one stream,
  // and a play page's own game stream always finds a free slot.
  let shownWaiting = null;
  function show(waiting) {
    document.title = (waiting.length ? "(" + waiting.length + ") " : "") + plainTitle;
    const home = document.getElementById("home");
    if (!home) return;
    const key = waiting.slice().sort().join(" ");
    if (shownWaiting === null) {
      shownWaiting = (home.dataset.waiting || "").split(" ").filter(Boolean).sort().join(" ");
    }
    if (key !== shownWaiting) window.location.reload();  // the home's lists follow the turns
  }
  const channel = "BroadcastChannel" in window ? new BroadcastChannel("mathable-title") : null;
  let leading = false;
  async function count() {
    let me;
    try { me = await api("GET", "/v1/me?limit=100"); } catch (e) { return; }
    const waiting = me.games.filter(function (g) { return g.your_turn; }).map(function (g) { return g.id; });
    show(waiting);
    if (channel && leading) channel.postMessage({ type: "count", waiting: waiting });
  }
  let pending = null;
  function soon() {
    if (pending) return;
    pending = setTimeout(function () { pending = null; count(); }, 300);
  }
  function sleep(ms) { return new Promise(function (done) { setTimeout(done, ms); }); }
  // The cursor of the last line read: a stream the server ends (after ten minutes, a
  // restart, a sign-out elsewhere) is resumed after it, so no line is missed between two.
  let cursor = null;
  async function follow() {
    while (leading) {
      try {
        const url = "/v1/me/stream" + (cursor ? "?since=" + encodeURIComponent(cursor) : "");
        const answer = await fetch(url, { credentials: "same-origin" });
        if (cursor && [400, 409, 422].includes(answer.status)) {
          cursor = null;  // a cursor this server takes no more (restored, upgraded): anew
          continue;
        }
        if (!answer.ok || !answer.body) throw new Error("no stream");
        // Open: the server read its feed's head before answering, so this count sees every
        // change before it and the lines tell every change after.
        soon();
        const reader = answer.body.getReader();
        const decoder = new TextDecoder();
        let held = "";  // a line not yet whole
        for (;;) {
          const part = await reader.read();
          if (part.done) break;
          const lines = (held + decoder.decode(part.value, { stream: true })).split("\n");
          held = lines.pop();
          let news = false;
          for (const text of lines) {
            if (!text.trim()) continue;  // a heartbeat
            news = true;
            try { cursor = JSON.parse(text).cursor || cursor; } catch (e) { /* not ours */ }
          }
          if (news) soon();
        }
      } catch (e) {
        // No stream now (the player holds as many as the server allows): count every
        // 10 s for a minute, then try the stream again.
        for (let i = 0; i < 6; i++) {
          await sleep(10000);
          count();
        }
        continue;
      }
      await sleep(1000);
    }
  }
  function lead() {
    if (leading) return;
    leading = true;
    count();
    follow();
  }
  if (document.querySelector('meta[name="mathable-player"]')) {
    if (!channel) {
      lead();
    } else {
      let heard = false;
      channel.onmessage = function (event) {
        const data = event.data || {};
        if (data.type === "who" && leading) channel.postMessage({ type: "leader" });
        else if (data.type === "leader") heard = true;
        else if (data.type === "count") { heard = true; show(data.waiting || []); }
        else if (data.type === "bye" && !leading) {
          heard = false;  // the leader left: the first tab to ask again leads
          setTimeout(function () {
            channel.postMessage({ type: "who" });
            setTimeout(function () { if (!heard) lead(); }, 400);
          }, Math.random() * 300);
        }
      };
      window.addEventListener("pagehide", function () {
        if (leading) channel.postMessage({ type: "bye" });
      });
      count();  // this page's own count at once
      channel.postMessage({ type: "who" });
      setTimeout(function () { if (!heard) lead(); }, 400);
    }
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") count();
    });
  }

  // --- forms and buttons of the JSON API ------------------------------------------------
  function resultOf(element) {
    const box = element.closest("fieldset") || element.closest("form") || element.closest("li") || document;
    return box.querySelector(".result");
  }
  function say(element, text, failed) {
    const out = resultOf(element);
    if (out) {
      out.textContent = text;
      out.classList.toggle("error", Boolean(failed));
    }
  }
  function saved() {
    return lang === "fr" ? "Enregistré." : lang === "nb" ? "Lagret." : lang === "it" ? "Salvato." : "Saved.";
  }
  function then(element, what, data) {
    if (what === "reload") window.location.reload();
    else if (what === "home") window.location.assign("/");
    else if (what === "token") {
      const code = document.getElementById("token-commands");
      const server = code.dataset.server;
      code.textContent = "mathable-cli --server " + server + " --token " + data.token + " login\n" +
        "mathable-cli games";
      document.getElementById("token-shown").hidden = false;
      say(element, saved());
    } else say(element, saved());
  }
  function bodyOf(form) {
    const body = {};
    for (const field of form.elements) {
      if (!field.name || field.disabled || field.dataset.inUrl !== undefined) continue;
      let value = field.type === "checkbox" ? field.checked : field.value;
      const type = field.dataset.type;
      if (type === "null-if-empty" && value === "") value = null;
      else if (type === "int") value = parseInt(value, 10);
      else if (type === "int-or-null") value = value === "" ? null : parseInt(value, 10);
      body[field.name] = value;
    }
    return body;
  }
  document.addEventListener("submit", async function (event) {
    const form = event.target;
    if (!form.dataset || !form.dataset.api) return;
    event.preventDefault();
    let url = form.dataset.api;
    url = url.replace(/\{(\w+)\}/g, function (_m, name) {
      return encodeURIComponent(form.elements[name].value.trim());
    });
    const method = form.dataset.method || "POST";
    try {
      const data = await api(method, url, bodyOf(form));
      then(form, form.dataset.then, data);
    } catch (e) {
      say(form, e.message, true);
    }
  });
  document.addEventListener("click", async function (event) {
    const button = event.target.closest("button");
    if (!button || button.form) return;
    if (button.dataset.api) {
      button.disabled = true;
      try {
        const data = await api(button.dataset.method || "POST", button.dataset.api);
        then(button, button.dataset.then, data);
      } catch (e) {
        say(button, e.message, true);
      } finally {
        button.disabled = false;
      }
    } else if (button.dataset.action && button.dataset.game) {
      const game = button.dataset.game;
      const action = button.dataset.action;
      button.disabled = true;
      try {
        const data = await api("POST", "/v1/games/" + encodeURIComponent(game) + "/" + action, {});
        if (action === "join") window.location.assign("/play/" + game);
        else if (action === "rematch") window.location.assign("/play/" + data.id);
        else window.location.reload();
      } catch (e) {
        say(button, e.message, true);
        button.disabled = false;
      }
    }
  });

  // --- a new game -----------------------------------------------------------------------
  const newGame = document.getElementById("new-game");
  if (newGame) {
    const seats = newGame.querySelector("#players");
    function showSeats() {
      const n = parseInt(seats.value, 10);
      for (const seat of newGame.querySelectorAll(".seat")) {
        seat.hidden = parseInt(seat.dataset.seat, 10) > n;
      }
    }
    function showKinds() {
      for (const seat of newGame.querySelectorAll(".seat")) {
        const kind = seat.querySelector(".seat-kind").value;
        seat.querySelector(".seat-player").hidden = kind !== "player";
        seat.querySelector(".seat-address").hidden = kind !== "address";
        seat.querySelector(".seat-computer").hidden = kind !== "computer";
      }
      showRated();
    }
    // A game against a computer whose level is not rated is unrated: the box says so.
    const rated = newGame.elements.rated;
    const ratedAvailable = !rated.disabled;
    const ratedLevels = {};
    const wordsOfLevels = document.getElementById("computer-levels");
    const levelWords = wordsOfLevels ? JSON.parse(wordsOfLevels.textContent) : {};
    function computerLevel() {
      const n = parseInt(seats.value, 10);
      for (let seat = 2; seat <= n; seat++) {
        if (newGame.elements["seat_" + seat + "_kind"].value === "computer") {
          return newGame.elements["seat_" + seat + "_level"].value;
        }
      }
      return null;
    }
    function showRated() {
      const level = computerLevel();
      const unrated = level !== null && !ratedLevels[level];
      if (unrated && !rated.disabled) { rated.dataset.was = rated.checked ? "1" : ""; rated.checked = false; }
      if (!unrated && rated.disabled && ratedAvailable) rated.checked = rated.dataset.was === "1";
      rated.disabled = unrated || !ratedAvailable;
    }
    function showClock() {
      const chosen = newGame.querySelector('input[name="clock"]:checked');
      document.getElementById("custom-clock").hidden = !chosen || chosen.value !== "custom";
    }
    seats.addEventListener("change", function () { showSeats(); showRated(); });
    newGame.addEventListener("change", function () { showKinds(); showClock(); });
    showSeats(); showKinds(); showClock();
    // The computer's levels, where this server has computer players (GET /v1/computers).
    fetch("/v1/computers", { credentials: "same-origin" }).then(function (answer) {
      return answer.status === 200 ? answer.json() : null;
    }).then(function (data) {
      if (!data || !data.computers) return;
      const levels = [];
      for (const c of data.computers) {
        if (levels.indexOf(c.level) < 0) levels.push(c.level);
        if (c.rated) ratedLevels[c.level] = true;
      }
      if (!levels.length) return;
      for (const option of newGame.querySelectorAll(".computer-option")) option.disabled = false;
      for (const select of newGame.querySelectorAll(".computer-level")) {
        for (const level of levels) {
          const option = document.createElement("option");
          option.value = level;
          option.textContent = levelWords[level] || level;
          select.appendChild(option);
        }
      }
    }).catch(function () { /* no computer players: the option stays off */ });

    const presets = { "1d": { per_move: 86400 }, "3d": { per_move: 259200 }, "7d": { per_move: 604800 },
      "bank": { initial: 864000, increment: 129600, max: 864000 }, "none": null };
    newGame.addEventListener("submit", async function (event) {
      event.preventDefault();
      const button = document.getElementById("create");
      const out = document.getElementById("new-error");
      out.textContent = "";
      const n = parseInt(seats.value, 10);
      const body = { ruleset: newGame.elements.ruleset.value, players: n };
      const rated = newGame.elements.rated;
      if (!rated.disabled) body.rated = rated.checked;
      const chosen = newGame.querySelector('input[name="clock"]:checked').value;
      if (chosen === "custom") {
        const seconds = (parseInt(newGame.elements.custom_days.value || "0", 10) * 86400) +
          (parseInt(newGame.elements.custom_hours.value || "0", 10) * 3600);
        body.clock = { per_move: seconds };
      } else {
        body.clock = presets[chosen];
      }
      const invite = [];
      const addresses = [];
      for (let seat = 2; seat <= n; seat++) {
        const kind = newGame.elements["seat_" + seat + "_kind"].value;
        if (kind === "player") {
          const name = newGame.elements["seat_" + seat + "_name"].value.trim();
          if (name) invite.push(name);
        } else if (kind === "address") {
          const address = newGame.elements["seat_" + seat + "_email"].value.trim();
          if (address) addresses.push(address);
        } else if (kind === "computer") {
          body.computer = newGame.elements["seat_" + seat + "_level"].value;
        }
      }
      if (invite.length) body.invite = invite;
      button.disabled = true;
      try {
        const game = await api("POST", "/v1/games", body);
        for (const address of addresses) {
          await api("POST", "/v1/games/" + game.id + "/invitations", { email: address });
        }
        window.location.assign("/play/" + game.id);
      } catch (e) {
        out.textContent = e.message;
        button.disabled = false;
      }
    });
  }
})();
