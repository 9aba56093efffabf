"""The lab is fair to share (issue 25; games/lab/services/, docs/lab.md "Sharing the
lab"): a member has one estimate at work at a time; new ones are refused while
LAB_QUEUE_MAX are at work site-wide; a member's estimates of the last LAB_WINDOW_SECONDS
(a sliding window, not hourly buckets) may cost LAB_UNITS_PER_WINDOW units, one for every
LAB_SEATS_PER_UNIT seats. Answers kept cost nothing; staff and `lab_fill` are not limited.
Refusals are in the member's words on the page, what they typed kept. The limits hold when
starts race, on every cache the site runs on (its own process's, the file cache, Redis)."""

import datetime as dt
import os
import re
import threading
from html import unescape as html_unescape
from io import StringIO

import pytest
import time_machine
from django.core.cache import caches
from django.core.management import call_command
from django.urls import reverse

from games.lab import jobs
from games.lab.services import LabRefused, lab_address, lab_cost, lab_run, lab_start
from games.lab.simulation.setups import Setup, find_suggested
from tests.broker import broker_queue
from tests.factories import UserFactory

WITCHHUNT_8 = find_suggested("witchhunt-8")
WEREWOLF_8 = find_suggested("werewolf-8")
REDIS_URL = os.environ.get("REDIS_URL")


@pytest.fixture(autouse=True)
def _tiny_runs(settings):
    """Jobs of a few games, so that a test can finish one (even of 48 seats) in a moment."""
    settings.LAB_FIRST_GAMES = 2
    settings.LAB_SIZE_GAMES = 1
    settings.LAB_GAMES = 2


@pytest.fixture
def lab_queue():
    with broker_queue("lab") as queue:
        yield queue


def _queued(queue):
    out = []
    while queue.qsize():
        message = queue.get(block=False)
        out.append(tuple(message.payload[0]))
        message.ack()
    return out


def _post(client, data, capture, path=None):
    with capture(execute=True):
        return client.post(path or reverse("lab"), data)


def _refusal(response) -> str:
    """The refusal's words on the page, its link's address in brackets."""
    html = response.content.decode()
    found = re.search(r'<div class="problems lab-refusal" role="alert">\s*<p>(.*?)</p>', html, re.S)
    assert found, "no refusal on the page"
    text = re.sub(r'<a href="([^"]+)">([^<]+)</a>', r"\2 [\1]", " ".join(found.group(1).split()))
    return html_unescape(text)


def _finish(address):
    assert lab_run(address=address, seed=17) == jobs.DONE


def _werewolf(seats: int) -> Setup:
    """A member's own setup: an unshuffled list, one Werewolf and Villagers."""
    cards = [{"role": "werewolf"}] + [{"role": "villager"}] * (seats - 1)
    return Setup.from_game_fields(
        "werewolf", seats, {"mode": "explicit", "cards": cards, "shuffle": False}, {}
    )


# --- one job at work per member -------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.django_db
def test_a_member_has_one_estimate_at_work_at_a_time(
    client, member, lab_queue, django_capture_on_commit_callbacks, settings
):
    settings.LAB_SEED = 17
    client.force_login(member)
    first = _post(client, {"suggested": "witchhunt-8"}, django_capture_on_commit_callbacks)
    assert first.status_code == 302
    href = reverse("lab_result", kwargs={"key": WITCHHUNT_8.key()})

    second = _post(client, {"suggested": "werewolf-8"}, django_capture_on_commit_callbacks)
    assert second.status_code == 200
    assert _refusal(second) == (
        "Your estimate of Witchhunt 8 (suggested) is still running. The lab runs one "
        "estimate for each member at a time: start this one when it is done. "
        f"See how far it has got [{href}]."
    )
    # A setup typed into the form is refused on that form, as it was typed.
    typed = {
        "ruleset": "werewolf",
        "seats_count": "7",
        "deal_mode": "explicit",
        "cards": "2 x werewolf\nseer\n4 x villager",
    }
    third = _post(client, typed, django_capture_on_commit_callbacks)
    html = third.content.decode()
    assert "is still running" in _refusal(third)
    own = html[html.index('id="lab-own"') :]
    assert 'class="problems lab-refusal"' in own  # on the form that was posted
    assert re.search(r'name="seats_count" value="7"', own)
    assert "2 x werewolf\nseer\n4 x villager</textarea>" in own
    assert _queued(lab_queue) == [(WITCHHUNT_8.key(), 17)]

    # Asking again for the one at work is no new job: its page.
    again = _post(client, {"suggested": "witchhunt-8"}, django_capture_on_commit_callbacks)
    assert again["Location"] == href
    _finish(WITCHHUNT_8.key())
    after = _post(client, {"suggested": "werewolf-8"}, django_capture_on_commit_callbacks)
    assert after["Location"] == reverse("lab_result", kwargs={"key": WEREWOLF_8.key()})
    assert _queued(lab_queue) == [(WEREWOLF_8.key(), 17)]


