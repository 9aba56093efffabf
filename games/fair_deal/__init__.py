"""The fair deal: the deal sealed at the start and checkable at the end (docs/fair-deal.md).

A capability of its own: the core never imports it. It listens to the core's events and
shows a panel on the reveal; the rest is its own pages.

- `fairness.py` (pure, no Django): the deal text (every seat's cards by seat name, the
  Lovers, the seed, a 256-bit salt), its SHA-256 commitment, the shell command that checks
  it, and the verdict on any text against any commitment.
- `services.py`: seals the deal as it is dealt, and words the start post that publishes
  the commitment.
- `selectors.py`: the one gate that shows the salt and the deal text, only once the game
  is finished, rebuilt from the stored cards and checked against the commitment.
- `narration.py`: the seal's sentence and the check's verdicts in words.
- `views.py`, `urls.py`: a game's sealed deal (`game_fair_deal`) and the check anyone can
  paste into (`fair_deal_check`); templates under `templates/fair_deal/`.

Events it listens to (receivers.py): GAME_DEALT (seal the deal, in the dealing
transaction, before the first post) and START_POST (refine: the start post gains the
fingerprint line and the link to the game's fair-deal page).

Panels it offers (panels.py): on the REVEAL page, "head" (its stylesheet) and "deal" (the
sealed deal opened and checked, with the link to how to check it by hand).

Changelog:
- Issue 17: a provably fair deal. The start seals the deal, the first post publishes the
  fingerprint, the reveal publishes the deal text with its salt and checks it; the salt
  and the deal stay out of every page, poll, email and download before the finish.
- Issue 25: a new game's seed is 128 bits (older games' 63 were within reach of rented
  hardware, which the salt inside the hashed text guards against).
- Moved out of the core into this package ("a core that announces, capabilities that
  listen"): the start seals through GAME_DEALT and START_POST, the reveal shows the deal as
  a panel.
"""
