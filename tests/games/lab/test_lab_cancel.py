"""Cancelling an estimate from its page (games/lab/views.py lab_cancel_page,
services/cancel.py): its owner, or staff, and nobody else; the page then says so in
words, and the job is not played. tests/games/lab/test_lab_chunks.py shows a cancel
revoking a running job's chunks on a real worker."""

import re

import pytest
from django.urls import reverse

from games.lab import jobs
from games.lab.services import lab_address, lab_run, lab_start
from games.lab.simulation.setups import Setup, find_suggested
from tests.factories import UserFactory

WITCHHUNT_8 = find_suggested("witchhunt-8")
# A member's own setup: the suggested 8 with one more Basic Villager's worth of seats.
OWN = Setup("werewolf", 9, find_suggested("werewolf-8").deal, {})


def _unmasked(response):
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode())


def _page(client, address):
    return client.get(reverse("lab_result", kwargs={"key": address}))


def _cancel(client, address):
    return client.post(reverse("lab_cancel", kwargs={"key": address}))


@pytest.mark.django_db
def test_a_member_cancels_their_own_estimate_and_its_page_says_so(client, member, settings):
    lab_start(setup=OWN, user=member)
    address = lab_address(setup=OWN, user=member)
    client.force_login(member)
    page = _page(client, address).content.decode()
    assert "Cancel this estimate" in page
    response = _cancel(client, address)
    assert response.status_code == 302 and response["Location"].endswith(f"/lab/{address}/")
    page = _page(client, address).content.decode()
    assert "Cancelled: the lab stopped playing this estimate." in page
    assert "The estimate was cancelled before its first games were in." in page
    assert "Cancel this estimate" not in page and "data-lab-poll" not in page
    # Its task, when it comes, finds nothing queued and plays nothing.
    assert lab_run(address=address, seed=settings.LAB_SEED) is None
    # Started again, it is a new job (a cancelled one does not count as at work).
    assert client.post(reverse("lab_result", kwargs={"key": address})).status_code == 302
    assert "Waiting for the lab’s worker" in _page(client, address).content.decode()


@pytest.mark.django_db
def test_only_the_owner_or_staff_may_cancel(client, member, settings):
    lab_start(setup=OWN, user=member)
    mine = lab_address(setup=OWN, user=member)
    starter = UserFactory()
    lab_start(setup=WITCHHUNT_8, user=starter)  # a suggested setup's: everyone's answer
    public = WITCHHUNT_8.key()

    other = UserFactory()
    client.force_login(other)
    # Not theirs to see: the same answer as an address never used, byte for byte.
    theirs, unused = _cancel(client, mine), _cancel(client, "0" * 32)
    assert theirs.status_code == unused.status_code == 404
    assert _unmasked(theirs) == _unmasked(unused)  # CSRF tokens are masked afresh each time
    assert "Cancel this estimate" not in _page(client, public).content.decode()
    assert _cancel(client, public).status_code == 403
    client.logout()
    assert _cancel(client, public).status_code == 302  # to sign in
    for address in (mine, public):  # nothing changed
        assert "Waiting for the lab’s worker" in _page_as(member, address)
    client.force_login(starter)  # starting a suggested setup's estimate does not make it one's own
    assert _cancel(client, public).status_code == 403

    client.force_login(UserFactory(is_staff=True))
    assert "Cancel this estimate" in _page(client, public).content.decode()
    assert _cancel(client, public).status_code == 302
    assert "Cancelled: the lab stopped" in _page(client, public).content.decode()
    assert lab_run(address=public, seed=settings.LAB_SEED) is None


def _page_as(user, address):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return _page(client, address).content.decode()


@pytest.mark.django_db
def test_a_job_cancelled_while_it_plays_stops_after_the_round_and_keeps_its_numbers(
    member, settings
):
    """In one process: the cancel comes between two rounds (here, from the first round's
    publishing), and the job stops there with what it had."""
    from django.core.cache import cache

    from games.lab.services import lab_cancel
    from games.lab.services import run as running

    settings.LAB_FIRST_SECONDS = 0
    settings.LAB_FIRST_GAMES, settings.LAB_SIZE_GAMES, settings.LAB_GAMES = 40, 10, 400
    lab_start(setup=OWN, user=member)
    address = lab_address(setup=OWN, user=member)
    publish = running._Run.publish_round

    def publish_then_cancel(run):
        publish(run)
        lab_cancel(address=address, user=member)

    running._Run.publish_round = publish_then_cancel
    try:
        assert lab_run(address=address, seed=settings.LAB_SEED) == jobs.CANCELLED
    finally:
        running._Run.publish_round = publish
    record = cache.get(jobs.record_key(address, settings.LAB_SEED))
    assert record["state"] == jobs.CANCELLED
    assert 0 < record["estimate"]["games"] < 40
    assert cache.get(running.rounds_key(address, settings.LAB_SEED))["round"] == 1
