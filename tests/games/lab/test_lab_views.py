"""The setup lab's pages (games/lab/views.py): the form and its checks, a job queued once per
setup (on the in-memory broker's `lab` queue, as the test settings route it), the estimate's
page while the job works (no JavaScript needed) and once it is done, and the suggested setups
on the new-game form with their cached estimates.

The job itself runs through its real body (services.lab.lab_run, the task's one call) with
small game counts; tests/games/lab/test_lab_worker.py runs it in a real Celery worker."""

import re
import xml.etree.ElementTree as ET
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.lab import jobs
from games.lab.selectors import lab_result
from games.lab.services import lab_address, lab_run, lab_start, lab_store
from games.lab.simulation.estimate import simulate
from games.lab.simulation.setups import Setup, find_suggested
from tests.broker import broker_queue

SVG = "{http://www.w3.org/2000/svg}"
WITCHHUNT_8 = find_suggested("witchhunt-8")


@pytest.fixture(autouse=True)
def _small_runs(settings):
    settings.LAB_FIRST_GAMES = 20
    settings.LAB_SIZE_GAMES = 10
    settings.LAB_GAMES = 60


@pytest.fixture
def lab_queue():
    """The `lab` queue of the in-memory broker, emptied before and after."""
    with broker_queue("lab") as queue:
        yield queue


def _queued(queue):
    """The (setup key, seed) of each lab_estimate message waiting on the queue."""
    out = []
    while queue.qsize():
        message = queue.get(block=False)
        assert message.headers["task"] == "games.tasks.lab_estimate"
        out.append(tuple(message.payload[0]))
        message.ack()
    return out


def _post(client, data, capture):
    with capture(execute=True):
        return client.post(reverse("lab"), data)


# --- the form -------------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_lab_page_offers_the_suggested_setups_and_a_form_filled_with_one(client):
    html = client.get(reverse("lab")).content.decode()
    for slug in ("witchhunt-8", "witchhunt-48", "werewolf-8", "werewolf-48"):
        assert f'name="suggested" value="{slug}"' in html
    assert "not estimated yet" in html
    # The form starts as the 12-player Witchhunt setup: a pool with its counts filled in.
    assert re.search(r'name="deal_mode" value="pool"[^>]*checked', html)
    assert re.search(r'name="count_elder_witch" value="2"', html)
    # The new-game form's other fields are not the lab's.
    assert 'name="title"' not in html and 'name="day_hours"' not in html


@pytest.mark.django_db
def test_a_deal_the_rules_refuse_is_shown_and_nothing_is_queued(
    client, member, lab_queue, django_capture_on_commit_callbacks
):
    client.force_login(member)
    data = {
        "ruleset": "werewolf",
        "seats_count": "9",
        "deal_mode": "explicit",
        "cards": "2 x werewolf\nseer",
    }
    response = _post(client, data, django_capture_on_commit_callbacks)
    assert response.status_code == 200
    assert "The deal lists 3 cards for 9 seats." in response.content.decode()
    response = _post(client, {**data, "seats_count": "2"}, django_capture_on_commit_callbacks)
    html = response.content.decode()  # the seats' own bounds, the new-game form's
    assert "Ensure this value is greater than or equal to 3." in html
    assert _queued(lab_queue) == []


