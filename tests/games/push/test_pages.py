"""Web push's pages: a browser's subscription kept for the member signed in (and refused,
changing nothing, when it is not one we can send to), the profile's "How we tell you",
the service worker at the root with its scope header, the manifest; a member leaving takes
their browsers with them."""

import json

import pytest
from django.contrib.staticfiles import finders
from django.test import override_settings
from django.urls import reverse

from games.leaving.services import member_erase, member_export
from games.models import PushChoice, PushSubscription
from tests.factories import UserFactory

from .pushservice import BrowserKeys

pytestmark = pytest.mark.django_db

CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36"


def _subscription(endpoint="https://push.example.com/send/abc123"):
    keys = BrowserKeys()
    return {"endpoint": endpoint, "keys": {"p256dh": keys.p256dh, "auth": keys.auth_b64}}


def _post(client, name, data):
    return client.post(
        reverse(name), json.dumps(data), content_type="application/json", HTTP_USER_AGENT=CHROME
    )


@pytest.fixture
def member(client):
    user = UserFactory(player_name="Ann")
    client.force_login(user)
    return user


@override_settings(WEBPUSH_ALLOW_PRIVATE_ENDPOINTS=False)
def test_a_browsers_subscription_is_kept_for_the_member(client, member, monkeypatch):
    monkeypatch.setattr("games.push.services.is_public_address", lambda host: True)
    sub = _subscription()
    response = _post(client, "push_subscribe", sub)
    assert response.status_code == 200, response.content
    row = PushSubscription.objects.get()
    assert (row.user, row.endpoint, row.p256dh, row.auth) == (
        member, sub["endpoint"], sub["keys"]["p256dh"], sub["keys"]["auth"]
    )  # fmt: skip
    assert row.label == "Chrome (Linux)"
    # The same browser again: one row still.
    assert _post(client, "push_subscribe", sub).status_code == 200
    assert PushSubscription.objects.count() == 1
    # Turned off in the browser: forgotten.
    assert _post(client, "push_unsubscribe", {"endpoint": sub["endpoint"]}).status_code == 200
    assert not PushSubscription.objects.exists()


@override_settings(WEBPUSH_ALLOW_PRIVATE_ENDPOINTS=False)
@pytest.mark.parametrize(
    ("endpoint", "words"),
    [
        ("http://push.example.com/send/1", "must be https"),
        ("https://127.0.0.1/send/1", "cannot reach"),
        ("https://10.1.2.3/send/1", "cannot reach"),
        ("https://169.254.169.254/latest/meta-data", "cannot reach"),
        ("https://[::1]/send/1", "cannot reach"),
        ("https://localhost/send/1", "cannot reach"),
    ],
)
def test_a_subscription_to_an_address_inside_the_network_is_refused(
    client, member, endpoint, words
):
    response = _post(client, "push_subscribe", _subscription(endpoint))
    assert response.status_code == 400 and words in response.json()["error"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "broken",
    [
        lambda s: {**s, "keys": {"p256dh": "AAAA", "auth": s["keys"]["auth"]}},
        lambda s: {**s, "keys": {"p256dh": s["keys"]["p256dh"], "auth": "short"}},
        lambda s: {**s, "keys": "nope"},
        lambda s: {**s, "endpoint": 12},
        lambda s: [s],
    ],
)
def test_a_subscription_we_cannot_use_is_refused_in_words_and_changes_nothing(
    client, member, broken
):
    response = _post(client, "push_subscribe", broken(_subscription("https://127.0.0.1/x")))
    assert response.status_code == 400 and "browser" in response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_a_visitor_cannot_subscribe(client):
    response = _post(client, "push_subscribe", _subscription())
    assert response.status_code == 302 and not PushSubscription.objects.exists()


def test_the_profile_says_how_we_tell_you_and_saves_the_push_choices(client, member):
    page = client.get(reverse("profile")).content.decode()
    assert "How we tell you" in page and 'data-key="B' in page
    assert page.count('name="push"') == 5 and page.count("checked") >= 5
    response = client.post(reverse("push_choices"), {"push": ["mention", "reminder"]})
    assert response.status_code == 302 and response.url == reverse("profile")
    assert dict(PushChoice.objects.values_list("kind", "push")) == {
        "role": False, "result": False, "reminder": True, "mention": True, "replacement": False,
    }  # fmt: skip
    page = client.get(reverse("profile")).content.decode()
    assert 'value="mention" checked' in page and 'value="role">' in page
    # A kind we do not offer is refused, and changes nothing.
    client.post(reverse("push_choices"), {"push": ["everything"]})
    assert PushChoice.objects.filter(push=True).count() == 2


def test_another_members_browser_cannot_be_turned_off(client, member):
    other = PushSubscription.objects.create(
        user=UserFactory(player_name="Bob"), endpoint="https://push.example.com/b", p256dh="x",
        auth="y",
    )  # fmt: skip
    response = client.post(reverse("push_forget", args=[other.pk]))
    assert response.status_code == 404 and PushSubscription.objects.filter(pk=other.pk).exists()
    mine = PushSubscription.objects.create(
        user=member, endpoint="https://push.example.com/a", p256dh="x", auth="y"
    )
    assert client.post(reverse("push_forget", args=[mine.pk])).status_code == 302
    assert not PushSubscription.objects.filter(pk=mine.pk).exists()


def test_the_service_worker_is_served_for_the_whole_site(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert "showNotification" in body and "notificationclick" in body


def test_the_manifest_makes_an_installable_web_app(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200 and response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    for member in ("name", "short_name", "start_url", "display", "icons", "theme_color",
                   "background_color", "scope"):  # fmt: skip
        assert manifest[member], member
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/games/"
    for icon in manifest["icons"]:  # each a file of the site's static ones
        assert icon["sizes"] and icon["src"].startswith("/static/")
        assert finders.find(icon["src"].removeprefix("/static/")), icon
    # Every page names it.
    assert 'rel="manifest" href="/manifest.webmanifest"' in client.get("/").content.decode()


def test_a_member_leaving_takes_their_browsers_with_them(member):
    PushSubscription.objects.create(
        user=member, endpoint="https://push.example.com/a", p256dh="x", auth="y", label="Firefox"
    )
    PushChoice.objects.create(user=member, kind="mention", push=False)
    exported = member_export(user=member)
    assert exported["push"]["browsers"][0]["label"] == "Firefox"
    assert "https://push.example.com/a" not in json.dumps(exported, default=str)
    member_erase(user=member, by=member)
    assert not PushSubscription.objects.exists() and not PushChoice.objects.exists()
