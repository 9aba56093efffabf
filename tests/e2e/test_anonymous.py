"""An anonymous game in Chromium (issue 31), from sign-up to the reveal: the host creates
a three-seat Werewolf game with aliases (the new-game form), then gives their own list on
the desk; three members sign up from the lobby; the host starts it and sees each alias
beside its member on the desk. The players see aliases only: the player list, the thread
(a mention by alias links, a real name does not) and the votes; the Werewolf is lynched and
the reveal shows each alias with its member. Screenshots: anonymous-desk.png,
anonymous-thread.png, anonymous-reveal.png."""

import re

import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import expect

from games import services
from games.models import Game, Seat
from tests.e2e.conftest import signed_in_page
from tests.factories import UserFactory
from tests.games.noninterference import normal

NAMES = ("Annqx", "Bobqx", "Catqx")
OWN = ("Masque", "Visor", "Veil")


def _names_in(text):
    return [n for n in NAMES if n.lower() in text.lower()]


@pytest.mark.django_db(transaction=True)
def test_an_anonymous_game_from_sign_up_to_reveal(browser, live_server, shot):
    base = live_server.url
    host = UserFactory(player_name="Hostqx")
    host.user_permissions.add(Permission.objects.get(codename="add_game"))
    players = [UserFactory(player_name=n) for n in NAMES]

    page = signed_in_page(browser, base, host)
    page.goto(f"{base}/games/new/")
    page.get_by_label("Werewolf", exact=True).check()
    page.get_by_label("Title").fill("Masked inn")
    page.get_by_label("Seats").fill("3")
    page.locator("#id_cards").fill("werewolf\n2 x villager")
    page.get_by_label("Aliases").select_option("trees")
    page.get_by_role("button", name="Create the game").click()
    expect(page.get_by_text("The game is open")).to_be_visible()
    game = Game.objects.get(title="Masked inn")

    # The host's own names instead, on the desk, before anyone signs up.
    page.goto(f"{base}/games/{game.pk}/desk/")
    page.get_by_label("Aliases").select_option("own")
    page.get_by_label("Your own names").fill("\n".join(OWN))
    page.get_by_role("button", name="Save the aliases").click()
    expect(page.get_by_text("The game is anonymous: each seat has an alias.")).to_be_visible()

    pages = []
    for player in players:
        them = signed_in_page(browser, base, player)
        them.goto(f"{base}/games/")
        row = them.get_by_role("row").filter(has_text="Masked inn")
        row.get_by_role("button", name="Sign up for Masked inn").click()
        expect(them.get_by_text("You have joined the game.")).to_be_visible()
        pages.append(them)
    alias = {s.user.player_name: s.alias for s in Seat.objects.filter(game=game)}
    assert sorted(alias.values()) == sorted(OWN)

    page.goto(f"{base}/games/{game.pk}/")
    page.get_by_role("button", name="Start the game").click()
    page.goto(f"{base}/games/{game.pk}/desk/")
    for name, masked in alias.items():
        expect(page.get_by_role("row", name=re.compile(masked))).to_contain_text(f"— {name}")
    shot(page, "anonymous-desk")

    # The players: aliases everywhere, never a member's name (their own aside).
    ann, bob = pages[0], pages[1]
    url = f"{base}/games/{game.pk}/"
    ann.goto(url)
    target = alias["Bobqx"]
    ann.get_by_label("Your post").fill(f"Morning, @{target}. Where is @Catqx?")
    ann.get_by_role("button", name="Post").click()
    post = ann.locator(".post").last
    expect(post.get_by_role("link", name=f"@{target}")).to_be_visible()
    expect(post.get_by_role("link", name="@Catqx")).to_have_count(0)
    expect(post.locator(".post__author")).to_have_text(alias["Annqx"])
    bob.goto(url)
    expect(bob.locator(".players")).to_contain_text(alias["Annqx"])
    shot(bob, "anonymous-thread")
    # What Ann typed is hers to write ("@Catqx", unlinked); nothing else names a member.
    seen = normal(bob.content().encode()).replace("Where is @Catqx?", "")
    others = [n for n in _names_in(seen) if n != "Bobqx"]
    assert not others, others

    # The Werewolf is lynched by the other two; the reveal shows both names.
    wolf = Seat.objects.get(game=game, assignment__role="werewolf")
    for seat in Seat.objects.filter(game=game).exclude(pk=wolf.pk).select_related("user"):
        services.vote_cast(game=game, user=seat.user, target=wolf.name)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    bob.goto(f"{base}/games/{game.pk}/reveal/")
    main = bob.locator("main")
    for name, masked in alias.items():
        expect(main).to_contain_text(re.compile(rf"{masked}\s*—\s*{name}"))
    shot(bob, "anonymous-reveal")
    for them in pages:
        them.context.close()
