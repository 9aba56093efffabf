// Keeps a setup-lab estimate's page current while its job runs (games/views/lab.py):
// every few seconds it fetches the page again and swaps in the result's region (the
// progress, then the chart and the tables), and the status line's words when the job
// moves on, which the status region announces. It stops once the page says the job is
// over. Without JavaScript the page's "Refresh" link does the same. No dependencies.
(function () {
  "use strict";
  var region = document.querySelector("[data-lab-region]");
  if (!region || !region.hasAttribute("data-lab-poll") || !window.fetch || !window.DOMParser) {
    return;
  }
  var seconds = Number(region.getAttribute("data-lab-poll")) || 2;
  var refresh = region.querySelector(".lab-refresh");
  if (refresh) refresh.hidden = true; // this script refreshes instead

  function poll() {
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var next = doc.querySelector("[data-lab-region]");
        var current = document.querySelector("[data-lab-region]");
        if (!next || !current) return;
        var status = document.getElementById("lab-status");
        var nextStatus = doc.getElementById("lab-status");
        if (status && nextStatus && status.textContent !== nextStatus.textContent) {
          status.textContent = nextStatus.textContent;
        }
        var replacement = document.importNode(next, true);
        var link = replacement.querySelector(".lab-refresh");
        if (link) link.hidden = true;
        current.replaceWith(replacement);
        if (replacement.hasAttribute("data-lab-poll")) window.setTimeout(poll, seconds * 1000);
      })
      .catch(function () {
        window.setTimeout(poll, seconds * 5000); // the server is busy or away: ask less often
      });
  }
  window.setTimeout(poll, seconds * 1000);
})();
