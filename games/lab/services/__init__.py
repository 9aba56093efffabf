"""The setup lab's writes: start an estimate (once per address and seed), and run one.

The record lives in Django's cache (games/lab/jobs.py says its shape), not in the
database: an estimate is derived data that any worker can make again, so losing it costs
only CPU time. The job itself is the `lab_estimate` task on the `lab` queue
(games/lab/tasks.py), asked for by name through games/queue.py.

- records.py: where an estimate is kept (`lab_address`), a job's plan, its record;
- limits.py: the lab is shared (`LabRefused`, `lab_cost`, the mutexes);
- start.py: `lab_start`; run.py: `lab_begin`/`lab_round_done` (a job's rounds as chunk
  tasks on the workers) and `lab_run` (here); rounds.py: what each round plays;
- cancel.py: `lab_cancel`, by the job's owner or staff;
- store.py: `lab_store`, an estimate made elsewhere; charts.py: a job's chart.
"""

from .cancel import lab_cancel, may_cancel
from .charts import chart_warm, render_chart, render_charts
from .limits import LabRefused, lab_cost
from .records import lab_address, plan_for
from .run import (
    FIRST_CHUNK,
    FIRST_DRAW_SECONDS,
    chunk_error,
    lab_begin,
    lab_round_done,
    lab_run,
    play,
)
from .start import lab_start
from .store import lab_store

__all__ = [
    "FIRST_CHUNK",
    "FIRST_DRAW_SECONDS",
    "LabRefused",
    "chart_warm",
    "chunk_error",
    "lab_begin",
    "lab_cancel",
    "lab_round_done",
    "may_cancel",
    "play",
    "lab_address",
    "lab_cost",
    "lab_run",
    "lab_start",
    "lab_store",
    "plan_for",
    "render_chart",
    "render_charts",
]
