// The calendar address's "Copy" button (games/calendar/templates/calendar/_profile.html):
// made from its <template> only where the browser can copy; the address stays selectable
// without it.
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  document.querySelectorAll("[data-copy]").forEach(function (row) {
    var field = document.getElementById(row.getAttribute("data-copy"));
    var made = row.querySelector("template[data-copy-button]");
    var status = document.querySelector("[data-copy-status]");
    if (!field || !made || !navigator.clipboard) return;
    var button = made.content.firstElementChild.cloneNode(true);
    row.appendChild(button);
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
