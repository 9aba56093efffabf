"""A provably fair deal (docs/fair-deal.md): the deal sealed at the start, opened at the
reveal.

The deal text is canonical JSON (sorted keys, no spaces, ASCII only) of
{"lovers": [[seat, seat], ...], "salt": "<64 hex digits>", "seats": [[seat, card, ...],
...], "seed": N}, seats in seat order. The commitment is the SHA-256 of that text's bytes,
no trailing newline: `printf '%s' '<deal text>' | sha256sum` checks it by hand.

The salt sits inside the hashed text: without it a player could hash the deals that fit
their own cards (few: a setup's arrangements; a new game's seed has 128 random bits, but
older games' 63 were within reach of rented hardware) until one gave the commitment, and
so learn every card. The seed is written as a JSON integer of any size, exactly. Seats
are named by the seat (the first occupant's player key), never the occupant: a
replacement keeps the seat, so the commitment never changes. Pure: no Django.
"""

import hashlib
import hmac
import json
import re
import secrets
from typing import NamedTuple

SALT_BYTES = 32  # 256 bits: as hard to guess as SHA-256 itself is to invert
# A seat's cards after its name, in this order, by ruleset.
CARD_FIELDS = {"witchhunt": ("character", "type"), "werewolf": ("role",)}
HEX_DIGEST = re.compile(r"\A[0-9a-f]{64}\Z")
COMMAND = "printf '%s' '{text}' | sha256sum"  # the documented check (docs/fair-deal.md)


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def deal_text(*, ruleset: str, players, lovers, seed: int, salt: str) -> str:
    """The canonical text of a deal. `players` are dicts in seat order with the seat's
    "name" and its cards (deal.deal_cards' "players", or the stored assignments)."""
    fields = CARD_FIELDS[ruleset]
    deal = {
        "lovers": [list(pair) for pair in lovers],
        "salt": salt,
        "seats": [[p["name"], *(p[f] for f in fields)] for p in players],
        "seed": seed,
    }
    return _canonical(deal)


def _canonical(deal) -> str:
    # ensure_ascii: the bytes hashed are the characters shown, whatever a terminal's
    # encoding; a quote is escaped too, so the text pastes between shell quotes.
    return json.dumps(deal, sort_keys=True, separators=(",", ":")).replace("'", "\\u0027")


def commitment(text: str) -> str:
    """The SHA-256 of the deal text, in hex: what the first post publishes."""
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def command(text: str) -> str:
    """The one-line shell command that prints the deal text's SHA-256."""
    return COMMAND.format(text=text)


class Verdict(NamedTuple):
    """Whether a deal text matches a commitment; `reason` names why not (narration
    words it): "bad_commitment", "not_ascii", "not_canonical" or "mismatch"."""

    matches: bool
    reason: str = ""


def verify(text: str, sealed: str) -> Verdict:
    """Check a deal text against a commitment. Whitespace around either is ignored (a
    paste brings a newline), as the shell's `$(cat deal.txt)` ignores it; inside, every
    byte counts."""
    text, sealed = text.strip(), sealed.strip().lower()
    if not HEX_DIGEST.match(sealed):
        return Verdict(False, "bad_commitment")
    if not text.isascii():
        return Verdict(False, "not_ascii")
    if hmac.compare_digest(commitment(text), sealed):
        return Verdict(True)
    return Verdict(False, "mismatch" if _is_canonical(text) else "not_canonical")


def _is_canonical(text: str) -> bool:
    """Whether `text` is a deal text as `deal_text` writes it (so a mismatch is a changed
    deal or salt, not a changed layout)."""
    try:
        deal = json.loads(text)
    except ValueError:
        return False
    keys = {"lovers", "salt", "seats", "seed"}
    return isinstance(deal, dict) and set(deal) == keys and _canonical(deal) == text
