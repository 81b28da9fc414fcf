// The page's service worker (make web writes CACHE and FILES above): every file of the
// page is cached when it installs, so an installed page starts with no network; a new
// build is a new CACHE, which replaces the old one once it has every file.
self.addEventListener('install', (e) => {
  const fresh = FILES.map((f) => new Request(f, { cache: 'reload' }));  // (not the HTTP cache's)
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(fresh)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith('california-speed-') && n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

// the cache first (the address's ?console is the same page), then the network
self.addEventListener('fetch', (e) => {
  if (e.request.method !== 'GET') return;
  e.respondWith(caches.open(CACHE)
    .then((c) => c.match(e.request, { ignoreSearch: true }))
    .then((hit) => hit || fetch(e.request)));
});
