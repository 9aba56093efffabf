"""The setup lab: each team's win chance for a setup, by simulating it through the engine.

Pure Python like the engine (no Django), so its games run in any process:
- setups.py: `Setup` (a ruleset, seats, a deal in Game.deal's shape, options), `SUGGESTED`;
- estimate.py: `simulate`, `by_size`, `Estimate` (JSON-able for a cache), `wilson`;
- bots.py: the bots' policies, each seeing only its seat's view (view.py: `SeatView`);
- play.py: one game of a setup played by the bots; parallel.py: games over processes;
- scaling.py: a setup at another size.
docs/lab.md describes the policies and the numbers.
"""
