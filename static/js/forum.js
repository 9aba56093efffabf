// The post box's forum habits (issue 31), on the game page. Without JavaScript each
// post's Quote link still quotes it alone, and names are typed whole.
// - Multi-quote: a "Select" toggle beside each Quote link marks posts; one button in the
//   post box then puts all their quotes in it (games/views/play.py game_quotes: the same
//   Markdown the Quote link writes).
// - @-name completion: typing "@" and a few letters offers the game's players' names as
//   the page's player list shows them (never anything the list does not show).
// No inline script (the site's CSP), no dependencies.
(function () {
  "use strict";
  function gettext(text) {
    return window.gettext ? window.gettext(text) : text;
  }
  function interpolate(format, values) {
    return window.interpolate
      ? window.interpolate(format, values, true)
      : format.replace(/%\((\w+)\)s/g, function (_, name) { return String(values[name]); });
  }

  var form = document.getElementById("post-form");
  var box = form && form.querySelector("textarea");
  if (!form || !box) return;

  function insert(text) {
    var start = box.selectionStart, end = box.selectionEnd;
    box.value = box.value.slice(0, start) + text + box.value.slice(end);
    box.selectionStart = box.selectionEnd = start + text.length;
    box.focus();
  }

  // --- multi-quote -----------------------------------------------------------------------
  var chosen = [];
  var quoteAll = null;
  var url = form.dataset.quotesUrl;

  function refresh() {
    if (!quoteAll) {
      quoteAll = document.createElement("button");
      quoteAll.type = "button";
      quoteAll.className = "button multi-quote";
      quoteAll.addEventListener("click", quoteChosen);
      form.querySelector("button[type=submit]").before(quoteAll);
    }
    quoteAll.hidden = chosen.length === 0;
    quoteAll.textContent = interpolate(gettext("Quote all selected (%(count)s)"), { count: chosen.length });
  }

  function quoteChosen() {
    if (!chosen.length || !window.fetch) return;
    var query = chosen.map(function (n) { return "n=" + encodeURIComponent(n); }).join("&");
    fetch(url + "?" + query, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r); })
      .then(function (data) {
        insert(data.text);
        document.querySelectorAll("[data-quote-toggle][aria-pressed=true]").forEach(function (b) {
          b.setAttribute("aria-pressed", "false");
        });
        chosen = [];
        refresh();
      });
  }

  if (url) {
    document.querySelectorAll('.post__actions a[href*="quote="]').forEach(function (link) {
      var number = new URLSearchParams(link.search).get("quote");
      var toggle = document.createElement("button");
      toggle.type = "button";
      toggle.className = "quote-toggle";
      toggle.dataset.quoteToggle = number;
      toggle.setAttribute("aria-pressed", "false");
      // The visible words begin the name (WCAG 2.5.3); the number tells the toggles apart.
      var which = document.createElement("span");
      which.className = "visually-hidden";
      which.textContent = " " + interpolate(gettext("#%(number)s"), { number: number });
      toggle.append(gettext("Select to quote"), which);
      toggle.addEventListener("click", function () {
        var on = toggle.getAttribute("aria-pressed") !== "true";
        toggle.setAttribute("aria-pressed", on ? "true" : "false");
        chosen = chosen.filter(function (n) { return n !== number; });
        if (on) chosen.push(number);
        refresh();
      });
      link.after(" ", toggle);
    });
  }

  // --- @-name completion -------------------------------------------------------------------
  var names = Array.from(document.querySelectorAll(".players .player > span:first-child"))
    .map(function (span) { return span.textContent.trim(); })
    .filter(function (name) { return name; });
  if (!names.length) return;
  var list = document.createElement("ul");
  list.id = "mention-names";
  list.className = "mention-list";
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", gettext("Players"));
  list.hidden = true;
  box.after(list);
  box.setAttribute("aria-autocomplete", "list");
  box.setAttribute("aria-controls", list.id);
  var active = -1;

  function typed() {
    var before = box.value.slice(0, box.selectionStart);
    var match = /(^|[^A-Za-z0-9_@])@([A-Za-z0-9_]*)$/.exec(before);
    return match ? match[2] : null;
  }

  function close() {
    list.hidden = true;
    active = -1;
    box.removeAttribute("aria-activedescendant");
  }

  function mark(index) {
    var items = list.children;
    if (!items.length) return;
    active = (index + items.length) % items.length;
    Array.from(items).forEach(function (li, i) { li.setAttribute("aria-selected", i === active ? "true" : "false"); });
    box.setAttribute("aria-activedescendant", items[active].id);
  }

  function choose(name) {
    var part = typed();
    if (part === null) return close();
    box.selectionStart -= part.length;
    insert(name + " ");
    close();
  }

  function show() {
    var part = typed();
    if (part === null) return close();
    var low = part.toLowerCase();
    var found = names.filter(function (n) { return n.toLowerCase().startsWith(low); }).slice(0, 8);
    if (!found.length) return close();
    list.replaceChildren.apply(list, found.map(function (name, i) {
      var li = document.createElement("li");
      li.id = "mention-name-" + i;
      li.setAttribute("role", "option");
      li.textContent = name;
      li.addEventListener("mousedown", function (e) { e.preventDefault(); choose(name); });
      return li;
    }));
    list.hidden = false;
    mark(0);
  }

  box.addEventListener("input", show);
  box.addEventListener("blur", close);
  box.addEventListener("keydown", function (e) {
    if (list.hidden) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      mark(active + (e.key === "ArrowDown" ? 1 : -1));
    } else if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      choose(list.children[active].textContent);
    } else if (e.key === "Escape") {
      close();
    }
  });
})();
