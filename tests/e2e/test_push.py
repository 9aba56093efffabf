"""Web push in a real browser (issue 30): a member turns notifications on from the
profile's "How we tell you", the browser's subscription reaches the site, the site's
push for a new result is accepted and decrypted by a stand-in push service, and what it
decrypted, delivered to the service worker through the DevTools protocol, is shown as a
notification that names the kind of news and the game, and nothing more.

No real push service is reachable here, and Chromium's own subscribe() waits on one (and
refuses in an off-the-record context, as Playwright's are): the page's PushManager hands
out a subscription at the stand-in instead, with keys made as a browser makes them. Every
other part is the browser's own: the permission, the service worker and its scope, the
push event, the notification."""

import json
import time

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games.models import PushSubscription
from games.push import services as push
from tests.e2e.conftest import sign_in
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.games.conftest import CAST, make_game, users_for
from tests.games.push.pushservice import PushService, b64url

# The browser's side of a push service, for the page: subscribe() answers with the
# stand-in's subscription and remembers the key the site asked it to subscribe with.
STAND_IN_PUSH_MANAGER = """(() => {
  const given = %s;
  let current = null;
  const subscription = {
    endpoint: given.endpoint,
    toJSON: () => given,
    unsubscribe: async () => { current = null; return true; },
  };
  PushManager.prototype.subscribe = async function (options) {
    window.__pushKey = Array.from(new Uint8Array(options.applicationServerKey));
    window.__pushVisibleOnly = options.userVisibleOnly;
    current = subscription;
    return subscription;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
})();"""
ACTIVATED = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return registration.active && registration.active.state === "activated";
}"""
NOTIFICATIONS = """async () => {
  const registration = await navigator.serviceWorker.getRegistration("/");
  const shown = await registration.getNotifications();
  return shown.map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url}));
}"""


def _until(page, read, seconds=5.0):
    """What `read()` gives once it gives something (the browser reports as it goes; its
    events are taken while Playwright waits, not while Python sleeps)."""
    ends = time.monotonic() + seconds
    while not (found := read()) and time.monotonic() < ends:
        page.wait_for_timeout(50)
    return found


@pytest.mark.django_db(transaction=True)
def test_a_member_turns_notifications_on_and_the_service_worker_shows_one(
    browser, live_server, shot
):
    users = users_for(CAST)
    game = make_game(UserFactory(player_name="Host"), users, title="Browser village")
    ann = users["ann"]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["notifications"], origin=live_server.url)
    with PushService(settings.WEBPUSH_VAPID_PUBLIC_KEY) as service:
        context.add_init_script(STAND_IN_PUSH_MANAGER % json.dumps(service.subscription()))
        page = context.new_page()
        sign_in(page, live_server.url, ann.email, DEFAULT_PASSWORD)
        page.goto(f"{live_server.url}/accounts/profile/")

        panel = page.locator("section.push-prefs")
        expect(panel.get_by_role("heading", name="How we tell you")).to_be_visible()
        panel.get_by_role("button", name="Turn on notifications in this browser").click()
        status = panel.locator("[data-push-status]")
        expect(status).to_have_text("Notifications are on in this browser.")
        off = panel.get_by_role("button", name="Turn off notifications in this browser")
        expect(off).to_be_visible()
        shot(page, "push-preferences")
        # Subscribed with the site's key, for notifications the member sees.
        key = bytes(page.evaluate("window.__pushKey"))
        assert b64url(key) == settings.WEBPUSH_VAPID_PUBLIC_KEY
        assert page.evaluate("window.__pushVisibleOnly") is True

        # The subscription reached the site, for Ann; the site's push reaches the stand-in.
        [row] = PushSubscription.objects.all()
        assert row.user == ann and "Chrom" in row.label
        sent = push.member_told_push(user_id=ann.pk, game_id=game.pk, kind="result")
        assert sent.sent == 1 and service.refused == []
        [received] = service.received
        data = received.plaintext.decode()

        # What the stand-in decrypted, delivered to the service worker as a push, once it
        # is active (a push to a worker still installing is lost).
        assert _until(page, lambda: page.evaluate(ACTIVATED)), "the service worker never started"
        cdp = context.new_cdp_session(page)
        registrations = []
        cdp.on(
            "ServiceWorker.workerRegistrationUpdated",
            lambda event: registrations.extend(event["registrations"]),
        )
        versions = []
        cdp.on("ServiceWorker.workerVersionUpdated", lambda e: versions.extend(e["versions"]))
        errors = []
        cdp.on("ServiceWorker.workerErrorReported", lambda e: errors.append(e))
        cdp.send("ServiceWorker.enable")
        ours = _until(
            page, lambda: [r for r in registrations if r["scopeURL"] == f"{live_server.url}/"]
        )
        assert ours, registrations
        # DevTools now and then drops a delivery to a worker it has only just seen start;
        # a message sent again replaces the first (the same tag), so a few tries are safe.
        shown = []
        for _ in range(5):
            cdp.send(
                "ServiceWorker.deliverPushMessage",
                {"origin": live_server.url, "registrationId": ours[0]["registrationId"],
                 "data": data},
            )  # fmt: skip
            shown = _until(page, lambda: page.evaluate(NOTIFICATIONS), seconds=2)
            if shown:
                break
        assert shown, (registrations, versions, errors)
        [shown] = shown
        assert shown == {
            "title": "Witchhunt",
            "body": "You have a new result in Browser village.",
            "tag": f"result-{game.pk}",
            "url": f"{live_server.url}/games/{game.pk}/role/",
        }

        # Turned off again: the browser unsubscribes and the site forgets it.
        off.click()
        expect(status).to_have_text("Notifications are off in this browser.")
        assert not PushSubscription.objects.exists()
