// The game viewer: the left and right arrow keys follow the page's previous and next
// step links (a static file: the site's CSP allows no inline script).
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    var target = event.target;
    // Keys typed into a field (the seat's list) or a control are theirs, not the viewer's.
    if (target && target.closest && target.closest("input, select, textarea, button, [contenteditable]")) {
      return;
    }
    var link = document.querySelector('a[data-key="' + event.key + '"]');
    if (link) {
      event.preventDefault();
      window.location.assign(link.href);
    }
  });
})();
