"""Web push: a member's browsers told, in a word, that something of theirs waits on the site.

- Listens to MEMBER_TOLD (games/queue.py): the core announces it wherever it decides to
  tell one member something of their own (their cards when a game starts or they take a
  seat, a night's result, a deadline near while the game waits for them, a mention or a
  quote, a replacement offer). After the commit the `push` queue words one short
  notification in the member's language ("You have a new result in Game 12", and the page
  to open) and sends it to each browser they turned notifications on in, with VAPID
  (RFC 8292) and encrypted for that browser alone (RFC 8291, aes128gcm). No card, result
  or post text goes to the push service: the page shows it to the member signed in.
  A push service that says a subscription is gone (404, 410) removes it; other failures
  are tried again a few times, then the message is dropped.
- Listens to MEMBER_ERASED (their browsers forgotten) and MEMBER_EXPORT (their browsers
  listed, by label and date).
- Shows, on the profile page's "preferences" slot, "How we tell you": each kind of news
  with the email it comes by (set by the profile form's checkboxes above: the cards and
  replacement offers with the phase-change emails, results, reminders and mentions each
  by their own) and a push choice of its own, and the browsers notifications are on in,
  with the button that turns them on (static/js/push.js) or off.
- Serves the service worker at /sw.js (the site's whole scope; static/js/sw.js) and the web
  app's manifest at /manifest.webmanifest.

Its tables, PushSubscription and PushChoice, are in games/models.py. History: issue 30
("follow the game from anywhere"), with the core's MEMBER_TOLD it listens to.
"""
