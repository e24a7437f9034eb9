// SPDX-License-Identifier: Apache-2.0
// Keeps the tester page working offline: its files are cached on first
// load and served from the cache, refreshed from the network when online.
const CACHE = 'robotsc-playground-v1';
const FILES = ['./', './index.html', './app.js', './style.css', '../src/browser.js', '../src/core.js',
  '../dist/robotsc.wasm'];

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== 'GET' || url.origin !== location.origin) return;
  // Network first (fresh files when online), the cache when offline.
  e.respondWith(fetch(e.request).then((res) => {
    if (res.ok) {
      const copy = res.clone();
      caches.open(CACHE).then((c) => c.put(e.request, copy));
    }
    return res;
  }).catch(() => caches.match(e.request).then((hit) => hit || Response.error())));
});
