// Web push on the profile's "How we tell you" (games/push): a button press asks the
// browser's permission, registers the service worker (/sw.js, the whole site's scope),
// subscribes with the site's VAPID key and posts the subscription, with the form's CSRF
// token; the other button unsubscribes and tells the site. Without the browser's support
// the buttons stay hidden and the page says so.
(function () {
  "use strict";
  var box = document.querySelector("[data-push]");
  if (!box) return;
  var on = box.querySelector("[data-push-on]");
  var off = box.querySelector("[data-push-off]");
  var status = box.querySelector("[data-push-status]");

  function gettext(text) {
    return window.gettext ? window.gettext(text) : text;
  }
  function say(text) {
    status.textContent = text;
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.fetch) {
    say(gettext("This browser cannot show notifications from the site."));
    return;
  }

  function csrfToken() {
    var field = document.querySelector(".push-prefs input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }
  // The key as the browser takes it: bytes from base64url.
  function keyBytes(text) {
    var padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
    var raw = window.atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }
  function post(url, data) {
    return window
      .fetch(url, {
        method: "POST",
        body: JSON.stringify(data),
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      })
      .then(function (response) {
        return response.json().then(function (answer) {
          if (!response.ok) throw new Error(answer.error || response.statusText);
          return answer;
        });
      });
  }
  function show(subscribed) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
  }
  function registration() {
    return navigator.serviceWorker.register(box.dataset.workerUrl, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    });
  }

  navigator.serviceWorker.getRegistration("/").then(function (found) {
    if (!found) return show(false);
    return found.pushManager.getSubscription().then(function (subscription) {
      show(Boolean(subscription) && Notification.permission === "granted");
    });
  });

  on.addEventListener("click", function () {
    on.disabled = true;
    Notification.requestPermission()
      .then(function (permission) {
        if (permission !== "granted") {
          throw new Error(gettext("Notifications are blocked for this site in your browser's settings."));
        }
        return registration();
      })
      .then(function (ready) {
        return ready.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(box.dataset.key),
        });
      })
      .then(function (subscription) {
        return post(box.dataset.subscribeUrl, subscription.toJSON());
      })
      .then(function (answer) {
        show(true);
        say(answer.message);
        box.setAttribute("data-push-state", "on");
      })
      .catch(function (error) {
        say(error.message || gettext("Notifications could not be turned on."));
      })
      .then(function () {
        on.disabled = false;
      });
  });

  off.addEventListener("click", function () {
    off.disabled = true;
    navigator.serviceWorker
      .getRegistration("/")
      .then(function (found) {
        return found ? found.pushManager.getSubscription() : null;
      })
      .then(function (subscription) {
        if (!subscription) return { message: gettext("Notifications are off in this browser.") };
        var endpoint = subscription.endpoint;
        return subscription.unsubscribe().then(function () {
          return post(box.dataset.unsubscribeUrl, { endpoint: endpoint });
        });
      })
      .then(function (answer) {
        show(false);
        say(answer.message);
        box.setAttribute("data-push-state", "off");
      })
      .catch(function (error) {
        say(error.message);
      })
      .then(function () {
        off.disabled = false;
      });
  });
})();
