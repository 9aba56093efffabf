"""The sealed deal as the pages show it (docs/fair-deal.md): before the finish only the
commitment; at the finish the deal text, rebuilt from the stored cards and checked
against the commitment, so a card changed since the start shows as a mismatch."""

from dataclasses import dataclass

from games.models import Game
from games.selectors.seats import game_seats

from .fairness import command, deal_text, verify
from .narration import (
    not_dealt_words,
    sealed_until_reveal_words,
    unsealed_words,
    verdict_words,
)


@dataclass
class FairDeal:
    game: Game
    commitment: str  # "" before the start, and for a game started before deals were sealed
    note: str = ""  # why there is nothing (yet) to check, in words
    text: str = ""  # the deal text with its salt: only once the game is finished
    command: str = ""  # the one-line shell check of `text`
    matches: bool | None = None  # None: nothing checked
    verdict: str = ""


@dataclass
class DealCheck:
    matches: bool
    verdict: str


def fair_deal(game: Game, seats=None) -> FairDeal:
    """The game's sealed deal for anyone: `seats` with their cards (game_seats) when the
    caller has them, else one query, and only once the game is finished."""
    if game.status == Game.Status.OPEN:
        return FairDeal(game, "", note=not_dealt_words())
    if not game.deal_commitment:
        return FairDeal(game, "", note=unsealed_words())
    if game.status != Game.Status.FINISHED:
        # The salt and the deal stay in the row: this is the one gate before the reveal.
        return FairDeal(game, game.deal_commitment, note=sealed_until_reveal_words())
    text = deal_text_stored(game, game_seats(game) if seats is None else seats)
    matches, reason = verify(text, game.deal_commitment)
    return FairDeal(
        game,
        game.deal_commitment,
        text=text,
        command=command(text),
        matches=matches,
        verdict=verdict_words(matches, reason),
    )


def deal_text_stored(game: Game, seats) -> str:
    """The deal text from the rows as they are now (seats in seat order, with cards)."""
    players = []
    for seat in seats:
        card = getattr(seat, "assignment", None)  # a missing card is a changed deal
        players.append(
            {
                "name": seat.name,
                "character": card.character if card else "",
                "type": card.type if card else "",
                "role": card.role if card else "",
            }
        )
    return deal_text(
        ruleset=game.ruleset,
        players=players,
        lovers=game.lovers,
        seed=game.seed,
        salt=game.deal_salt,
    )


def deal_check(text: str, commitment: str) -> DealCheck:
    """Anyone's deal text against anyone's commitment (the generic check page)."""
    matches, reason = verify(text, commitment)
    return DealCheck(matches, verdict_words(matches, reason))
