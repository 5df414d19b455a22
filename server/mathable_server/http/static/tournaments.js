// The tournaments' pages: Join, Leave and Start through the JSON API
// (POST /v1/tournaments/{id}/join...), with the session cookie and the page's CSRF token;
// the page is read again once done. Our own small script, no build step.
(function () {
  "use strict";
  const root = document.getElementById("tournaments");
  if (!root) return;
  const CSRF = root.dataset.csrf;
  const error = document.getElementById("tournament-error");
  root.addEventListener("click", function (event) {
    const button = event.target.closest("button");
    if (!button) return;
    const action = ["join", "leave", "start"].find((a) => button.dataset[a]);
    if (!action) return;
    button.disabled = true;
    fetch("/v1/tournaments/" + encodeURIComponent(button.dataset[action]) + "/" + action, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Accept": "application/json", "Content-Type": "application/json",
                 "X-CSRF-Token": CSRF },
      body: "{}",
    }).then(async function (r) {
      if (r.ok) { window.location.reload(); return; }
      const data = await r.json().catch(() => ({}));
      error.textContent = (data.error && data.error.message) || String(r.status);
      button.disabled = false;
    });
  });
})();
