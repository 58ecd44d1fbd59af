// The viewer's own part of a public round page (one body for every viewer, served from the
// cache): fetch /events/<id>/me.json and fill in the signed-in menu and inbox badge, "your
// table" and its row, and the staff's links. Without JavaScript the page still works (the
// "Find my table" form asks the server). A static file: the CSP allows no inline script.
(function () {
  "use strict";
  var holder = document.querySelector("[data-me-url]");
  if (!holder) return;

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function slot(name) { return document.querySelector('[data-me="' + name + '"]'); }
  // The words come with me.json, in the reader's language (no words live in this file).
  var words = {};
  function word(key) { return words[key] || ""; }

  function fillNav(user) {
    var nav = slot("nav");
    if (!nav) return;
    var inbox = el("a", { href: user.links.inbox }, word("inbox"));
    if (user.unread) {
      inbox.append(" ", el("span", { "class": "badge", title: word("unread") }, String(user.unread)),
                   el("span", { "class": "visually-hidden" }, " " + word("unread")));
    }
    var form = el("form", { "class": "inline", method: "post", action: user.links.logout });
    form.append(el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: user.csrf }),
                el("button", { "class": "secondary" }, word("log_out")));
    nav.replaceChildren(
      el("a", { href: user.links.my_events }, word("my_events")), " ",
      el("a", { href: user.links.profile }, word("profile")), " ", inbox, " ",
      el("span", { "class": "muted who", title: word("signed_in_as").replace("%(name)s", user.name) }, user.name), " ",
      form);
  }

  function fillStaff(links) {
    var place = slot("staff-links");
    if (!place || !links.length) return;
    links.forEach(function (link) {
      place.append(" · ", el("a", { href: link.url }, link.label));
    });
  }

  function fillMatch(me) {
    var card = slot("my-match");
    if (me.registration) {
      document.querySelectorAll("tr[data-p]").forEach(function (row) {
        if (row.dataset.p.split(" ").indexOf(String(me.registration.id)) >= 0) row.classList.add("mine");
      });
    }
    if (!card || !me.match) return;
    var m = me.match;
    var link = el("a", { href: m.url }, word("your_table"));
    link.append(el("strong", {}, String(m.table)));
    card.replaceChildren(link, (m.division ? " (" + m.division + ")" : "") + " · " + (m.opponent || word("bye")));
    card.hidden = false;
  }

  function newer(a, b) {  // decimal strings, too long for a JavaScript number
    return a.length !== b.length ? a.length > b.length : a > b;
  }
  function noteStale(version) {
    var page = document.body.dataset.eventVersion || "";
    if (!page || !version || !newer(String(version), page)) return;
    var note = el("p", { "class": "card warn stale", role: "status" },
                  word("newer"));
    note.append(el("a", { href: location.href }, word("reload")));
    var main = document.querySelector("main") || document.body;
    main.insertBefore(note, main.firstChild);
  }

  fetch(holder.dataset.meUrl, { credentials: "same-origin", cache: "no-store",
                                 headers: { Accept: "application/json" } })
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(function (me) {
      if (!me) return;
      words = me.words || {};
      if (me.user) fillNav(me.user);
      fillStaff(me.links || []);
      fillMatch(me);
      noteStale(me.version);
      document.body.dataset.me = me.user ? "user" : "anonymous";
    })
    .catch(function () { /* the page stays as every viewer sees it */ });
})();
