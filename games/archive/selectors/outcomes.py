"""Who won a finished game, and which team a card played for: the reveal's answer, for
many games at once (the profiles, the archive).

The winners are the seats the engine named when the game ended (W-70, WW-12..WW-15): its
public `game_over` event, the same list the reveal reads from the replayed state. A seat
won when it is in that list, so a Werewolf Lover who won with a partner counts as won
whatever the card, and a dead Thief does not (WW-12).
"""

from games.engine import EVIL, GOOD, ROLES, TYPES
from games.models import GameEvent

# A Werewolf card's team by its alignment; a wildcard plays for itself (WW-10, WW-11).
WEREWOLF_TEAMS = {GOOD: "village", EVIL: "werewolves"}


def winners_by_game(game_ids) -> dict[int, frozenset]:
    """Game id -> the names of the seats that won it, in one query (no entry for a game
    that has not ended)."""
    rows = GameEvent.objects.filter(game_id__in=list(game_ids), kind="game_over")
    return {g: frozenset(data.get("winners", ())) for g, data in rows.values_list("game", "data")}


def seat_won(winners, seat_name: str) -> bool:
    """Whether the seat is among a finished game's winners (the reveal's "Winner")."""
    return seat_name in winners


def card_team(ruleset: str, *, character="", type="", role="") -> str:
    """The team a seat's cards played for: Witchhunt's Village or Witches by the player
    type (W-21); a Werewolf role's alignment (the Village, the Werewolves), or the
    wildcard itself ("fool", "were_hamster"…)."""
    if ruleset == "werewolf":
        alignment = ROLES[role][0] if role in ROLES else ""
        return WEREWOLF_TEAMS.get(alignment, role)
    return TYPES[type][0] if type in TYPES else ""
