/* The service worker (served at /sw.js by config/pwa.py, so its scope is the whole site).

   What it keeps, for reading without the network: the pages a player or staff member
   opened that a venue needs offline (an event page, a round's pairings, the standings, a
   match, a round's results grid), and the site's static files. Nothing else.

   - Pages are fetched from the network first, always: a copy is only served when the
     network fails, and it is marked so in the page ("Offline copy fetched at 14:02"),
     never served as fresh.
   - Personal answers are never kept: the API (/api/...), /events/<id>/me.json, and any
     answer marked `no-store`.
   - Every answer of the site carries `X-Viewer` (config/pwa.py: a digest of the signed-in
     account, "anon" for nobody). Copies are kept per viewer; when the viewer changes
     (another account signs in, or the user signs out) every kept page is wiped, and a
     logout or login wipes them before it is even sent. */

"use strict";

const PAGES = "venue-pages-v1";
const ASSETS = "venue-assets-v1";
const STATE = "venue-state-v1";
const VIEWER_KEY = "/__venue/viewer";
const WORDS_KEY = "/__venue/words";
const WORDS_IN_PAGE = /<script id="venue-words" type="application\/json">([\s\S]*?)<\/script>/;

const KEEP = [
  /^\/events\/\d+\/$/,
  /^\/events\/\d+\/standings\/$/,
  /^\/events\/\d+\/rounds\/\d+\/$/,
  /^\/events\/\d+\/rounds\/\d+\/results\/$/,
  /^\/matches\/\d+\/$/,
];
const NEVER = [/^\/api\//, /\/me\.json$/, /^\/admin\//, /^\/accounts\//];
const WIPE_ON_POST = [/^\/accounts\/logout\/$/, /^\/accounts\/login\/$/, /^\/admin\/logout\/$/];

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((names) =>
      Promise.all(names.filter((n) => n.startsWith("venue-") && ![PAGES, ASSETS, STATE].includes(n))
        .map((n) => caches.delete(n)))
    ).then(() => self.clients.claim())
  );
});

async function currentViewer() {
  const stored = await (await caches.open(STATE)).match(VIEWER_KEY);
  return stored ? stored.text() : null;
}

/* The phone's viewer: the one last seen, else asked of the site (a HEAD answers it). */
async function viewerNow() {
  const known = await currentViewer();
  if (known) return known;
  try {
    const answer = await fetch("/manifest.webmanifest",
                               { method: "HEAD", credentials: "same-origin", cache: "no-store" });
    return answer.headers.get("X-Viewer");
  } catch (error) {
    return null;
  }
}

async function setViewer(viewer) {
  await (await caches.open(STATE)).put(VIEWER_KEY, new Response(viewer));
}

async function wipe() {
  await caches.delete(PAGES);
  await (await caches.open(STATE)).delete(VIEWER_KEY);
}

/* A new viewer: everything kept for the previous one goes. */
async function noteViewer(viewer) {
  if (!viewer) return;
  const before = await currentViewer();
  if (before !== viewer) {
    await caches.delete(PAGES);
    await setViewer(viewer);
  }
}

function keptPath(url) {
  return KEEP.some((re) => re.test(url.pathname));
}

async function pageFromNetwork(request) {
  const url = new URL(request.url);
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    return offlineCopy(request);
  }
  const type = response.headers.get("Content-Type") || "";
  const control = response.headers.get("Cache-Control") || "";
  // A public round page is the same for everyone (matches/public_pages.py: served before
  // the session is read, so without X-Viewer): kept under the phone's current viewer.
  const viewer = response.headers.get("X-Viewer")
    || (/\bpublic\b/.test(control) ? await viewerNow() : null);
  await noteViewer(viewer);
  if (response.status === 200 && type.startsWith("text/html") && !/no-store/.test(control)
      && keptPath(url) && viewer) {
    const body = await response.clone().text();
    const headers = new Headers({
      "Content-Type": type,
      "X-Viewer": viewer,
      "X-Fetched-At": new Date().toISOString(),
    });
    await (await caches.open(PAGES)).put(request.url, new Response(body, { headers }));
  }
  return response;
}

/* The words (config/pwa.py VENUE_WORDS): a kept page's own (its language), else the last
   page's, which the venue script hands over. No words are written here. */
async function wordsOf(body) {
  const inPage = body && WORDS_IN_PAGE.exec(body);
  if (inPage) {
    try { return JSON.parse(inPage[1]); } catch (error) { /* the last page's, then */ }
  }
  const stored = await (await caches.open(STATE)).match(WORDS_KEY);
  return stored ? stored.json() : {};
}

function word(words, key, values) {
  return String(words[key] || "").replace(/%\((\w+)\)s/g, (m, name) =>
    (values && name in values ? values[name] : m));
}

function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

async function offlineCopy(request) {
  const cached = await (await caches.open(PAGES)).match(request.url);
  const viewer = await currentViewer();
  if (cached && cached.headers.get("X-Viewer") === viewer) {
    const fetchedAt = cached.headers.get("X-Fetched-At");
    const body = await cached.text();
    const time = new Date(fetchedAt);
    const shown = time.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    const time_ = `<time datetime="${escapeHtml(fetchedAt)}">${escapeHtml(shown)}</time>`;
    const banner =
      `<div class="venue-offline" role="status" data-fetched-at="${escapeHtml(fetchedAt)}">` +
      `${word(await wordsOf(body), "offline_copy", { time: time_ })}</div>`;
    const marked = body.replace(/<main([^>]*)>/, (m) => m + banner);
    return new Response(marked, {
      status: 200,
      headers: { "Content-Type": cached.headers.get("Content-Type"), "X-Offline-Copy": fetchedAt },
    });
  }
  const words = await wordsOf(null);
  const page =
    "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width, initial-scale=1'>" +
    `<title>${escapeHtml(word(words, "offline_title"))}</title>` +
    "<body style='font-family:system-ui,sans-serif;padding:1rem;max-width:40rem'>" +
    `<h1>${escapeHtml(word(words, "no_network"))}</h1><p>${escapeHtml(word(words, "no_copy"))}</p>` +
    `<p><a href='/'>${escapeHtml(word(words, "home"))}</a></p>`;
  return new Response(page, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

async function assetFromNetwork(request) {
  try {
    const response = await fetch(request);
    if (response.status === 200) await (await caches.open(ASSETS)).put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await (await caches.open(ASSETS)).match(request);
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && WIPE_ON_POST.some((re) => re.test(url.pathname))) {
    // Signing out or in: nothing kept for this phone's last viewer survives it.
    event.respondWith(wipe().then(() => fetch(request)));
    return;
  }
  if (request.method !== "GET") return;
  if (NEVER.some((re) => re.test(url.pathname))) return; // the network, never a copy
  if (request.mode === "navigate") {
    if (keptPath(url)) event.respondWith(pageFromNetwork(request));
    else event.respondWith(fetch(request).catch(() => offlineCopy(request)));
    return;
  }
  if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/favicon")) {
    event.respondWith(assetFromNetwork(request));
  }
});

self.addEventListener("message", (event) => {
  if (event.data === "wipe") event.waitUntil(wipe());
  else if (event.data && event.data.words) {
    const words = new Response(JSON.stringify(event.data.words),
                               { headers: { "Content-Type": "application/json" } });
    event.waitUntil(caches.open(STATE).then((cache) => cache.put(WORDS_KEY, words)));
  }
});
