// The site's service worker (served at /sw.js by games/push/views.py, scope "/"): it shows
// the notifications web push brings and opens their page when one is clicked. A message
// holds only {title, body, url, tag}: what kind of news waits in which game, never the
// news itself (games/push/services.py).
"use strict";

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

function sameSite(url) {
  // Only a page of this site is opened, whatever a message says.
  try {
    var target = new URL(url, self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + "/";
  } catch (e) {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", function (event) {
  var message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (e) {
    message = {};
  }
  var title = typeof message.title === "string" ? message.title : "Witchhunt";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === "string" ? message.body : "",
      tag: typeof message.tag === "string" ? message.tag : undefined,
      icon: "/static/favicon.svg",
      data: { url: sameSite(message.url || "/") },
    })
  );
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || self.location.origin + "/";
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url === url && "focus" in windows[i]) return windows[i].focus();
      }
      return self.clients.openWindow(url);
    })
  );
});
