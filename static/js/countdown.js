// Keeps every deadline countdown (templates/games/_deadline.html) live. The server renders
// the same words (games/narration/durations.py countdown_words), so without JavaScript
// the page is right when it loads; this only keeps it right. No dependencies.
(function () {
  "use strict";
  if (window.witchhuntCountdown) return; // the partial may be included many times a page
  window.witchhuntCountdown = true;

  function words(ms) {
    if (ms <= 0) return "any moment now";
    var minutes = Math.floor(ms / 60000);
    var days = Math.floor(minutes / 1440);
    var hours = Math.floor((minutes % 1440) / 60);
    minutes = minutes % 60;
    var text;
    if (days) text = hours ? days + " d " + hours + " h" : days + " d";
    else if (hours) text = minutes ? hours + " h " + minutes + " min" : hours + " h";
    else text = minutes ? minutes + " min" : "less than a minute";
    return "in " + text;
  }

  function tick() {
    var now = Date.now();
    var next = 30000;
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var deadline = Date.parse(el.dataset.countdown);
      // The server's clock decides deadlines: correct for this device's clock being off.
      var skew = el.dataset.skew ? Number(el.dataset.skew) : 0;
      var left = deadline - (now + skew);
      el.textContent = words(left);
      if (left > 0) next = Math.min(next, (left % 60000) + 50);
    });
    window.setTimeout(tick, Math.max(next, 1000));
  }

  function start() {
    var loaded = Date.now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var serverNow = Date.parse(el.dataset.now);
      if (!isNaN(serverNow)) el.dataset.skew = String(serverNow - loaded);
    });
    tick();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
