"""Sealing the deal at the start (docs/fair-deal.md): a fresh salt, the commitment, and
the start post's line that publishes it."""

from django.urls import reverse

from games.models import Game
from games.narration.summaries import events_args
from games.selectors.seats import game_display_names

from .fairness import commitment, deal_text, new_salt
from .narration import sealed_meaning


def deal_seal(game: Game, setup: dict) -> None:
    """Seal the deal just dealt (deal.deal_cards' setup, players in seat order). Call it
    with the game row locked, before the start's first post, which publishes the seal."""
    game.deal_salt = new_salt()
    game.deal_commitment = commitment(
        deal_text(
            ruleset=game.ruleset,
            players=setup["players"],
            lovers=setup["lovers"],
            seed=game.seed,
            salt=game.deal_salt,
        )
    )
    # Saved here, whatever columns the start saves later: a start without its seal is
    # the one thing this must never allow.
    game.save(update_fields=["deal_salt", "deal_commitment"])


def sealed_start_words(game: Game, rows, words: dict) -> dict:
    """The start post's meaning (`words`: a summary's, or none for events alone, which are
    then kept to be told each on its line) followed by the seal's (narration.py)."""
    if not words:
        words = events_args([(r.kind, r.data) for r in rows], game_display_names(game))
    url = reverse("game_fair_deal", args=[game.pk])
    return {**words, "then": [*words.get("then", ()), sealed_meaning(game.deal_commitment, url)]}
