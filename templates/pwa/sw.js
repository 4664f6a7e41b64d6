/* Geartable's service worker (games/pwa.py serves it at /sw.js, scope /).
 *
 * It keeps the static shell and the offline page, and nothing else: no game page, fragment or
 * answer of the API is ever put in a cache (they belong to one player, and go stale). A page
 * the server cannot answer is replaced by the offline page. It shows the Web Push
 * notifications (games/webpush.py), opens or focuses the game on a click, and keeps the app's
 * badge at the number of games waiting. */
"use strict";

const CACHE = "geartable-shell-__VERSION__";
const SHELL = {{ shell|safe }};
const OFFLINE = {{ offline|safe }};
const ICON = {{ icon|safe }};
const IMMUTABLE = {{ immutable|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("geartable-shell-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
  );
});

function isShell(url) {
  return url.origin === self.location.origin && SHELL.includes(url.pathname);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (request.mode === "navigate") {
    // Always the network (a page is one player's, and live); the offline page if it fails.
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
    return;
  }
  if (!isShell(url)) return; // the browser's own handling: never cached here
  if (IMMUTABLE) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
  } else {
    event.respondWith(fetch(request).catch(() => caches.match(request)));
  }
});

function setBadge(count) {
  const n = Number(count);
  if (!("setAppBadge" in self.navigator) || Number.isNaN(n)) return Promise.resolve();
  return (n > 0 ? self.navigator.setAppBadge(n) : self.navigator.clearAppBadge()).catch(() => {});
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (err) {
    data = {};
  }
  const title = data.title || "Geartable";
  const options = {
    body: data.body || "",
    tag: data.tag || undefined,
    renotify: Boolean(data.tag), // a newer "your turn" of the game replaces the older, and rings
    icon: ICON,
    badge: ICON,
    data: { url: data.url || "/games/" },
  };
  event.waitUntil(Promise.all([self.registration.showNotification(title, options), setBadge(data.waiting)]));
});

// A tab of the game already open is focused; else the game opens. Only a page of this site.
function openGame(url) {
  const target = new URL(url || "/games/", self.location.origin);
  if (target.origin !== self.location.origin) return Promise.resolve(null);
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((w) => new URL(w.url).pathname === target.pathname);
    if (open) return open.focus();
    return self.clients.openWindow(target.href);
  });
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openGame(event.notification.data && event.notification.data.url));
});
