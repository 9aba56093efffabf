// Tells the site the browser's time zone, once a session, so that a visitor's next pages
// show times in it and the sign-up form offers it (accounts/views.py browser_time_zone).
// The page loads this only while the visitor's session has no zone yet (templates/base.html);
// a member's own zone, chosen on the profile, is never touched. No dependencies.
(function () {
  "use strict";
  var script = document.currentScript;
  var REFUSED = "witchhunt-time-zone-refused";
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) {
    return;
  }
  if (!zone || !script || !window.fetch) return;
  // Once the site has the zone, its pages stop loading this script. A zone it refused (no
  // city, such as Etc/GMT+5) or a refusal for blocked cookies is remembered for the tab,
  // so that the visitor's next pages do not ask again.
  function refused() {
    try {
      return window.sessionStorage.getItem(REFUSED) === zone;
    } catch (e) {
      return false;
    }
  }
  function rememberRefusal() {
    try {
      window.sessionStorage.setItem(REFUSED, zone);
    } catch (e) {
      // Storage off: the next page asks again, which changes nothing.
    }
  }
  if (refused()) return;

  // A select the visitor has not touched yet takes the zone the site settled on.
  function offer(settled) {
    document.querySelectorAll("select[data-browser-zone]").forEach(function (select) {
      var untouched = Array.prototype.every.call(select.options, function (option) {
        return option.selected === option.defaultSelected;
      });
      if (!untouched) return;
      var option = Array.prototype.find.call(select.options, function (o) {
        return o.value === settled;
      });
      if (option) select.value = settled;
    });
  }

  // Django's CSRF cookie, which the page that loads this script sets
  // (accounts/middleware.py).
  function csrfToken() {
    var found = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return found ? decodeURIComponent(found[1]) : "";
  }

  var body = new FormData();
  body.append("time_zone", zone);
  window
    .fetch(script.dataset.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken() },
    })
    .then(function (response) {
      if (response.ok) return response.json();
      rememberRefusal();
      return null;
    })
    .then(function (answer) {
      if (answer && answer.time_zone) offer(answer.time_zone);
    })
    .catch(function () {
      // Offline or refused: times stay in UTC, as without JavaScript.
    });
})();
