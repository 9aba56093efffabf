// Keeps each deadline on the page live (templates/games/_deadline.html): the countdown's
// words, counted to the deadline's <time datetime>, and once it has passed a notice in the
// deadline's status region with a reload button, instead of "any moment now" for ever (the
// new phase comes from the server). One timer a page, which finds the deadlines afresh on
// each tick: a deadline swapped in later (static/js/live.js) is counted as it arrives, and
// loading the script again does nothing. Without JavaScript the server's words stand. No dependencies.
(function () {
  "use strict";
  if (window.witchhuntDeadline) return;
  window.witchhuntDeadline = true;

  // Django's JavaScript catalog (/jsi18n/) words these in the page's language; without it
  // the English stands. Looked up at each call, so the order the scripts load in does not
  // matter.
  function gettext(text) {
    return window.gettext ? window.gettext(text) : text;
  }
  function interpolate(format, values) {
    return window.interpolate
      ? window.interpolate(format, values, true)
      : format.replace(/%\((\w+)\)s/g, function (_, name) { return String(values[name]); });
  }

  // games/narration/durations.py countdown_words, the server's words: change both together.
  function words(ms) {
    var minutes = Math.floor(ms / 60000);
    var parts = {
      days: Math.floor(minutes / 1440),
      hours: Math.floor((minutes % 1440) / 60),
      minutes: minutes % 60,
    };
    var text;
    if (parts.days && parts.hours) text = gettext("%(days)s d %(hours)s h");
    else if (parts.days) text = gettext("%(days)s d");
    else if (parts.hours && parts.minutes) text = gettext("%(hours)s h %(minutes)s min");
    else if (parts.hours) text = gettext("%(hours)s h");
    else if (parts.minutes) text = gettext("%(minutes)s min");
    else text = gettext("less than a minute");
    return interpolate(gettext("in %(duration)s"), { duration: interpolate(text, parts) });
  }

  // The server's clock decides deadlines: how far this device's clock is behind it, taken
  // when a countdown is first seen (data-now is the server's time when it was rendered).
  function skew(countdown) {
    if (!countdown.dataset.skew) {
      var server = Date.parse(countdown.dataset.now);
      countdown.dataset.skew = String(isNaN(server) ? 0 : server - Date.now());
    }
    return Number(countdown.dataset.skew);
  }

  function passed(box) {
    var status = box.querySelector("[data-deadline-passed]");
    if (!status || status.childNodes.length) return;
    var left = box.querySelector(".deadline__left");
    if (left) left.hidden = true;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button deadline__reload";
    button.textContent = gettext("Reload");
    button.addEventListener("click", function () {
      window.location.reload();
    });
    status.append(gettext("The deadline has passed — reload to see the new phase.") + " ", button);
  }

  function tick() {
    var now = Date.now();
    var next = 15000;
    document.querySelectorAll("[data-deadline]").forEach(function (box) {
      var time = box.querySelector("time[datetime]");
      var countdown = box.querySelector(".countdown[data-now]");
      if (!time || !countdown) return; // a paused clock has no countdown
      var left = Date.parse(time.getAttribute("datetime")) - (now + skew(countdown));
      if (isNaN(left)) return;
      if (left <= 0) {
        passed(box);
        return;
      }
      countdown.textContent = words(left);
      next = Math.min(next, (left % 60000) + 50);
    });
    schedule(Math.max(next, 250));
  }

  var timer = null;
  function schedule(ms) {
    window.clearTimeout(timer);
    timer = window.setTimeout(tick, ms);
  }

  // A deadline swapped in (the live refresh) is counted at once, not at the next tick.
  function added(records) {
    return records.some(function (record) {
      return Array.prototype.some.call(record.addedNodes, function (node) {
        return node.nodeType === 1 && (node.matches("[data-deadline]") || node.querySelector("[data-deadline]"));
      });
    });
  }

  function start() {
    tick();
    new MutationObserver(function (records) {
      if (added(records)) schedule(0);
    }).observe(document.body, { childList: true, subtree: true });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