@pytest.mark.django_db
def test_a_visitor_is_asked_to_sign_in_before_starting_one(
    client, lab_queue, django_capture_on_commit_callbacks
):
    response = _post(client, {"suggested": "witchhunt-8"}, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert _queued(lab_queue) == []


@pytest.mark.django_db
def test_starting_an_estimate_needs_the_csrf_token(
    member, lab_queue, django_capture_on_commit_callbacks
):
    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(reverse("lab"), {"suggested": "witchhunt-8"}).status_code == 403
    assert _queued(lab_queue) == []


@pytest.mark.django_db
def test_an_unknown_suggested_setup_is_not_found(client, member):
    client.force_login(member)
    assert client.post(reverse("lab"), {"suggested": "witchhunt-9"}).status_code == 404


# --- one job per setup ------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.django_db
def test_a_setup_is_queued_once_however_often_it_is_asked_for(
    client, member, lab_queue, django_capture_on_commit_callbacks, settings
):
    client.force_login(member)
    key = WITCHHUNT_8.key()
    for _ in range(3):
        response = _post(client, {"suggested": "witchhunt-8"}, django_capture_on_commit_callbacks)
        assert response["Location"] == reverse("lab_result", kwargs={"key": key})
    assert _queued(lab_queue) == [(key, settings.LAB_SEED)]
    page = client.get(reverse("lab")).content.decode()
    href = reverse("lab_result", kwargs={"key": key})
    assert f'<a href="{href}">being estimated</a>' in page
    assert 'value="witchhunt-8"' not in page and 'value="witchhunt-12"' in page

    # The same setup typed into the form (its pool in another order: the page's) is the
    # same job; another setup is another.
    same = {
        "ruleset": "witchhunt",
        "seats_count": "8",
        "deal_mode": "pool",
        "characters": WITCHHUNT_8.deal["characters"][::-1],
        **{f"count_{t}": str(n) for t, n in WITCHHUNT_8.deal["types"].items()},
        "stalemate_cycles": "3",
        "public_setup": "on",
    }
    response = _post(client, same, django_capture_on_commit_callbacks)
    assert response["Location"] == reverse("lab_result", kwargs={"key": key})
    assert _queued(lab_queue) == []
    assert lab_run(address=key, seed=settings.LAB_SEED) == jobs.DONE  # one at a time
    response = _post(client, {**same, "stalemate_cycles": "0"}, django_capture_on_commit_callbacks)
    other = response["Location"].split("/")[-2]
    assert other != key
    assert _queued(lab_queue) == [(other, settings.LAB_SEED)]
    assert lab_run(address=other, seed=settings.LAB_SEED) == jobs.DONE

    werewolf_12 = find_suggested("werewolf-12")
    response = _post(
        client,
        {
            "ruleset": "werewolf",
            "seats_count": "12",
            "deal_mode": "pool",
            "roles": sorted(werewolf_12.deal["roles"]),
            "werewolves": str(werewolf_12.deal["werewolves"]),
            "specials": str(werewolf_12.deal["specials"]),
        },
        django_capture_on_commit_callbacks,
    )
    assert response["Location"] == reverse("lab_result", kwargs={"key": werewolf_12.key()})


@pytest.mark.django_db
def test_the_new_game_forms_fields_post_to_the_lab_as_they_are(
    client, member, lab_queue, django_capture_on_commit_callbacks, settings
):
    """ "Estimate this setup's balance" sends the whole new-game form: the lab reads its
    setup and leaves the rest (a title, phases, sign-ups)."""
    client.force_login(member)
    data = {
        "title": "Salem",
        "ruleset": "werewolf",
        "seats_count": "5",
        "deal_mode": "explicit",
        "cards": "werewolf\nseer\n3 x villager",
        "shuffle": "on",
        "day_hours": "72",
        "night_hours": "24",
    }
    response = _post(client, data, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    [(key, seed)] = _queued(lab_queue)
    expected = Setup.from_game_fields(
        "werewolf",
        5,
        {
            "mode": "explicit",
            "cards": [{"role": "werewolf"}, {"role": "seer"}, *[{"role": "villager"}] * 3],
            "shuffle": True,
        },
        {"reveal_on_death": False},
    )
    assert (key, seed) == (lab_address(setup=expected, user=member), settings.LAB_SEED)
    assert lab_result(key, viewer=member).setup == expected


# --- the estimate's page ------------------------------------------------------------------------
def _result(client, key=None):
    key = key or WITCHHUNT_8.key()
    return client.get(reverse("lab_result", kwargs={"key": key}))


@pytest.mark.django_db
def test_while_the_job_waits_the_page_shows_its_progress_and_a_plain_refresh(client, member):
    client.force_login(member)
    lab_start(setup=WITCHHUNT_8, user=member)
    response = _result(client)
    html = response.content.decode()
    assert response["Cache-Control"].startswith("max-age=0")  # never_cache: a refresh is fresh
    assert "Waiting for the lab’s worker" in html
    assert (
        "Witchhunt, 8 players. Drawn from 48 characters: 1 Elder Witch, 1 Junior Witch, "
        "3 Holy Villagers, 1 Village Spy, 2 Basic Villagers.</p>"
    ) in " ".join(html.split())
    # 60 games of the setup, 5 with careless and 5 with sharp bots (a quarter of the first
    # estimate's 20 each), and 10 at each of the four other suggested sizes.
    assert "0 of 110 games" in html
    assert '<progress id="lab-progress" max="110" value="0">' in html
    path = reverse("lab_result", kwargs={"key": WITCHHUNT_8.key()})
    assert f'<a href="{path}">Refresh</a>' in html
    assert 'http-equiv="refresh"' not in html
    assert 'data-lab-poll="' in html and "js/lab.js" in html
    assert "<svg" not in html and "<table" not in html


@pytest.mark.slow
@pytest.mark.django_db
def test_a_finished_job_shows_the_chart_and_the_tables_beside_it(client, member, settings):
    lab_start(setup=WITCHHUNT_8, user=member)
    assert lab_run(address=WITCHHUNT_8.key(), seed=settings.LAB_SEED) == jobs.DONE
    html = _result(client).content.decode()  # anyone may read it
    assert "Done: the estimate is final." in html
    assert "data-lab-poll" not in html and "Refresh</a>" not in html
    assert "Win chances over 60 games" in html
    rows = re.findall(r'<tr><th scope="row">(\w+)</th><td>(\d+)</td><td>(\d+)%</td>', html)
    assert [r[0] for r in rows] == ["Village", "Witches"]
    assert sum(int(r[1]) for r in rows) == 60
    assert re.search(r"Median game length: <strong>[\d.]+ days?</strong>", html)
    sizes = re.findall(r'<th scope="row">(\d+)( \(this setup\))?</th>', html)
    assert sizes == [("8", " (this setup)"), ("12", ""), ("16", ""), ("24", ""), ("48", "")]

    svg = ET.fromstring(re.search(r"<svg.*?</svg>", html, re.S).group(0))
    assert svg.get("role") == "img"
    title = svg.find(f"{SVG}title")
    assert svg.get("aria-labelledby") == title.get("id")
    assert title.text == "Win chances for Witchhunt 8 (suggested)"
    desc = svg.find(f"{SVG}desc").text
    assert "Village wins" in desc and "Witches wins" in desc and "At 48 players" in desc


@pytest.mark.django_db
@pytest.mark.parametrize("workers", [1, 2])  # its games here, or over processes
def test_a_failed_job_says_why_and_can_be_started_again(
    client, member, lab_queue, django_capture_on_commit_callbacks, settings, workers
):
    settings.LAB_WORKERS = workers
    settings.LAB_FIRST_GAMES = 60  # chunks enough to share
    # A setup no form lets through: more cards than seats. The engine refuses it.
    broken = Setup.from_game_fields(
        "werewolf",
        4,
        {"mode": "explicit", "cards": [{"role": "werewolf"}] + [{"role": "nobody"}] * 3},
        {},
    )
    with django_capture_on_commit_callbacks(execute=True):
        lab_start(setup=broken, user=member)
    address = lab_address(setup=broken, user=member)  # a setup of the member's own
    assert lab_run(address=address, seed=settings.LAB_SEED) == jobs.FAILED
    _queued(lab_queue)
    client.force_login(member)
    html = _result(client, address).content.decode()
    assert "The estimate stopped: players[0]: unknown role &#x27;nobody&#x27;" in html
    assert "Try again" in html
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("lab_result", kwargs={"key": address}))
    assert response.status_code == 302
    assert response["Location"] == reverse("lab_result", kwargs={"key": address})
    assert _queued(lab_queue) == [(address, settings.LAB_SEED)]
    assert "Waiting for the lab’s worker" in _result(client, address).content.decode()


@pytest.mark.django_db
def test_an_estimate_not_kept_is_not_found(client):
    assert _result(client, "0" * 32).status_code == 404
    assert client.get("/lab/not-a-key/").status_code == 404


# --- the new-game form and the rules pages -----------------------------------------------
@pytest.mark.slow
@pytest.mark.django_db
def test_the_new_game_form_lists_the_suggested_setups_with_their_cached_estimates(
    client, host, member, settings
):
    client.force_login(host)
    html = client.get(reverse("game_new")).content.decode()
    assert '<a href="?suggested=witchhunt-8">Witchhunt 8</a></li>' in html
    estimate = 'formaction="/lab/" name="from_new_game" value="1">Estimate this setup’s balance<'
    assert estimate in html

    lab_start(setup=WITCHHUNT_8, user=member)
    lab_run(address=WITCHHUNT_8.key(), seed=settings.LAB_SEED)
    html = client.get(reverse("game_new")).content.decode()
    found = re.search(r'=witchhunt-8">Witchhunt 8</a>: Village (\d+)% ± (\d+)[^<]*</li>', html)
    assert found and 1 <= int(found.group(2)) <= 20
    assert '?suggested=witchhunt-12">Witchhunt 12</a></li>' in html  # not estimated: no number


@pytest.mark.django_db
def test_a_suggested_setup_fills_the_new_game_forms_cards(client, host):
    client.force_login(host)
    html = client.get(reverse("game_new"), {"suggested": "werewolf-12"}).content.decode()
    assert re.search(r'name="ruleset" value="werewolf"[^>]*checked', html)
    assert re.search(r'name="seats_count" value="12"', html)
    assert re.search(r'name="werewolves" value="2"', html)
    for role in ("seer", "witch", "matchmaker"):
        assert re.search(rf'name="roles" value="{role}"[^>]*checked', html), role


@pytest.mark.django_db
def test_the_rules_page_links_the_lab(client):
    assert f'href="{reverse("lab")}">setup lab</a>' in client.get(reverse("rules")).content.decode()


# --- an estimate made elsewhere (the `balance` command) ---------------------------------------
@pytest.mark.django_db
def test_an_estimate_made_elsewhere_is_kept_unless_a_better_one_is(client, member, settings):
    werewolf_8 = find_suggested("werewolf-8")
    small = simulate(werewolf_8, games=30, seed=1)
    assert lab_store(setup=werewolf_8, estimate=small, sizes=[(12, small)])
    page = client.get(reverse("lab")).content.decode()
    href = reverse("lab_result", kwargs={"key": werewolf_8.key()})
    assert re.search(rf'<a href="{href}">Village \d+% ± \d+</a>', page)
    html = _result(client, werewolf_8.key()).content.decode()
    assert "Win chances over 30 games" in html and "<svg" in html
    assert "Done: the estimate is final." in html

    larger = simulate(werewolf_8, games=40, seed=1)
    assert not lab_store(setup=werewolf_8, estimate=small)  # no better than what is kept
    assert lab_store(setup=werewolf_8, estimate=larger)
    assert "Win chances over 40 games" in _result(client, werewolf_8.key()).content.decode()

    # A job at work is never overwritten.
    lab_start(setup=WITCHHUNT_8, user=member)
    assert not lab_store(setup=WITCHHUNT_8, estimate=simulate(WITCHHUNT_8, games=10, seed=1))
    assert "Waiting for the lab’s worker" in _result(client).content.decode()


@pytest.mark.slow
@pytest.mark.django_db
def test_a_job_out_of_time_ends_with_the_games_it_has_played(client, member, settings):
    settings.LAB_GAMES = 5000
    settings.LAB_MAX_SECONDS = 0  # spent as soon as the first round and the sizes are
    lab_start(setup=WITCHHUNT_8, user=member)
    assert lab_run(address=WITCHHUNT_8.key(), seed=settings.LAB_SEED) == jobs.DONE
    html = _result(client).content.decode()
    assert "Done: the estimate is final." in html
    assert "Win chances over 20 games" in html  # LAB_FIRST_GAMES, not LAB_GAMES
    assert "<progress" not in html


BAND = r"\(careless play \d+%, sharp play \d+%\)"  # a filled suggestion's band


@pytest.mark.slow
@pytest.mark.django_db
def test_lab_fill_estimates_the_suggested_setups_for_the_new_game_form(
    client, host, lab_queue, settings, django_capture_on_commit_callbacks
):
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("lab_fill", "witchhunt-8", "werewolf-8", "--now", stdout=out)
    assert out.getvalue().splitlines() == ["witchhunt-8: done", "werewolf-8: done"]
    assert _queued(lab_queue) == []  # played here, not queued as well
    client.force_login(host)
    html = client.get(reverse("game_new")).content.decode()
    # Filled, a suggestion's label carries its band (careless and sharp play).
    assert re.search(rf'=witchhunt-8">Witchhunt 8</a>: Village \d+% ± \d+ {BAND}</li>', html)
    assert re.search(rf'=werewolf-8">Werewolf 8</a>: Village \d+% ± \d+ {BAND}</li>', html)

    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("lab_fill", "witchhunt-8", "witchhunt-12", stdout=out)
    assert out.getvalue().splitlines() == [
        "witchhunt-8: estimated already, or on its way",
        "witchhunt-12: queued",
    ]
    assert _queued(lab_queue) == [(find_suggested("witchhunt-12").key(), settings.LAB_SEED)]
