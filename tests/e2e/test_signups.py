"""Sign-ups in Chromium (issue 16): a host opens a four-seat game that the site starts when
it fills, with a start date typed in the host's zone; four players sign up from the lobby;
the last sign-up deals and starts it, and that player finds their cards on the role page."""

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game
from tests.e2e.conftest import signed_in_page
from tests.factories import UserFactory

ROLES = ("Seer", "Werewolf", "Villager")


@pytest.mark.django_db(transaction=True)
def test_a_game_that_fills_is_started_by_the_site_and_its_players_see_their_roles(
    browser, live_server, shot
):
    host = UserFactory(player_name="Host", time_zone="Europe/Paris")
    host.user_permissions.add(Permission.objects.get(codename="add_game"))
    players = [UserFactory(player_name=n) for n in ("Ann", "Bob", "Cat", "Dan")]
    base = live_server.url
    day = (timezone.now() + timezone.timedelta(days=4)).date()

    page = signed_in_page(browser, live_server.url, host)
    page.goto(f"{base}/games/new/")
    page.get_by_label("Werewolf", exact=True).check()
    page.get_by_label("Title").fill("Full house")
    page.get_by_label("Seats").fill("4")
    page.locator("#id_cards").fill("seer\nwerewolf\n2 x villager")
    page.get_by_label("Start date and time (your time zone)").fill(f"{day}T19:00")
    page.get_by_label("Deal and start the game as soon as the last seat is taken").check()
    page.get_by_role("button", name="Create the game").click()
    expect(page.get_by_text("The game is open")).to_be_visible()
    game = Game.objects.get(title="Full house")
    local = game.signups_close_at.astimezone(host.zoneinfo)
    assert (local.date(), local.hour) == (day, 19) and game.start_when_full
    shot(page, "signups-open-game")

    for i, player in enumerate(players):
        them = signed_in_page(browser, live_server.url, player)
        them.goto(f"{base}/games/")
        row = them.get_by_role("row").filter(has_text="Full house")
        expect(row).to_contain_text(f"{i} of 4 seats taken")
        row.get_by_role("button", name="Sign up for Full house").click()
        if i < len(players) - 1:
            expect(them.get_by_text("You have joined the game.")).to_be_visible()
            expect(them.get_by_role("row").filter(has_text="Full house")).to_contain_text(
                f"{i + 1} of 4 seats taken"
            )
            them.context.close()
    # The last seat: the site dealt and started the game in the same request.
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.phase == "day 1"
    them.goto(f"{base}/games/{game.pk}/?page=1")
    expect(them.get_by_text("the site dealt the cards and started the game")).to_be_visible()
    them.get_by_role("link", name="Your role").first.click()
    expect(them.get_by_role("heading", level=1)).to_be_visible()
    role = them.locator("main").inner_text()
    assert any(r in role for r in ROLES), role
    shot(them, "signups-role-after-site-start")
    them.context.close()

    page.goto(f"{base}/notifications/")
    expect(page.get_by_text("All 4 seats were taken")).to_be_visible()


@pytest.mark.django_db(transaction=True)
def test_an_absence_declared_shows_on_the_open_games_desk_with_its_note(browser, live_server, shot):
    from games import services

    host = UserFactory(player_name="Host")
    ann = UserFactory(player_name="Ann")
    game = services.game_create(
        host=host, ruleset="werewolf", title="Away game", seats_count=4, seed=1,
        deal={"mode": "explicit", "cards": [{"role": r} for r in
                                            ("seer", "werewolf", "villager", "villager")]},
    )  # fmt: skip
    services.game_join(game=game, user=ann)
    base = live_server.url
    today = timezone.localdate()

    page = signed_in_page(browser, live_server.url, ann)
    page.get_by_role("link", name="Profile").click()
    page.get_by_role("link", name="Your absences").click()
    page.get_by_label("First day away").fill(f"{today}")
    page.get_by_label("Last day away").fill(f"{today + timezone.timedelta(days=2)}")
    page.get_by_label("Note for moderators (optional)").fill("At sea")
    page.get_by_role("button", name="Declare the absence").click()
    expect(page.get_by_text("Your absence is noted")).to_be_visible()
    shot(page, "absences-page")
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.locator("#player-ann")).to_contain_text("away until")
    expect(page.get_by_text("At sea")).to_have_count(0)

    desk = signed_in_page(browser, live_server.url, host)
    desk.goto(f"{base}/games/{game.pk}/desk/")
    signed = desk.get_by_role("region", name="Signed up (1 of 4)")
    expect(signed).to_contain_text("away until")
    expect(signed).to_contain_text("At sea")
    shot(desk, "signups-open-desk")
