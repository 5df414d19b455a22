// The tutorial page (/tutorial/{ruleset}): the rule book's worked example, every step
// rendered by the server; a click plays the step (its words and the board after it
// show) and the next step comes into view. No build step, no framework.
(function () {
  "use strict";
  const steps = [...document.querySelectorAll("section.tutorial-step")];
  if (!steps.length) return;
  const progress = document.getElementById("progress");
  const WORDS = JSON.parse((document.getElementById("play-words") || {}).textContent || "{}");
  const _ = (text, values) => (WORDS[text] || text).replace(/\{(\w+)\}/g, (all, n) => (values && n in values ? String(values[n]) : all));
  let played = 0;
  for (const step of steps) {
    const button = step.querySelector("button.play");
    button.addEventListener("click", () => {
      step.querySelector(".after").hidden = false;
      button.hidden = true;
      played += 1;
      progress.textContent = _("{n} of {count} steps played.", { n: played, count: steps.length });
      const next = steps[Number(button.dataset.index) + 1];
      if (next) {
        next.hidden = false;
        const again = next.querySelector("button.play");
        next.scrollIntoView({ block: "start" });
        again.focus();
      } else {
        const done = document.getElementById("tutorial-done");
        done.hidden = false;
        done.querySelector("a").focus();
      }
    });
  }
})();
