"""The fair deal: the deal sealed at the start and checkable at the end (docs/fair-deal.md).

Sealing the deal when it is dealt (GAME_DEALT), its line in the start post (START_POST),
the check page after the end.
"""
