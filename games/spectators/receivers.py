"""What the spectators hear of the core (connected by apps.py):

- SEAT_WANTED and REPLACEMENT_ASKED: a member who follows or followed the game as a
  spectator is refused a seat, an offer and volunteering, in words;
- GAME_OPENED: the host's choices on the new-game form (its extras) are stored with the game;
- SWEEP_TICKED: sign-in addresses older than 30 days are forgotten;
- MEMBER_ERASED: the member's sign-in addresses go (their spectator rows stay, with their
  account's anonymised row: they still hold no seat);
- MEMBER_EXPORT: the games they followed, their posts in the spectators' threads, and when
  they signed in lately (never an address: only its keyed hash is kept, and not given);
- Django's user_logged_in: the sign-in's address is remembered, as a keyed hash;
- a game's choices saved or deleted: the cached copy every game page reads is forgotten.
"""

from django.contrib.auth.signals import user_logged_in
from django.utils.translation import gettext

from games import queue
from games.engine import GameRuleError
from games.models import SignInAddress, Spectator, SpectatorPost, SpectatorSettings
from games.remembered import forget_on_change
from witchhunt.proxy import client_address

from . import services
from .forms import SpectatorChoicesForm
from .selectors import choices_key


def opened(*, game, extras, **_) -> None:
    form = SpectatorChoicesForm(extras)
    if not any(form.add_prefix(name) in extras for name in form.fields):
        return  # not made by the new-game form: no spectators, as by default
    if not form.is_valid():
        raise GameRuleError(gettext("the spectators' choices could not be read: choose again"))
    choices = form.cleaned_data
    if choices["allowed"] or choices["dead_see"] or choices["delay"] != "none":
        services.settings_store(
            game, allowed=choices["allowed"], delay=choices["delay"], dead_see=choices["dead_see"]
        )


def sweep_ticked(*, now, counts, **_) -> bool:
    gone = services.addresses_forget(now=now)
    if gone:
        counts["sign_in_addresses_forgotten"] = counts.get("sign_in_addresses_forgotten", 0) + gone
    return False


def member_erased(*, user, **_) -> None:
    SignInAddress.objects.filter(user=user).delete()


def member_export_part(data: dict, *, user, **_) -> dict:
    data["spectating"] = {
        "games": [
            {"game": s.game_id, "title": s.game.title, "joined_at": s.joined_at,
             "left_at": s.left_at}
            for s in Spectator.objects.filter(user=user).select_related("game")
        ],
        "posts": [
            {"game": p.game_id, "number": p.number, "body": p.body, "at": p.created_at}
            for p in SpectatorPost.objects.filter(author=user).order_by("game_id", "number")
        ],
        "signed_in_at": sorted(
            SignInAddress.objects.filter(user=user).values_list("seen_at", flat=True)
        ),
    }  # fmt: skip
    return data


def signed_in(sender, request, user, **_) -> None:
    if request is not None:
        services.sign_in_record(user=user, address=client_address(request))


def connect() -> None:
    queue.connect(queue.SEAT_WANTED, services.seat_refused)
    queue.connect(queue.REPLACEMENT_ASKED, services.seat_refused)
    queue.connect(queue.GAME_OPENED, opened)
    queue.connect(queue.SWEEP_TICKED, sweep_ticked)
    queue.connect(queue.MEMBER_ERASED, member_erased)
    queue.connect(queue.MEMBER_EXPORT, member_export_part)
    user_logged_in.connect(signed_in, dispatch_uid="spectators.signed_in")
    forget_on_change(
        SpectatorSettings, lambda row: [choices_key(row.game_id)], uid="spectators.choices"
    )
