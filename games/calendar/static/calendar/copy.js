// The calendar address's "Copy" button (games/calendar/templates/calendar/_profile.html):
// shown only where the browser can copy; the address stays selectable without it.
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    var status = button.parentNode.querySelector("[data-copy-status]");
    if (!field || !navigator.clipboard) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(field.value).then(
        function () { if (status) status.textContent = gettext("Copied."); },
        function () {
          field.select();
          if (status) status.textContent = gettext("Select the address and copy it.");
        }
      );
    });
  });
})();
