// The service worker (/sw.js): shows a push as a notification, opens (or focuses) its game
// on a click, and keeps the shell and the last pages read for reading offline.
"use strict";
const CACHE = "mathable-v1";
const SHELL = ["/static/icon.svg", "/static/icon-192.png", "/static/push.js",
               "/static/badge.js", "/manifest.webmanifest"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

// Pages and views: the network first, the copy last seen when offline. Nothing but GETs of
// this server is touched; streams and long polls go straight to the network.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // Signing out forgets the pages kept: nobody reads them offline after.
  if (request.method === "POST" && url.pathname === "/signout" && url.origin === self.location.origin) {
    event.waitUntil(caches.delete(CACHE));
    return;
  }
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.endsWith("/stream") || url.searchParams.has("wait")) return;
  const page = request.mode === "navigate";
  const view = /^\/v1\/games\/[^/]+$/.test(url.pathname) || url.pathname.startsWith("/static/");
  if (!page && !view) return;
  event.respondWith(fetch(request).then((response) => {
    // The session is over (expired, ended on another device, the account deleted): the
    // pages kept for it are forgotten too.
    if (response.status === 401 || response.status === 403) {
      event.waitUntil(caches.delete(CACHE));
      return response;
    }
    // What the server says must not be stored (sign-in pages, the data export, a game's
    // answer to a move) is never kept.
    const control = (response.headers.get("Cache-Control") || "").toLowerCase();
    if (response.ok && !control.includes("no-store")) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  }).catch(() => caches.match(request).then((found) => found || Response.error())));
});

self.addEventListener("push", (event) => {
  let news = {};
  try { news = event.data ? event.data.json() : {}; } catch (e) { news = {}; }
  const title = news.title || "Mathable";
  const options = {
    body: news.body || "",
    tag: news.game_id ? "game-" + news.game_id : undefined,
    renotify: Boolean(news.game_id),
    icon: "/static/icon-192.png",
    badge: "/static/icon-192.png",
    data: { url: news.url || "/", type: news.type || "" },
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/",
                         self.location.origin).href;
  // The game's page if it is open; else a window of the site, brought to the game; else a
  // new window.
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true })
    .then((windows) => {
      const same = windows.find((client) => client.url === target);
      if (same) return same.focus();
      const other = windows.find((client) => "navigate" in client);
      if (other) {
        return other.focus().catch(() => other).then(() => other.navigate(target))
          .catch(() => self.clients.openWindow(target));
      }
      return self.clients.openWindow(target);
    }));
});
