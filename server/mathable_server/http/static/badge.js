// The page's icon shows how many games wait on the player: the count the title starts with
// ("(2) ...", written by the page and kept up to date by its script), drawn on the icon.
"use strict";
(function () {
  const link = document.querySelector('link[rel="icon"]');
  if (!link) return;
  const plain = link.href;
  const picture = new Image();
  picture.src = "/static/icon-192.png";
  let shown = null;
  function draw() {
    const found = /^\((\d+)\)/.exec(document.title);
    const count = found ? Number(found[1]) : 0;
    if (count === shown || !picture.complete) return;
    shown = count;
    if (!count) { link.href = plain; return; }
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 64;
    const g = canvas.getContext("2d");
    g.drawImage(picture, 0, 0, 64, 64);
    g.fillStyle = "#c0392b";
    g.beginPath(); g.arc(44, 20, 20, 0, 2 * Math.PI); g.fill();
    g.fillStyle = "#fff"; g.font = "bold 28px sans-serif"; g.textAlign = "center"; g.textBaseline = "middle";
    g.fillText(count > 9 ? "9+" : String(count), 44, 21);
    link.href = canvas.toDataURL("image/png");
    document.documentElement.dataset.waiting = String(count);
  }
  picture.addEventListener("load", draw);
  const title = document.querySelector("title");
  if (title) new MutationObserver(draw).observe(title, { childList: true, characterData: true, subtree: true });
  draw();
})();
