{% load static %}{% comment %}The service worker (served at /sw.js by core.views.service_worker). The games are live: pages are
never served from a cache; only the offline page and what it needs are kept, for when the network is gone.{% endcomment %}
"use strict";
const CACHE = "cards-offline-v1";
const OFFLINE = "{{ offline_url|escapejs }}";
const KEEP = [OFFLINE{% for url in cached %}, "{{ url|escapejs }}"{% endfor %}];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(KEEP)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    // a page: always from the network; the offline page only when there is none
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  } else if (KEEP.includes(new URL(request.url).pathname)) {
    event.respondWith(fetch(request).catch(() => caches.match(request)));
  }
});
