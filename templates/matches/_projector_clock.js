(function () {
  // The round's end as a moment, not "seconds left": the page is the same for every viewer
  // and minute (one body a version), so the wall's own clock counts down to it.
  var el = document.getElementById("clock");
  var end = parseInt(el.dataset.endsAt, 10);
  function pad(n) { return n < 10 ? "0" + n : "" + n; }
  function tick() {
    var left = Math.max(0, Math.round((end - Date.now()) / 1000));
    el.textContent = left > 0 ? Math.floor(left / 60) + ":" + pad(left % 60) : "Time!";
    el.className = left > 0 ? "" : "over";
  }
  tick();
  setInterval(tick, 1000);
})();