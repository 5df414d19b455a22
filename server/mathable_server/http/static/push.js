// "Turn on notifications" (asks the browser's permission only when pressed), the player's
// push devices with "Remove", and the channels of each kind of news. Words come from the
// page (data-* attributes written in the reader's language): no text lives here.
"use strict";
(function () {
  if (window.mathablePush) return;
  window.mathablePush = true;
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

  function csrf() {
    const holder = document.querySelector("[data-push-csrf]");
    return holder ? holder.dataset.pushCsrf : "";
  }

  async function api(method, path, body) {
    const headers = { "X-CSRF-Token": csrf() };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const r = await fetch(path, { method, headers, credentials: "same-origin",
                                  body: body === undefined ? undefined : JSON.stringify(body) });
    if (!r.ok) throw new Error(String(r.status));
    return r.status === 204 ? null : r.json();
  }

  function keyBytes(base64url) {
    const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(text, (c) => c.charCodeAt(0));
  }

  async function turnOn(box) {
    const state = box.querySelector(".push-state");
    const say = (key) => { state.textContent = box.dataset[key] || ""; };
    state.textContent = "";
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") { say("denied"); return; }
      const registration = await navigator.serviceWorker.register("/sw.js");
      await navigator.serviceWorker.ready;
      const { public_key: key } = await api("GET", "/v1/push/key");
      let subscription = await registration.pushManager.getSubscription();
      if (!subscription) {
        // A browser whose push service does not answer: said after 15 s, not never.
        const late = new Promise((_, fail) => setTimeout(() => fail(new Error("timeout")), 15000));
        subscription = await Promise.race([late, registration.pushManager.subscribe(
          { userVisibleOnly: true, applicationServerKey: keyBytes(key) })]);
      }
      await api("POST", "/v1/me/push", subscription.toJSON());
      say("on");
      listDevices();
    } catch (err) {
      say("failed");
    }
  }

  async function listDevices() {
    const list = document.getElementById("push-device-list");
    if (!list) return;
    const found = await api("GET", "/v1/me/push");
    list.replaceChildren();
    if (!found.subscriptions.length) {
      const li = document.createElement("li");
      li.textContent = list.dataset.empty;
      list.append(li);
    }
    for (const device of found.subscriptions) {
      const li = document.createElement("li");
      const label = document.createElement("span");
      label.textContent = `${device.service} · ${device.created_at.slice(0, 10)} `;
      const remove = document.createElement("button");
      remove.type = "button";
      remove.textContent = list.dataset.remove;
      remove.setAttribute("aria-label", `${list.dataset.remove} ${device.service}`);
      remove.addEventListener("click", async () => {
        await api("DELETE", `/v1/me/push/${encodeURIComponent(device.id)}`);
        listDevices();
      });
      li.append(label, remove);
      list.append(li);
    }
  }

  async function channels(form) {
    const found = await api("GET", "/v1/me/notifications");
    for (const select of form.querySelectorAll("select[name]")) {
      select.value = (found.channels || {})[select.name] || "both";
    }
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const chosen = {};
      for (const select of form.querySelectorAll("select[name]")) chosen[select.name] = select.value;
      const state = form.querySelector(".push-state");
      try {
        await api("PUT", "/v1/me/notifications", { channels: chosen });
        state.textContent = form.dataset.saved;
      } catch (err) {
        state.textContent = form.dataset.failed;
      }
    });
  }

  function start() {
    for (const box of document.querySelectorAll(".push-box")) {
      const button = box.querySelector("button");
      if (!supported) { box.querySelector(".push-state").textContent = box.dataset.unsupported; button.disabled = true; continue; }
      navigator.serviceWorker.getRegistration()
        .then((r) => r && r.pushManager.getSubscription())
        .then((found) => { if (found) box.querySelector(".push-state").textContent = box.dataset.on; })
        .catch(() => {});
      button.addEventListener("click", () => turnOn(box));
    }
    if (document.getElementById("push-device-list")) listDevices().catch(() => {});
    const form = document.getElementById("push-channels");
    if (form) channels(form).catch(() => {});
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
