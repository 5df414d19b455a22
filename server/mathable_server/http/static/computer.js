// "Play the computer" (/computer): the game is made through the JSON API with the
// browser's session; a visitor without one becomes a guest first (POST /computer/guest).
"use strict";
(() => {
  const form = document.getElementById("computer");
  const error = document.getElementById("error");
  const words = JSON.parse(document.getElementById("computer-words").textContent);
  const say = (template, values) =>
    template.replace(/\{(\w+)\}/g, (all, key) => (key in values ? values[key] : all));

  async function reason(answer) {
    try {
      const body = await answer.json();
      const said = body.error || {};  // {"error": {"code", "message"}} (http/errors.py)
      return said.message || said.code || String(answer.status);
    } catch (e) {
      return String(answer.status);
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    error.textContent = "";
    try {
      let csrf = form.dataset.csrf;
      if (!form.dataset.signedIn) {
        const guest = await fetch("/computer/guest", {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ csrf: form.elements.csrf.value }),
        });
        if (!guest.ok) throw new Error(await reason(guest));
        csrf = (await guest.json()).csrf;
        form.dataset.signedIn = "1";
        form.dataset.csrf = csrf;
      }
      const level = form.querySelector("input[name=level]:checked").value;
      const made = await fetch("/v1/games", {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ ruleset: form.elements.ruleset.value, computer: level }),
      });
      if (!made.ok) throw new Error(await reason(made));
      const game = await made.json();
      window.location.assign(`/play/${game.id}`);
    } catch (e) {
      error.textContent = say(words.failed, { why: e.message });
      button.disabled = false;
    }
  });
})();
