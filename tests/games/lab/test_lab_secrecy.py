"""The lab keeps a host's secret (issue 25): the address of an estimate of a member's own
setup is an opaque token (games/lab/services/ lab_address), shown to that member alone;
the setup's own key, the address anyone can compute, finds nothing (404, as an address
never used), records kept there before included; and another member asking for the same
setup gets a job of their own, so nothing they see depends on whether anyone else has
estimated it. Suggested setups, public anyway, keep their public addresses."""

import datetime as dt
import re

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.lab import jobs
from games.lab.services import lab_address, lab_run, lab_start
from games.lab.simulation.estimate import simulate
from games.lab.simulation.setups import Setup, find_suggested
from tests.broker import broker_queue
from tests.factories import UserFactory

# A hidden setup a host might check: ten seats, two Werewolves, the Seer and a Witch.
HIDDEN = Setup.from_game_fields(
    "werewolf",
    10,
    {
        "mode": "explicit",
        "cards": [{"role": "werewolf"}] * 2
        + [{"role": "seer"}, {"role": "witch"}]
        + [{"role": "villager"}] * 6,
        "shuffle": True,
    },
    {"reveal_on_death": False},
)
# The same setup as the lab's form posts it.
HIDDEN_FORM = {
    "ruleset": "werewolf",
    "seats_count": "10",
    "deal_mode": "explicit",
    "cards": "2 x werewolf\nseer\nwitch\n6 x villager",
    "shuffle": "on",
}


@pytest.fixture(autouse=True)
def _small_runs(settings):
    settings.LAB_FIRST_GAMES = 10
    settings.LAB_SIZE_GAMES = 2
    settings.LAB_GAMES = 20


@pytest.fixture
def lab_queue():
    with broker_queue("lab") as queue:
        yield queue


def _page(client, key):
    return client.get(reverse("lab_result", kwargs={"key": key}))


@pytest.mark.django_db
def test_a_members_own_setup_is_kept_at_an_address_only_they_are_given(
    client, member, settings, django_capture_on_commit_callbacks
):
    client.force_login(member)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("lab"), HIDDEN_FORM)
    address = lab_address(setup=HIDDEN, user=member)
    assert response["Location"] == reverse("lab_result", kwargs={"key": address})
    assert re.fullmatch(r"[0-9a-f]{32}", address) and address != HIDDEN.key()
    # The member's address is the same each time; another member's, another; and without
    # the site's secret (below) it cannot be made from the member and the setup.
    assert lab_address(setup=HIDDEN, user=member) == address
    other = UserFactory()
    assert lab_address(setup=HIDDEN, user=other) != address
    # A suggested setup, public anyway, keeps its own key: one answer for everyone.
    werewolf_8 = find_suggested("werewolf-8")
    assert lab_address(setup=werewolf_8, user=member) == werewolf_8.key()

    assert _page(client, address).status_code == 200
    assert _page(client, HIDDEN.key()).status_code == 404
    other_client = Client()
    other_client.force_login(other)
    for someone in (other_client, Client()):  # another member, a visitor
        assert _page(someone, address).status_code == 404
        assert _page(someone, HIDDEN.key()).status_code == 404
    settings.SECRET_KEY = "another-secret-" * 4  # (signs the member out: last)
    assert lab_address(setup=HIDDEN, user=member) != address


@pytest.mark.django_db
def test_an_address_a_setup_had_before_is_not_found_by_anyone(client, member, settings):
    """The lab used to keep every estimate at its setup's key: a record kept there by then
    (in the shape the lab wrote it) is found by no one, exactly as a key never used."""
    seed = settings.LAB_SEED
    estimate = simulate(HIDDEN, games=10, seed=seed)
    before = {
        "setup": HIDDEN.as_dict(),
        "seed": seed,
        "asked": 10,
        "state": jobs.DONE,
        "estimate": estimate.as_dict(),
        "sizes": [],
        "svg": "",
        "error": "",
        "updated": 0.0,
    }
    cache.set(jobs.record_key(HIDDEN.key(), seed), before)
    cache.set(jobs.progress_key(HIDDEN.key(), seed), 10)
    never = "0123456789abcdef" * 2
    client.force_login(member)
    for someone in (client, Client()):
        kept, unused = _page(someone, HIDDEN.key()), _page(someone, never)
        assert kept.status_code == unused.status_code == 404
        seen, never_seen = _normalised(kept), _normalised(unused)
        assert seen[:4] == never_seen[:4]  # status, Location, headers, cookies
        assert seen[4] == never_seen[4].replace(never, HIDDEN.key())
    # A job of that setup queued then (at its key) is not run: no one could see it.
    cache.set(jobs.record_key(HIDDEN.key(), seed), {**before, "state": jobs.QUEUED})
    assert lab_run(address=HIDDEN.key(), seed=seed) is None
    assert cache.get(jobs.record_key(HIDDEN.key(), seed))["state"] == jobs.QUEUED
    # A member asking for that setup now gets a job of their own, not the old answer.
    assert lab_start(setup=HIDDEN, user=member)
    assert (
        "Waiting for the lab’s worker"
        in _page(client, lab_address(setup=HIDDEN, user=member)).content.decode()
    )
    # A suggested setup's record from then is still everyone's.
    werewolf_8 = find_suggested("werewolf-8")
    cache.set(jobs.record_key(werewolf_8.key(), seed), {**before, "setup": werewolf_8.as_dict()})
    assert _page(Client(), werewolf_8.key()).status_code == 200


