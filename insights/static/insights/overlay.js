// The stream overlay: fetch the JSON feed every few seconds and patch the text in place
// (never a reload, so OBS never flashes); the table's clock (the round's end plus the
// table's time extensions) ticks each second from the server's time, and reads "Final"
// without counting once the result stands. A static file, as the site's CSP allows no inline script.
// Its words come from the page, in the reader's language: `data-t-*` on <body>, with
// __ROUND__, __STAGE__, __TABLE__, __MINUTES__ where the figures go.
(function () {
  "use strict";
  var body = document.body;
  var feed = body.dataset.feed;
  var offset = 0; // server time minus local time, in ms
  var endsAt = null;
  var final = body.dataset.final === "1"; // the result stands: "Final", no counting
  var words = body.dataset;

  function fill(text, values) {
    Object.keys(values).forEach(function (key) { text = text.split(key).join(String(values[key])); });
    return text;
  }

  function field(name, root) {
    return (root || document).querySelector('[data-field="' + name + '"]');
  }
  function setText(el, text) {
    if (el && el.textContent !== text) el.textContent = text;
  }
  function setHidden(el, hidden) {
    if (el && el.hidden !== hidden) el.hidden = hidden;
  }
  function syncTime(now, ends) {
    if (now) offset = Date.parse(now) - Date.now();
    endsAt = ends ? Date.parse(ends) : null;
  }
  function tick() {
    var clock = field("clock");
    clock.classList.toggle("final", final);
    if (final) { setText(clock, words.tFinal); clock.classList.remove("over"); return; }
    if (!endsAt) { setText(clock, "–"); return; }
    var left = Math.round((endsAt - (Date.now() + offset)) / 1000);
    var over = left <= 0;
    if (over) left = 0;
    var m = Math.floor(left / 60), s = left % 60;
    setText(clock, (m < 10 ? "0" : "") + m + ":" + (s < 10 ? "0" : "") + s);
    clock.classList.toggle("over", over);
  }
  function where(data) {
    if (!data.round) return words.tWaiting;
    var text = data.stage
      ? fill(words.tRoundStage, { __ROUND__: data.round, __STAGE__: data.stage })
      : fill(words.tRound, { __ROUND__: data.round });
    return data.table ? text + " · " + fill(words.tTable, { __TABLE__: data.table }) : text;
  }
  function pokemonKey(cards) {
    return cards.map(function (c) { return c.count + " " + c.name; }).join("\n");
  }
  function patchPlayer(section, player) {
    setText(field("name", section), player.name);
    setText(field("record", section), player.record);
    setText(field("archetype", section), player.archetype);
    var list = field("pokemon", section);
    var key = pokemonKey(player.pokemon);
    if (list.dataset.key === undefined) list.dataset.key = pokemonKey(
      Array.prototype.map.call(list.children, function (li) {
        var parts = li.textContent.split(" ");
        return { count: parts.shift(), name: parts.join(" ") };
      }));
    if (list.dataset.key !== key) {
      list.replaceChildren.apply(list, player.pokemon.map(function (c) {
        var li = document.createElement("li");
        li.textContent = c.count + " " + c.name;
        return li;
      }));
      list.dataset.key = key;
    }
  }
  function patch(data) {
    setText(field("event"), data.event);
    setText(field("where"), where(data));
    syncTime(data.now, data.ends_at);
    final = Boolean(data.final);
    var extension = field("extension");
    setText(extension, fill(words.tExtension, { __MINUTES__: data.extra_minutes || 0 }));
    setHidden(extension, final || !data.extra_minutes);
    var has = data.players.length === 2;
    setHidden(field("match"), !has);
    setHidden(field("nomatch"), has);
    if (has) {
      var sides = document.querySelectorAll(".player");
      patchPlayer(sides[0], data.players[0]);
      patchPlayer(sides[1], data.players[1]);
      setText(field("games-a"), String(data.players[0].games));
      setText(field("games-b"), String(data.players[1].games));
    }
    body.dataset.updated = String(Date.now());
    tick();
  }
  function refresh() {
    fetch(feed, { headers: { Accept: "application/json" }, cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        // The feed is one cached body for every viewer (its "now" is when it was built):
        // the clock follows the answer's Date header, the server's time now.
        var date = r.headers.get("Date");
        return r.ok ? r.json().then(function (data) { if (date) data.now = date; return data; }) : null;
      })
      .then(function (data) { if (data) patch(data); })
      .catch(function () { /* keep showing the last data; try again next time */ });
  }
  syncTime(body.dataset.now, body.dataset.endsAt);
  tick();
  setInterval(tick, 1000);
  setInterval(refresh, Number(body.dataset.interval || 3000));
})();
