(function () {
  // The round's end as a moment, not "seconds left": the page is the same for every viewer
  // and minute (one body a version), so the wall's own clock counts down to it, then runs
  // the overtime clock (when the event's rules have one) from the moment time is called.
  // Its words come from the page (data-time-text, data-overtime-text), in the reader's language.
  var el = document.getElementById("clock");
  var end = parseInt(el.dataset.endsAt, 10);
  var overtime = el.dataset.overtime ? parseInt(el.dataset.overtime, 10) : null;
  function pad(n) { return n < 10 ? "0" + n : "" + n; }
  function tick() {
    var raw = Math.round((end - Date.now()) / 1000);
    var left = Math.max(0, raw);
    if (left > 0) { el.textContent = Math.floor(left / 60) + ":" + pad(left % 60); }
    else if (overtime !== null) {
      var ot = Math.max(0, overtime + raw);
      el.textContent = el.dataset.overtimeText.replace("{clock}", Math.floor(ot / 60) + ":" + pad(ot % 60));
    } else { el.textContent = el.dataset.timeText; }
    el.className = left > 0 ? "" : "over";
  }
  tick();
  setInterval(tick, 1000);
})();