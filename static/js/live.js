// Keeps an open game page current (games/views/live.py): every few seconds it asks
// whether anything changed, sending the version the page has (If-None-Match). Unchanged
// is a 304 costing one query; changed is the page's own partials: new posts appended, with
// the vote markers between them, on the thread's last page (elsewhere a "N new posts —
// show" link), the vote count and the deadline swapped in, a post the moderator hid shown
// as hidden, the read bar's count of new posts kept true, the phase and the post form
// brought up to date beside the reload link when the game moves on, and a short summary
// in the polite status region. Without JavaScript the page is as it was rendered. No
// dependencies.
(function () {
  "use strict";
  // Django's JavaScript catalog (/jsi18n/) words these in the page's language; without it
  // the English stands. Looked up at each call, so the order the scripts load in does not
  // matter.
  function gettext(text) {
    return window.gettext ? window.gettext(text) : text;
  }
  function ngettext(singular, plural, count) {
    if (window.ngettext) return window.ngettext(singular, plural, count);
    return count === 1 ? singular : plural;
  }
  function interpolate(format, values) {
    return window.interpolate
      ? window.interpolate(format, values, true)
      : format.replace(/%\((\w+)\)s/g, function (_, name) { return String(values[name]); });
  }

  function postsWords(count) {
    return interpolate(ngettext("%(count)s new post.", "%(count)s new posts.", count), { count: count });
  }

  var thread = document.querySelector("[data-live-url]");
  if (!thread || !window.fetch || !window.DOMParser) return;
  var data = thread.dataset;
  var seconds = Number(data.liveInterval) > 0 ? Number(data.liveInterval) : 20;
  var version = '"' + data.liveVersion + '"';
  var after = data.liveAfter || ""; // "" on a filtered page: the first poll tells it
  var append = data.liveMode === "append";
  var phase = data.livePhase;
  var status = document.getElementById("live-status");

  function region(name) {
    return document.querySelector('[data-live-region="' + name + '"]');
  }

  function part(doc, name) {
    return doc.querySelector('[data-live-part="' + name + '"]');
  }

  // A part replaces the page's unless the reader is using it (focus inside): then it
  // waits, and the version is kept so that the next poll brings it again.
  function swap(target, source) {
    if (!target || !source) return true;
    if (target.contains(document.activeElement) && document.activeElement !== document.body) {
      return false;
    }
    target.replaceWith(source);
    return true;
  }

  // The deadline as the server set it (the countdown's words change by the minute).
  function when(el) {
    var time = el.querySelector("time");
    return (time ? time.getAttribute("datetime") : "") + (el.querySelector(".deadline--paused") ? " paused" : "");
  }

  function appendPosts(doc) {
    var list = thread.querySelector("ol.posts");
    var posts = part(doc, "posts");
    if (!list || !posts) return 0;
    var added = 0;
    // Posts and the vote markers between them, each once (every line has an id); only the
    // posts are counted.
    posts.querySelectorAll("ol.posts > li").forEach(function (li) {
      if (!document.getElementById(li.id)) {
        list.appendChild(document.importNode(li, true));
        if (li.classList.contains("post")) added += 1;
      }
    });
    return added;
  }

  // A post the moderator hid since the page was made: its text gives way to the reason,
  // and its Quote link goes (the thread's own markup for a hidden post).
  function hidePosts(doc) {
    var hidden = part(doc, "hidden");
    var count = 0;
    if (!hidden) return 0;
    hidden.querySelectorAll("[data-hidden-post]").forEach(function (words) {
      var li = document.getElementById("p" + words.dataset.hiddenPost);
      var body = li && li.querySelector(".post__body");
      if (!body) return;
      var said = document.createElement("p");
      said.className = "post__hidden";
      said.textContent = words.textContent;
      body.replaceWith(said);
      li.querySelectorAll('a[href*="quote="]').forEach(function (a) { a.remove(); });
      count += 1;
    });
    return count;
  }

  // A post its author edited since the page was made (issue 31): its new text in place.
  function editPosts(doc) {
    var edited = part(doc, "edited");
    var count = 0;
    if (!edited) return 0;
    edited.querySelectorAll("[data-edited-post]").forEach(function (text) {
      var li = document.getElementById("p" + text.dataset.editedPost);
      var body = li && li.querySelector(".post__body");
      if (!body || body.innerHTML === text.innerHTML) return;
      body.replaceChildren.apply(body, Array.from(text.childNodes).map(function (n) {
        return document.importNode(n, true);
      }));
      count += 1;
    });
    return count;
  }

  // The phase moved on: the header's phase and the post form (or the words saying why
  // there is none) as the page would show them now, beside the reload link. A post being
  // written is left alone: it keeps its text, and a refusal would say why.
  function movedOn(doc) {
    var pill = region("phase");
    var newPill = part(doc, "phase");
    if (pill) {
      pill.replaceChildren.apply(pill, newPill ? Array.from(newPill.childNodes).map(function (n) {
        return document.importNode(n, true);
      }) : []);
    }
    var box = region("post-form");
    var newBox = part(doc, "post-form");
    var text = box && box.querySelector("textarea");
    if (box && newBox && !(text && text.value.trim()) && !box.contains(document.activeElement)) {
      box.replaceChildren.apply(box, Array.from(newBox.childNodes).map(function (n) {
        return document.importNode(n, true);
      }));
    }
  }

  // The read bar counted the new posts when the page was made; those appended since are
  // new too, below it.
  var appended = 0;
  function recount(added) {
    var bar = document.querySelector(".read-bar__state");
    if (!bar || !added) return;
    var badge = bar.querySelector(".badge--new");
    if (badge) {
      badge.textContent = badge.textContent.replace(/\d+/, function (n) {
        return String(Number(n) + added);
      });
    } else {
      appended += added;
      bar.textContent = postsWords(appended);
    }
  }

  function apply(html, tag) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var root = doc.querySelector("[data-live-version]");
    if (!root) return;
    var said = [];
    var done = true;
    var added = append ? appendPosts(doc) : 0;
    if (added) said.push(postsWords(added));
    recount(added);
    if (hidePosts(doc)) said.push(gettext("The moderator hid a post."));
    if (editPosts(doc)) said.push(gettext("A post was edited."));
    // Appended posts are seen; announced ones are counted from the page's own last post.
    if (added || after === "") after = root.dataset.liveLast;
    var notice = region("notice");
    var link = part(doc, "notice");
    if (notice && !added && link) {
      notice.replaceChildren(document.importNode(link, true));
      // "3 new posts — show" is said as "3 new posts.", in the page's language.
      var waiting = parseInt(link.textContent, 10);
      if (waiting > 0) said.push(postsWords(waiting));
    } else if (notice && added) {
      notice.replaceChildren();
    }
    var deadline = region("deadline");
    var newDeadline = part(doc, "deadline");
    if (deadline && newDeadline && when(deadline) !== when(newDeadline)) {
      deadline.replaceChildren.apply(deadline, Array.from(newDeadline.childNodes).map(function (n) {
        return document.importNode(n, true);
      }));
      said.push(gettext("The deadline changed."));
    }
    var votes = part(doc, "votes");
    var panel = document.querySelector(".panel--votes");
    if (votes && panel) {
      var fresh = votes.querySelector(".panel--votes");
      var oldCount = panel.querySelector(".vote-count, .muted");
      var newCount = fresh && fresh.querySelector(".vote-count, .muted");
      var changed = !oldCount || !newCount || oldCount.textContent !== newCount.textContent;
      if (fresh && changed) {
        if (swap(panel, document.importNode(fresh, true))) said.push(gettext("The vote count changed."));
        else done = false;
      }
    }
    if (root.dataset.livePhase !== phase) {
      phase = root.dataset.livePhase;
      movedOn(doc);
      var reload = document.createElement("p");
      reload.className = "live-notice";
      var a = document.createElement("a");
      a.href = window.location.pathname;
      a.textContent = gettext("The game has moved on: reload the page");
      reload.appendChild(a);
      if (notice) notice.appendChild(reload);
      said.push(a.textContent + ".");
    }
    if (done && tag) version = tag;
    if (said.length && status) status.textContent = said.join(" ");
  }

  function poll() {
    if (document.hidden) return schedule();
    var url = data.liveUrl + "?mode=" + (append ? "append" : "notice");
    if (after !== "") url += "&after=" + encodeURIComponent(after);
    fetch(url, { headers: { "If-None-Match": version }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status !== 200) return null;
        var tag = response.headers.get("ETag");
        return response.text().then(function (html) { apply(html, tag); });
      })
      .catch(function () { /* offline for now: the next poll tries again */ })
      .then(schedule);
  }

  function schedule() {
    window.setTimeout(poll, seconds * 1000);
  }

  schedule();
})();
