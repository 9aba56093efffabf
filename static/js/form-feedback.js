// After a refused form, or a redirect that left a message, moves the keyboard's focus to
// what the page says, so that a screen reader reads it at once (a live region already in the
// page when it loads is not announced) and the keyboard starts from there:
//   1. the first problem, in page order: a field in error (its label and error are read with
//      it), the form's own errors, the new-game summary, or an error message;
//   2. else the messages (templates/base.html).
// A loaded script, not an inline one: the site's Content-Security-Policy allows no inline code.
(function () {
  "use strict";
  var PROBLEMS = '[aria-invalid="true"], .errorlist.nonfield, .problems, .message--error';

  function focusOn(el) {
    if (!el.matches("input, select, textarea, button, a[href]")) el.tabIndex = -1;
    // A link to a post (#p12) keeps the post in view; focus still reads the message.
    el.focus({ preventScroll: Boolean(window.location.hash) });
  }

  function run() {
    var main = document.getElementById("main");
    if (!main) return;
    var target = main.querySelector(PROBLEMS) || main.querySelector(".messages");
    if (target) focusOn(target);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
  else run();
})();
