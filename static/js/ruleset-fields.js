// The new-game form and the lab: each ruleset's own fields (marked data-ruleset) show only
// while that ruleset is chosen, so a Werewolf host never reads the Witchhunt pool. Without
// this script every field shows, each under its ruleset's name. No dependencies.
(function () {
  "use strict";
  var radios = document.querySelectorAll("input[type=radio][name=ruleset]");
  if (!radios.length) return;
  var form = radios[0].form || document;

  function show() {
    var chosen = form.querySelector("input[type=radio][name=ruleset]:checked");
    var parts = form.querySelectorAll("[data-ruleset]");
    for (var i = 0; i < parts.length; i++) {
      parts[i].hidden = !!chosen && parts[i].getAttribute("data-ruleset") !== chosen.value;
    }
  }
  form.addEventListener("change", function (event) {
    if (event.target && event.target.name === "ruleset") show();
  });
  show();
})();
