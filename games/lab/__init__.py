"""The setup lab: each team's win chance for a setup, by simulating it through the engine,
with its pages (/lab/, /lab/<address>/), its worker's job and its commands.

- simulation/: the pure simulation (no Django, its own ruff.toml): setups, bots, the
  estimate, its games over processes, the chart;
- jobs.py: a job's record in the cache (pure data); services/: its writes (start, run,
  limits, store, chart, and the calibration's test games played as site games);
  selectors.py: its reads (a job's page, the suggested setups with their estimates, the
  site's finished games of a setup); narration.py: its words; forms.py: the lab's setup form;
  views.py and urls.py: its pages; tasks.py: the `lab_estimate` task (still named
  "games.tasks.lab_estimate", routed to the `lab` queue), a job's `lab_chunk` and
  `lab_round` tasks, and the worker's warm-up;
  management/commands: `balance`, `lab_fill` and `lab_calibrate`.

It listens to the core's events: NEW_GAME_INITIAL (receivers.py): ?suggested=witchhunt-12
fills the new-game form with that suggested setup. Its job is connected by name
(`queue.connect_job("lab_estimate", ...)`) in apps.py.

It offers panels (panels.py) on the NEW_GAME page: "suggestions", the suggested setups with
the estimates kept (before the form) and, for a picked one, its estimate in words with its
band and the site's finished games of it, and "actions", the form's "Estimate this setup's
balance" button, which posts the form's setup to /lab/.

docs/lab.md describes the policies, the numbers and the limits.

Changelog:
- 2026-12-01 (issue 17): the lab's pages; a job plays on every core (LAB_WORKERS billiard
  processes, each playing every n-th chunk, handed on in the games' order); the first
  estimate on time (a lab worker draws a chart before its pool forks; the job draws its
  first estimate 0.25 s before LAB_FIRST_SECONDS).
- 2026-12-02 (issue 25): a member's own setup is estimated for them alone at an opaque
  address, and the lab is shared fairly (one job at work per member, LAB_QUEUE_MAX site-
  wide, a sliding window of units); a job queued at a custom setup's key before addresses
  were opaque is not run.
- The lab became a capability package of its own: the simulation moved to
  games/lab/simulation/, the web side (services, selectors, views, narration, templates,
  the task, the commands) from the core into this package, and the new-game form's
  suggested setups became the lab's NEW_GAME panels.
- 2026-12-03 (issue 32): a job's games are Celery chunk tasks on the `lab` queue, a chord
  per round (services/rounds.py), so every lab worker on every machine serves every job
  and jobs take turns; the first round stops at the first estimate's deadline; the skill
  band (careless and sharp bots) beside the estimate; a job can be cancelled (its chunks
  revoked). Without Redis the job's task plays its rounds itself.
- 2026-12-03 (issue 32): an estimate for bots of a skill (skills.py), the band of the
  Village's share from careless to sharp play beside the typical estimate (the page, the
  command, the new-game form's words), the site's finished games of a setup beside it
  (selectors.lab_observed), and `lab_calibrate`'s table of seeded test games.
"""
