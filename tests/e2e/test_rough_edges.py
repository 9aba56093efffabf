"""Issue 31's rough edges as a newcomer meets them in Chromium: the reveal on a phone (every
seat's result in sight and in words, the replaced seat tied to the deal), the new-game form
showing the chosen ruleset's fields only (both, named, without scripts), a refused post that
a reload does not send again, and "ask to be replaced" from the game page."""

import re

import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import expect

from games import services
from games.models import Seat
from tests.e2e.conftest import signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import CAST, make_game, users_for
from tests.games.test_views import _play_to_the_end
from witchhunt.pseudo import unmarked


@pytest.fixture
def village(db):
    users = users_for(CAST)
    host = UserFactory(player_name="Host")
    return make_game(host, users, CAST, title="Rough village"), users, host


def _sized(page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    return page


@pytest.mark.django_db(transaction=True)
def test_the_reveal_on_a_phone_shows_every_result_in_words(browser, live_server, village, shot):
    game, users, host = village
    services.player_replace(
        game=game, seat_name="eve", new_user=UserFactory(player_name="Newbie"), by=host
    )
    users["eve"] = Seat.objects.get(game=game, name="eve").user
    game = _play_to_the_end(game, users)
    page = _sized(signed_in_page(browser, live_server.url, users["ann"]), 390, 844)
    page.goto(f"{live_server.url}/games/{game.pk}/reveal/")
    table = page.locator(".reveal-table")
    # Nothing of the table is out of sight: it does not scroll sideways, at all.
    wrap = page.evaluate(
        """() => { const w = document.querySelector(".reveal-table").closest(".table-wrap");
          return [w.scrollWidth, w.clientWidth]; }"""
    )
    assert wrap[0] <= wrap[1], wrap
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(8)
    for row in rows.all():  # each seat's result, on screen, in words
        result = row.locator("td").last
        box = result.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box  # not off to the side
        assert unmarked(result.inner_text()).strip() in ("Winner", "Lost"), result.inner_text()
    expect(table.locator("tr", has_text="Hal").locator("td").last).to_have_text(
        re.compile("Lost")
    )
    note = table.locator(".reveal-note")
    expect(note).to_have_count(1)
    assert "replaced Eve" in unmarked(note.inner_text()) and "eve" in note.inner_text()
    shot(page, "reveal-phone-results")


@pytest.mark.django_db(transaction=True)
def test_the_new_game_form_shows_the_chosen_rulesets_fields(browser, live_server, village):
    _game, _users, host = village
    host.user_permissions.add(Permission.objects.get(codename="add_game"))
    page = signed_in_page(browser, live_server.url, host)
    page.goto(f"{live_server.url}/games/new/")
    witchhunt, werewolf = page.locator("[data-ruleset=witchhunt]"), page.locator(
        "[data-ruleset=werewolf]"
    )
    expect(werewolf.first).to_be_hidden()
    expect(page.locator("#id_archangel_cards")).to_be_attached()
    page.locator("input[name=ruleset][value=werewolf]").check()
    for i in range(witchhunt.count()):
        expect(witchhunt.nth(i)).to_be_hidden()
    expect(werewolf.last).to_be_visible()  # the options (the pool's is in its closed part)
    expect(page.get_by_label(re.compile("a player's card is shown when they die"))).to_be_visible()
    expect(page.get_by_label(re.compile("Archangel cards"))).to_be_hidden()
    # The start date says beside it how far ahead it must be.
    expect(page.locator("#id_signups_close_at_helptext")).to_contain_text(
        re.compile("an hour")
    )
    # Without scripts, both rulesets' fields show, each under its name.
    plain = signed_in_page(browser, live_server.url, host, scripts=False)
    plain.goto(f"{live_server.url}/games/new/")
    expect(plain.locator("[data-ruleset=witchhunt]").last).to_be_visible()
    expect(plain.locator("[data-ruleset=werewolf]").last).to_be_visible()


@pytest.mark.django_db(transaction=True)
def test_a_refused_post_is_not_sent_again_by_a_reload(browser, live_server, village):
    game, users, _host = village
    page = signed_in_page(browser, live_server.url, users["ann"])
    url = f"{live_server.url}/games/{game.pk}/"
    page.goto(url)
    page.get_by_label("Your post").fill("> " * 40 + "too deep")
    page.get_by_role("button", name="Post").click()
    expect(page.locator("#post-form [role=alert], #post-form .errorlist").first).to_be_visible()
    assert page.url.split("#")[0] == url, page.url  # the thread's address, not /post/
    expect(page.get_by_label("Your post")).to_have_value(re.compile("too deep"))
    page.reload()
    expect(page.locator("#post-form .errorlist")).to_have_count(0)
    expect(page.get_by_label("Your post")).to_have_value("")


@pytest.mark.django_db(transaction=True)
def test_a_player_asks_to_be_replaced_from_the_game_page(browser, live_server, village):
    game, users, _host = village
    page = signed_in_page(browser, live_server.url, users["bob"])
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.locator(".panel--seat").get_by_role("link", name=re.compile("Ask to be replaced")).click()
    page.get_by_label(re.compile("Your reason")).fill("Moving house")
    page.get_by_role("button", name="Ask to be replaced").click()
    assert page.url.split("?")[0].split("#")[0] == f"{live_server.url}/games/{game.pk}/"
    assert Seat.objects.get(game=game, name="bob").replacement_wanted_at is not None
