// @ts-check
// Where the service is served: "" at a host's root, or the sub-path a reverse proxy serves it under ("/qm"), which
// the server writes into the page's `qm-root` meta tag (QUARTERMASTER_ROOT_PATH). Every address the page asks for or
// shows goes through `at`; the page's own routes read the address bar through `here`.
export const ROOT = document.querySelector('meta[name="qm-root"]')?.getAttribute("content") || "";

export function rooted(path) {
  return ROOT + path;
}

export function here() {
  const path = location.pathname;
  return path.startsWith(ROOT) ? path.slice(ROOT.length) || "/" : path;
}
