"""Sealing the deal at the start (docs/fair-deal.md): a fresh salt, the commitment, and
the start post's line that publishes it."""

from django.urls import reverse
from django.utils.html import format_html, format_html_join

from games.models import Game
from games.narration import describe_event
from games.selectors.seats import game_display_names

from .fairness import commitment, deal_text, new_salt
from .narration import seal_words


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


def sealed_start_texts(game: Game, rows, text: str, html: str) -> tuple[str, str]:
    """The start post's words (`text`/`html`, empty for an event alone, which is then
    told in words here and kept) followed by the commitment."""
    if not html:
        names = game_display_names(game)
        words = [describe_event(r.kind, r.data, names) for r in rows]
        text = "\n".join(words)
        html = format_html_join("", '<p class="post__announcement">{}</p>', ((w,) for w in words))
    sentence, how = seal_words()
    url = reverse("game_fair_deal", args=[game.pk])
    seal_text = f"{sentence.format(fingerprint=game.deal_commitment)} {how}: {url}"
    code = format_html('<code class="fingerprint">{}</code>', game.deal_commitment)
    seal_html = format_html(
        '<p class="fair-deal__seal">{} <a href="{}">{}</a></p>',
        format_html(sentence, fingerprint=code),
        url,
        how,
    )
    return "\n".join(filter(None, [text, seal_text])), html + seal_html
