// The authenticator's offline shell: the app's own files are kept so that it opens without a network.
// Calls to the auth server and the runtime settings always go to the network; nothing signed is cached.
const CACHE = 'careplane-authenticator-v1';
const SCOPE = '/authenticator/';
const SHELL = [SCOPE, `${SCOPE}manifest.webmanifest`, `${SCOPE}icon.svg`];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(SCOPE)) return;

  if (request.mode === 'navigate') {
    // Every page of the app is the same shell: the network's when online (and kept), else the kept one.
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) {
            const copy = response.clone();
            void caches.open(CACHE).then((cache) => cache.put(SCOPE, copy));
          }
          return response;
        })
        .catch(() => caches.match(SCOPE).then((kept) => kept ?? Response.error())),
    );
    return;
  }

  // Built files are named by their content: a kept copy is always right.
  event.respondWith(
    caches.match(request).then(
      (kept) =>
        kept ??
        fetch(request).then((response) => {
          if (response.ok && url.pathname.startsWith(`${SCOPE}assets/`)) {
            const copy = response.clone();
            void caches.open(CACHE).then((cache) => cache.put(request, copy));
          }
          return response;
        }),
    ),
  );
});
