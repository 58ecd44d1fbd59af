// Every page: confirmations and round clocks (a static file: the Content-Security-Policy
// allows no inline script, and a page cached for everyone carries no per-request nonce).
// A form with data-confirm asks before it is sent (the Content-Security-Policy allows no
// inline onsubmit handlers).
document.querySelectorAll("form[data-confirm]").forEach(function (form) {
  form.addEventListener("submit", function (event) {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
});
// A round clock: any element with data-remaining (seconds) counts down to the
// data-time-up words on it or around it (the page renders them in the reader's language).
// With data-ends-at around it (the moment, in ms) the phone's own clock counts down to that
// moment, as the projector's does: the page may be a copy kept for a minute
// (matches/own_pages.py), whose "seconds left" were those of the moment it was made.
document.querySelectorAll("[data-remaining]").forEach(function (el) {
  var moment = el.closest("[data-ends-at]");
  var end = moment ? parseInt(moment.dataset.endsAt, 10)
                   : Date.now() + parseInt(el.dataset.remaining, 10) * 1000;
  var words = el.closest("[data-time-up]");
  var timeUp = words ? words.dataset.timeUp : "";
  // "Clock: 12:34 left" becomes "Clock: Time!" where the page has both lines (.clock-up).
  var line = el.closest(".clock-running");
  var up = line && line.parentNode.querySelector(".clock-up");
  function tick() {
    var left = Math.max(0, Math.round((end - Date.now()) / 1000));
    el.textContent = left > 0 ? Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") : timeUp;
    if (up) { line.hidden = left <= 0; up.hidden = left > 0; }
  }
  tick();
  setInterval(tick, 1000);
});
