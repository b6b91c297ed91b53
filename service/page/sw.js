// @ts-check
// The table page's service worker (VERSION, ROOT and FILES are written above by the server; ROOT is the sub-path a
// reverse proxy serves the service under, "" at the root). It keeps the page's own
// files so that a reload with the server out of reach still opens the page; the page then shows the campaign from
// its own storage and queues entries (connection.js, outbox.js). It never touches the API: reads and writes keep
// their own rules in the page, which also work where no service worker can run (plain http on a LAN address).
const CACHE = `qm-page-${VERSION}`;
const SHELL = /^\/(join|c\/[0-9a-f-]{36})?$/; // below ROOT
const PATIENCE = 4000; // a server that does not answer in this long is taken as away: the kept file is served
// `self` as the service worker it is, so that its events are typed as a worker's (install, activate, fetch).
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener("install", event => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then(cache => cache.addAll(FILES))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener("activate", event => {
  event.waitUntil(
    caches
      .keys()
      .then(keys => Promise.all(keys.filter(k => k.startsWith("qm-page-") && k !== CACHE).map(k => caches.delete(k))))
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener("fetch", event => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== worker.location.origin) return;
  if (!url.pathname.startsWith(ROOT)) return;
  const path = url.pathname.slice(ROOT.length) || "/";
  const shell = event.request.mode === "navigate" && SHELL.test(path);
  if (!shell && !path.startsWith("/static/")) return;
  const key = shell ? `${ROOT}/` : url.pathname;
  // The network first, so an upgraded server's files are used at once; what is kept, when it does not answer.
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      try {
        // By address, not by the request: a navigation's request cannot be sent again with a timeout of its own.
        const answer = await fetch(key, { signal: AbortSignal.timeout(PATIENCE) });
        if (answer.ok) await cache.put(key, answer.clone());
        return answer;
      } catch {
        return (await cache.match(key)) || Response.error();
      }
    })(),
  );
});
