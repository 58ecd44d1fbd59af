/* The venue script on every page (static: the Content-Security-Policy allows no inline
   script). It registers the service worker (static/pwa/sw.js), says when the phone is
   offline and since when the page is, and keeps results entered offline on the phone:

   - A player's report (the match page) and a staff result (the match page, the results
     grid) submitted without the network are turned into the API's payload and kept in
     IndexedDB ("venue" / "outbox"), each with its own Idempotency-Key made once, when it is
     kept. The page lists them plainly: "Waiting to be sent".
   - When the network is back (the browser's "online" event, a page load, or every 15
     seconds while something waits) they are sent in the order they were made, to
     POST /api/matches/<id>/report/ or /result/ with that key: a retry after a lost answer
     gets the first answer again (config/idempotency.py), so nothing counts twice.
   - Each kept result belongs to the account that made it (the service worker's viewer):
     it is only sent while that account is signed in. */

(function () {
  "use strict";

  var DB = "venue", STORE = "outbox";
  var main = document.querySelector("main") || document.body;
  var loadedAt = new Date();
  var flushing = false;
  // What was sent or refused, kept in this tab for 10 minutes: a reload (or the page the
  // player opens next) still says "Sent", where an answer in memory only was lost with it.
  var NOTES = "venue-notes", NOTES_FOR = 10 * 60 * 1000;
  var notes = {};
  try { notes = JSON.parse(sessionStorage.getItem(NOTES)) || {}; } catch (e) {}
  function recent(list) {
    return (list || []).filter(function (n) { return Date.now() - new Date(n.at) < NOTES_FOR; })
                       .map(function (n) { n.at = new Date(n.at); return n; });
  }
  var sent = recent(notes.sent), refused = recent(notes.refused);
  function note(list, entry) {
    entry.at = new Date();
    list.push(entry);
    try { sessionStorage.setItem(NOTES, JSON.stringify({ sent: sent, refused: refused })); } catch (e) {}
  }
  var retrySoon = false;

  // The words, in the page's language (config/pwa.py VENUE_WORDS, rendered by base.html).
  var WORDS = {};
  try { WORDS = JSON.parse(document.getElementById("venue-words").textContent) || {}; } catch (e) {}
  function word(key, values) {
    return String(WORDS[key] || "").replace(/%\((\w+)\)s/g, function (m, name) {
      return values && name in values ? values[name] : m;
    });
  }

  function hhmm(date) {
    return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  var css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = document.currentScript.src.replace(/venue\.js(\?.*)?$/, "venue.css");
  document.head.appendChild(css);

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(function () {});
    // The service worker's offline page speaks the language of the last page seen.
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ words: WORDS });
    }).catch(function () {});
  }

  // --- offline, and since when the page is as it is

  var servedCopy = document.querySelector(".venue-offline");
  var liveBanner = null;
  function showOffline() {
    if (servedCopy || liveBanner) return;
    liveBanner = document.createElement("div");
    liveBanner.className = "venue-offline";
    liveBanner.setAttribute("role", "status");
    liveBanner.innerHTML = word("offline_live", { time: "<time></time>" });
    liveBanner.querySelector("time").textContent = hhmm(loadedAt);
    liveBanner.querySelector("time").setAttribute("datetime", loadedAt.toISOString());
    main.insertBefore(liveBanner, main.firstChild);
  }
  window.addEventListener("offline", showOffline);
  window.addEventListener("online", function () {
    if (liveBanner) { liveBanner.remove(); liveBanner = null; }
    flush();
  });
  if (!navigator.onLine) showOffline();

  // --- IndexedDB, the phone's outbox

  function db() {
    return new Promise(function (resolve, reject) {
      var open = indexedDB.open(DB, 1);
      open.onupgradeneeded = function () {
        open.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      };
      open.onsuccess = function () { resolve(open.result); };
      open.onerror = function () { reject(open.error); };
    });
  }
  function tx(mode, work) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var t = d.transaction(STORE, mode), store = t.objectStore(STORE), out = work(store);
        t.oncomplete = function () { resolve(out && out.result !== undefined ? out.result : out); };
        t.onerror = function () { reject(t.error); };
      });
    });
  }
  function allItems() { return tx("readonly", function (s) { return s.getAll(); }); }
  function addItem(item) { return tx("readwrite", function (s) { return s.add(item); }); }
  function removeItem(id) { return tx("readwrite", function (s) { return s.delete(id); }); }

  function viewerNow() {
    // The account the service worker last saw (config/pwa.py's X-Viewer).
    if (!window.caches) return Promise.resolve(null);
    return caches.open("venue-state-v1").then(function (c) { return c.match("/__venue/viewer"); })
      .then(function (r) { return r ? r.text() : null; }).catch(function () { return null; });
  }
  function viewerOnline() {
    return fetch("/manifest.webmanifest", { method: "HEAD", credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.headers.get("X-Viewer"); });
  }
  function csrf(fallback) {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return m ? decodeURIComponent(m[1]) : (input ? input.value : fallback);
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  }

  // --- the forms, as the API's payload (matches/forms.py says the same in Python)

  function other(side) { return side === "a" ? "b" : "a"; }
  function bothWays(winner, reason) {
    var ways = {}; ways[winner] = 2; ways[other(winner)] = 1;
    return { outcome: "both_won", reason: reason || "played", ways: ways };
  }
  function gamesFrom(data, side) {
    var games = [];
    for (var i = 1; data.has("game_" + i); i++) {
      var value = data.get("game_" + i), reason = data.get("reason_" + i) || "played";
      if (!value) continue;
      var mapped = function (v) { return v === "me" ? side : v === "opponent" ? other(side) : v; };
      if (/_both_ways$/.test(value)) games.push(bothWays(mapped(value.replace(/_both_ways$/, "")), reason));
      else games.push({ outcome: mapped(value), reason: reason });
    }
    return games;
  }
  var GRID_GAMES = {
    a: { outcome: "a", reason: "played" }, b: { outcome: "b", reason: "played" },
    penalty_a: { outcome: "b", reason: "penalty" }, penalty_b: { outcome: "a", reason: "penalty" },
    tie: { outcome: "tie", reason: "played" }, double_loss: { outcome: "double_loss", reason: "penalty" },
  };

  function payloadOf(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name) data.set(submitter.name, submitter.value);
    var path = new URL(form.action, location.href).pathname;
    var m = path.match(/^\/matches\/(\d+)\/(report|result|quick-result)\/$/);
    if (!m) return null;
    var id = m[1], kind = m[2];
    if (kind === "report") {
      var holder = form.closest("[data-side]");
      var side = holder ? holder.getAttribute("data-side") : "";
      var mode = data.get("mode") || "games";
      if (!side || mode === "confirm") return null;
      var body;
      if (mode === "quick") {
        var outcome = data.get("outcome"), sd = parseInt(data.get("sudden_death") || "0", 10) || 0;
        var games = [];
        for (var k = 0; k < sd; k++) games.push({ outcome: "both_won", reason: "played" });
        if (outcome === "won_both_ways") games.push(bothWays(side));
        else if (outcome === "lost_both_ways") games.push(bothWays(other(side)));
        else games.push({ outcome: { won: side, lost: other(side), tie: "tie", draw: "draw" }[outcome], reason: "played" });
        body = { games: games, at_time: outcome === "tie", intentional_draw: false };
      } else if (mode === "quick3") { // matches.forms.BestOfThreeQuickForm
        var tap = data.get("outcome"), WINS = { won_2_0: "ww", won_2_1: "wlw", lost_1_2: "lwl", lost_0_2: "ll" };
        var played = function (who, prizes) {
          var game = { outcome: who, reason: "played" };
          if (prizes) game.prizes = prizes;
          return game;
        };
        if (WINS[tap]) {
          body = { games: WINS[tap].split("").map(function (c) { return played(c === "w" ? side : other(side)); }),
                   at_time: false, intentional_draw: false };
        } else {
          var level = [played("a"), played("b")];
          if (tap !== "tie_1_1") level.push(played(tap === "won_sudden_death" ? side : other(side), parseInt(form.dataset.sdPrizes, 10)));
          body = { games: level, at_time: true, intentional_draw: false };
        }
      } else {
        body = { games: gamesFrom(data, side), at_time: data.has("at_time"), intentional_draw: data.has("intentional_draw") };
      }
      return { url: "/api/matches/" + id + "/report/", payload: body, match: id, kind: word("your_report") };
    }
    if (kind === "result") {
      return { url: "/api/matches/" + id + "/result/", match: id, kind: word("staff_result"),
               payload: { games: gamesFrom(data, ""), at_time: data.has("at_time"),
                          intentional_draw: data.has("intentional_draw"), note: data.get("note") || "" } };
    }
    var bestOf = form.querySelectorAll("select[name^=game_]").length || 1;
    var quick = data.get("quick"), grid;
    if (quick === "a" || quick === "b") {
      grid = { games: [], at_time: false, intentional_draw: false };
      for (var w = 0; w < Math.floor(bestOf / 2) + 1; w++) grid.games.push({ outcome: quick, reason: "played" });
    } else if (quick === "tie") grid = { games: [{ outcome: "tie", reason: "played" }], at_time: true, intentional_draw: false };
    else if (quick === "id") grid = { games: [], at_time: false, intentional_draw: true };
    else if (quick === "double_loss") {
      grid = { games: [], at_time: false, intentional_draw: false };
      for (var d = 0; d < bestOf; d++) grid.games.push({ outcome: "double_loss", reason: "penalty" });
    } else {
      var picked = [];
      for (var g = 1; g <= bestOf; g++) { var v = data.get("game_" + g); if (v) picked.push(GRID_GAMES[v]); }
      grid = { games: picked, intentional_draw: false,
               at_time: data.has("at_time") || picked.some(function (x) { return x.outcome === "tie"; }) };
    }
    grid.note = data.get("note") || "";
    return { url: "/api/matches/" + id + "/result/", payload: grid, match: id, kind: word("staff_result") };
  }

  function describe(form) {
    var row = form.closest("tr");
    if (row && row.cells.length) return word("table", { table: row.cells[0].textContent.trim() });
    var h1 = document.querySelector("h1");
    return h1 ? h1.textContent.trim().replace(/\s+/g, " ") : word("match");
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || (form.method || "").toLowerCase() !== "post") return;
    var offline = !navigator.onLine || servedCopy;
    if (!offline) return;
    var item = payloadOf(form, event.submitter);
    if (!item) {
      if (/\/matches\/\d+\//.test(form.action)) {
        event.preventDefault();
        window.alert(word("needs_network"));
      }
      return;
    }
    event.preventDefault();
    viewerNow().then(function (viewer) {
      item.viewer = viewer;
      item.key = newKey();
      item.csrf = csrf("");
      item.label = describe(form);
      item.keptAt = new Date().toISOString();
      return addItem(item);
    }).then(function () {
      form.classList.add("venue-kept");
      render();
    });
  }, true);

  // --- sending, in order, once the network is back

  function flush() {
    if (flushing || !window.indexedDB) return Promise.resolve();
    flushing = true;
    return allItems().then(function (items) {
      if (!items.length) return;
      return viewerOnline().then(function (viewer) {
        var chain = Promise.resolve(true);
        items.sort(function (x, y) { return x.id - y.id; }).forEach(function (item) {
          chain = chain.then(function (go) {
            if (!go) return false;
            if (item.viewer && item.viewer !== viewer) return true; // another account's
            return send(item);
          });
        });
        return chain;
      });
    }).catch(function () {}).then(function () {
      flushing = false; render();
      if (retrySoon) { retrySoon = false; setTimeout(flush, 2000); }
    });
  }

  function send(item) {
    return fetch(item.url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Idempotency-Key": item.key,
                 "X-CSRFToken": csrf(item.csrf) },
      body: JSON.stringify(item.payload),
    }).then(function (response) {
      if (response.ok) {
        note(sent, { label: item.label, kind: item.kind });
        return removeItem(item.id).then(function () { return true; });
      }
      if (response.status >= 500) return false; // the site is struggling: later
      return response.json().catch(function () { return {}; }).then(function (body) {
        // The same report is still being answered (a copy sent just before a reload or a
        // lost answer): ask again in a moment, when the site answers with that report's result.
        if (body.code === "idempotency-key-in-use") { retrySoon = true; return false; }
        note(refused, { label: item.label, kind: item.kind, detail: body.detail || word("answer", { status: response.status }) });
        return removeItem(item.id).then(function () { return true; });
      });
    }, function () { return false; }); // still no network: keep it, in its place
  }

  // --- what is waiting, said plainly

  var panel = null;
  function render() {
    if (!window.indexedDB) return;
    allItems().then(function (items) {
      return viewerNow().then(function (viewer) {
        var mine = items.filter(function (i) { return !i.viewer || !viewer || i.viewer === viewer; });
        if (!panel) {
          panel = document.createElement("section");
          panel.id = "venue-outbox";
          panel.className = "venue-outbox";
          panel.setAttribute("aria-live", "polite");
          main.insertBefore(panel, (liveBanner || servedCopy || {}).nextSibling || main.firstChild);
        }
        var html = "";
        if (mine.length) {
          html += "<p>" + word("waiting", { count: mine.length }) + "</p><ul>";
          mine.forEach(function (i) {
            html += "<li>" + word("kept", { label: esc(i.label), kind: esc(i.kind), time: esc(hhmm(new Date(i.keptAt))) }) + "</li>";
          });
          html += "</ul>";
        }
        sent.forEach(function (s) {
          html += "<p class='venue-sent'>" + word("sent", { label: esc(s.label), kind: esc(s.kind), time: esc(hhmm(s.at)),
                                                            url: esc(location.pathname + location.search) }) + "</p>";
        });
        refused.forEach(function (r) {
          html += "<p class='venue-refused'>" + word("refused", { label: esc(r.label), kind: esc(r.kind), detail: esc(r.detail) }) + "</p>";
        });
        panel.innerHTML = html;
        panel.hidden = !html;
      });
    }).catch(function () {});
  }
  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  render();
  if (navigator.onLine) flush();
  setInterval(function () {
    if (navigator.onLine) allItems().then(function (items) { if (items.length) flush(); }).catch(function () {});
  }, 15000);
})();
