// The review page's steps (/games/{id}/review): every position is on the page (rendered
// by the server); this shows one at a time, by the buttons First, Previous, Next, Last,
// the move list, and the arrow keys (Left, Right, Home, End).
(function () {
  "use strict";
  const root = document.getElementById("review");
  const figures = [...document.querySelectorAll("figure.position")];
  if (!root || !figures.length) return;
  const $ = (id) => document.getElementById(id);
  const WORDS = JSON.parse(($("play-words") || {}).textContent || "{}");
  const _ = (text, values) => (WORDS[text] || text).replace(/\{(\w+)\}/g, (all, n) => (values && n in values ? String(values[n]) : all));
  let at = figures.length - 1;
  function show(index) {
    at = Math.max(0, Math.min(figures.length - 1, index));
    figures.forEach((f, i) => { f.hidden = i !== at; });
    root.dataset.index = String(at);
    $("where").textContent = _("Position {n} of {count}", { n: at + 1, count: figures.length });
    $("first").disabled = $("previous").disabled = at === 0;
    $("next").disabled = $("last").disabled = at === figures.length - 1;
    for (const li of document.querySelectorAll("#review-moves li")) {
      const current = Number(li.dataset.index) === at;
      li.classList.toggle("current", current);
      if (current) li.querySelector("button").setAttribute("aria-current", "step");
      else li.querySelector("button").removeAttribute("aria-current");
    }
  }
  $("first").addEventListener("click", () => show(0));
  $("previous").addEventListener("click", () => show(at - 1));
  $("next").addEventListener("click", () => show(at + 1));
  $("last").addEventListener("click", () => show(figures.length - 1));
  for (const b of document.querySelectorAll("#review-moves button")) {
    b.addEventListener("click", () => show(Number(b.dataset.index)));
  }
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest && ev.target.closest("input, textarea, select")) return;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: figures.length - 1 }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    show(to);
  });
  show(at);
})();
