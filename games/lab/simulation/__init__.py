"""The setup lab's simulation: each team's win chance for a setup, by playing it through
the engine.

Pure Python like the engine (no Django; its ruff.toml says so), so its games run in any
process, the lab worker's pool and the `balance` command alike:
- setups.py: `Setup` (a ruleset, seats, a deal in Game.deal's shape, options), `SUGGESTED`;
- skills.py: the bots' skill settings (careless, typical, sharp; random, the baseline);
- estimate.py: `simulate`, `by_size`, `Estimate` (JSON-able for a cache), `wilson`, `Band`
  (a team's share from careless to sharp play);
- calibration.py: the estimate beside seeded test games of mixed skill;
- bots.py: the bots' policies, each seeing only its seat's view (view.py: `SeatView`);
  skills.py: how well they play (random, careless, typical, sharp); claims.py: the
  public talk of a simulated day; belief.py: what the village believes of who is evil;
  random_policy.py: the random-lynch baseline's bots;
- play.py: one game of a setup played by the bots; parallel.py: games over processes;
- scaling.py: a setup at another size;
- report.py: estimates as plain-text tables (the `balance` command's);
- chart.py: an estimate drawn as an inline SVG (matplotlib, loaded by the workers alone).
docs/lab.md describes the policies and the numbers.
"""