# --- non-interference ---------------------------------------------------------------------------
B_ASKS = dt.datetime(2026, 12, 2, 21, 0, tzinfo=dt.UTC)


def _normalised(response) -> tuple:
    """What member B sees of a response, without what differs between any two requests
    (the CSRF form token is masked afresh each time; the CSP nonce is new each time)."""
    body = response.content.decode()
    body = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "csrf", body)
    body = re.sub(r'nonce="[^"]+"', "nonce", body)
    headers = {k: re.sub(r"'nonce-[^']+'", "nonce", v) for k, v in response.headers.items()}
    # The cookies set (the CSRF cookie's value is random): their names and attributes.
    cookies = sorted(
        (name, sorted((k, v) for k, v in morsel.items() if v))
        for name, morsel in response.cookies.items()
    )
    return response.status_code, response.get("Location"), headers, cookies, body


def _what_b_sees(b, capture) -> list:
    """Member B's visit: the lab, the hidden setup typed in (twice), its page while it waits
    and once done, the setup's public address, and the suggested setups' list."""
    client = Client()
    client.force_login(b)
    seen = [_normalised(client.get(reverse("lab")))]
    with capture(execute=True):
        posted = client.post(reverse("lab"), HIDDEN_FORM)
    seen.append(_normalised(posted))
    seen.append(_normalised(client.get(posted["Location"])))
    with capture(execute=True):
        seen.append(_normalised(client.post(reverse("lab"), HIDDEN_FORM)))
    seen.append(_normalised(_page(client, HIDDEN.key())))
    lab_run(address=lab_address(setup=HIDDEN, user=b), seed=17)
    seen.append(_normalised(client.get(posted["Location"])))
    with capture(execute=True):
        seen.append(_normalised(client.post(reverse("lab"), HIDDEN_FORM)))
    seen.append(_normalised(client.get(reverse("lab"))))
    return seen


@pytest.mark.slow
@pytest.mark.django_db
def test_what_a_member_sees_of_a_setup_does_not_depend_on_another_having_estimated_it(
    member, lab_queue, settings, django_capture_on_commit_callbacks
):
    """Member B's responses for the hidden setup (status, Location, headers, body) are the
    same whether member A, its host, never estimated it, estimated it to the end, or has
    its estimate waiting; and B's job is queued alike."""
    settings.LAB_SEED = 17
    a, b = member, UserFactory()
    worlds = {}
    for world in ("A never asked", "A's estimate done", "A's estimate waiting"):
        cache.clear()
        while lab_queue.qsize():
            lab_queue.get(block=False).ack()
        if world != "A never asked":
            assert lab_start(setup=HIDDEN, user=a)
            if world == "A's estimate done":
                assert lab_run(address=lab_address(setup=HIDDEN, user=a), seed=17) == jobs.DONE
        with time_machine.travel(B_ASKS, tick=False):  # the same moment in every world
            seen = _what_b_sees(b, django_capture_on_commit_callbacks)
        queued = []
        while lab_queue.qsize():
            message = lab_queue.get(block=False)
            queued.append(tuple(message.payload[0]))
            message.ack()
        worlds[world] = (seen, queued)
    never, done, waiting = worlds.values()
    assert never[1] == [(lab_address(setup=HIDDEN, user=b), 17)]  # B's own job, queued once
    statuses = [s[0] for s in never[0]]
    assert statuses == [200, 302, 200, 302, 404, 200, 302, 200]
    assert "Done: the estimate is final." in never[0][5][-1]
    for other in (done, waiting):
        for mine, theirs in zip(never[0], other[0], strict=True):
            assert mine == theirs
        assert other[1] == never[1]
