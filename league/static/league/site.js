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
document.querySelectorAll("[data-remaining]").forEach(function (el) {
  var end = Date.now() + parseInt(el.dataset.remaining, 10) * 1000;
  var words = el.closest("[data-time-up]");
  var timeUp = words ? words.dataset.timeUp : "";
  function tick() {
    var left = Math.max(0, Math.round((end - Date.now()) / 1000));
    el.textContent = left > 0 ? Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") : timeUp;
  }
  tick();
  setInterval(tick, 1000);
});