@pytest.mark.django_db
def test_a_failed_estimate_frees_its_member_and_try_again_is_refused_while_another_works(
    client, member, lab_queue, django_capture_on_commit_callbacks, settings
):
    broken = Setup.from_game_fields(
        "werewolf", 4, {"mode": "explicit", "cards": [{"role": "nobody"}] * 4}, {}
    )
    lab_start(setup=broken, user=member)
    address = lab_address(setup=broken, user=member)
    assert lab_run(address=address, seed=settings.LAB_SEED) == jobs.FAILED
    client.force_login(member)
    assert _post(client, {"suggested": "werewolf-8"}, django_capture_on_commit_callbacks)[
        "Location"
    ] == reverse("lab_result", kwargs={"key": WEREWOLF_8.key()})
    page = reverse("lab_result", kwargs={"key": address})
    response = _post(client, {}, django_capture_on_commit_callbacks, path=page)
    assert response.status_code == 200
    assert _refusal(response).startswith("Your estimate of Werewolf 8 (suggested) is still")
    assert _queued(lab_queue) == [(WEREWOLF_8.key(), settings.LAB_SEED)]


# --- the queue's cap --------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.django_db
def test_new_estimates_wait_for_room_when_the_lab_is_busy(
    client, member, lab_queue, django_capture_on_commit_callbacks, settings
):
    settings.LAB_QUEUE_MAX = 2
    with django_capture_on_commit_callbacks(execute=True):
        call_command("lab_fill", "witchhunt-8", "werewolf-8", stdout=StringIO())
    client.force_login(member)
    refused = _post(client, {"suggested": "witchhunt-12"}, django_capture_on_commit_callbacks)
    assert _refusal(refused) == (
        "The lab is busy: 2 estimates are waiting. Try again in a few minutes."
    )
    # Staff are not refused, and their job counts too.
    staff = UserFactory(is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert lab_start(setup=_werewolf(6), user=staff)
    _finish(WITCHHUNT_8.key())
    refused = _post(client, {"suggested": "witchhunt-12"}, django_capture_on_commit_callbacks)
    assert "2 estimates are waiting" in _refusal(refused)
    _finish(WEREWOLF_8.key())
    taken = _post(client, {"suggested": "witchhunt-12"}, django_capture_on_commit_callbacks)
    assert taken.status_code == 302
    keys = [k for k, _ in _queued(lab_queue)]
    assert keys == [
        WITCHHUNT_8.key(),
        WEREWOLF_8.key(),
        lab_address(setup=_werewolf(6), user=staff),
        find_suggested("witchhunt-12").key(),
    ]


# --- the sliding window and the cost by size ----------------------------------------------------
def test_a_setup_costs_a_unit_for_every_twelve_seats(settings):
    assert settings.LAB_SEATS_PER_UNIT == 12 and settings.LAB_UNITS_PER_WINDOW == 12
    costs = {n: lab_cost(find_suggested(f"witchhunt-{n}")) for n in (8, 12, 16, 24, 48)}
    assert costs == {8: 1, 12: 1, 16: 2, 24: 2, 48: 4}
    settings.LAB_UNITS_PER_WINDOW = 3  # never more than a window holds
    assert lab_cost(find_suggested("werewolf-48")) == 3


@pytest.mark.slow
@pytest.mark.django_db
def test_a_members_estimates_are_counted_over_the_last_hour_not_by_the_clocks_hour(
    client, member, django_capture_on_commit_callbacks, settings
):
    """An hour's bucket let a member spend it at 10:59 and again at 11:01; the window
    remembers 10:59 until 11:59."""
    settings.LAB_UNITS_PER_WINDOW = 4
    client.force_login(member)
    start = dt.datetime(2026, 12, 2, 10, 59, tzinfo=dt.UTC)
    with time_machine.travel(start, tick=False):
        big = _post(client, {"suggested": "werewolf-48"}, django_capture_on_commit_callbacks)
        assert big.status_code == 302  # 48 seats: 4 units, the whole window
        _finish(find_suggested("werewolf-48").key())
    for later, minutes in ((dt.timedelta(minutes=2), 58), (dt.timedelta(seconds=3599), 1)):
        with time_machine.travel(start + later):
            refused = _post(
                client, {"suggested": "witchhunt-8"}, django_capture_on_commit_callbacks
            )
            assert _refusal(refused) == (
                "This 8-player setup counts 1 estimate: a member's estimates in any 60 "
                "minutes may count 4, each one for every 12 players or part of them, and "
                f"yours count 4. Try again in {minutes} minute{'s' if minutes > 1 else ''}."
            )
    with time_machine.travel(start + dt.timedelta(minutes=60, seconds=1)):
        taken = _post(client, {"suggested": "witchhunt-8"}, django_capture_on_commit_callbacks)
        assert taken["Location"] == reverse("lab_result", kwargs={"key": WITCHHUNT_8.key()})


@pytest.mark.slow
@pytest.mark.django_db
def test_four_twelve_seat_estimates_cost_what_one_of_forty_eight_seats_does(
    client, member, django_capture_on_commit_callbacks, settings
):
    settings.LAB_UNITS_PER_WINDOW = 4
    client.force_login(member)
    for slug in ("witchhunt-8", "witchhunt-12", "werewolf-8", "werewolf-12"):
        response = _post(client, {"suggested": slug}, django_capture_on_commit_callbacks)
        assert response.status_code == 302, slug
        _finish(find_suggested(slug).key())
    refused = _post(client, {"suggested": "witchhunt-16"}, django_capture_on_commit_callbacks)
    assert _refusal(refused).startswith("This 16-player setup counts 2 estimates:")
    assert "yours count 4. Try again in 60 minutes." in _refusal(refused)


@pytest.mark.slow
@pytest.mark.django_db
def test_answers_kept_cost_nothing_and_staff_and_lab_fill_are_not_limited(
    client, member, lab_queue, django_capture_on_commit_callbacks, settings
):
    settings.LAB_UNITS_PER_WINDOW = 1
    client.force_login(member)
    _post(client, {"suggested": "witchhunt-8"}, django_capture_on_commit_callbacks)
    _finish(WITCHHUNT_8.key())
    assert "counts 1 estimate" in _refusal(
        _post(client, {"suggested": "werewolf-8"}, django_capture_on_commit_callbacks)
    )
    for _ in range(2):  # the answer kept, as often as asked
        kept = _post(client, {"suggested": "witchhunt-8"}, django_capture_on_commit_callbacks)
        assert kept["Location"] == reverse("lab_result", kwargs={"key": WITCHHUNT_8.key()})

    staff = UserFactory(is_staff=True)  # two at work at once, over any window
    for setup in (_werewolf(5), _werewolf(6), find_suggested("werewolf-48")):
        assert lab_start(setup=setup, user=staff, queued=False)
    out = StringIO()
    call_command("lab_fill", "werewolf-8", "witchhunt-12", stdout=out)
    assert out.getvalue().splitlines() == ["werewolf-8: queued", "witchhunt-12: queued"]
    _queued(lab_queue)


# --- racing starts -----------------------------------------------------------------------------
CACHE_BACKENDS = {
    "locmem": lambda tmp: {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "file": lambda tmp: {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(tmp / "cache"),
    },
    "redis": lambda tmp: {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"lab-race-{os.getpid()}",
    },
}


@pytest.fixture(params=list(CACHE_BACKENDS))
def site_cache(request, settings, tmp_path):
    """The default cache as the site runs it: each thread its own client, as each process
    has (web, the workers)."""
    if request.param == "redis" and not REDIS_URL:
        pytest.skip("REDIS_URL is not set")
    settings.CACHES = {**settings.CACHES, "default": CACHE_BACKENDS[request.param](tmp_path)}
    caches["default"].clear()
    yield request.param
    caches["default"].clear()


def _race(starts):
    """Run each `start()` in a thread of its own, all at once; their results in order, a
    refusal as its words."""
    barrier = threading.Barrier(len(starts))
    results = [None] * len(starts)

    def run(i, start):
        barrier.wait()
        try:
            results[i] = start()
        except LabRefused as e:
            results[i] = str(e)
        finally:
            caches["default"].close()

    threads = [threading.Thread(target=run, args=(i, s)) for i, s in enumerate(starts)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


@pytest.mark.django_db
def test_racing_starts_never_pass_the_limits(site_cache, settings):
    settings.LAB_QUEUE_MAX = 3
    members = UserFactory.create_batch(6)
    setups = [_werewolf(n) for n in range(5, 11)]
    pairs = zip(members, setups, strict=True)
    results = _race([lambda m=m, s=s: lab_start(setup=s, user=m, queued=False) for m, s in pairs])
    assert results.count(True) == 3, results
    assert (
        results.count("The lab is busy: 3 estimates are waiting. Try again in a few minutes.") == 3
    )

    settings.LAB_QUEUE_MAX = 10
    one = UserFactory()
    results = _race([lambda s=s: lab_start(setup=s, user=one, queued=False) for s in setups])
    assert results.count(True) == 1, results
    assert all("is still running" in r for r in results if r is not True)
