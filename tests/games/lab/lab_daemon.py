"""A lab worker's processes, for tests/games/lab/test_lab_worker.py: a small job played in
one process, and (run as `python -m tests.games.lab.lab_daemon QUEUES`) a worker's main
process as it is set up. Its own module, importing Django only once set up: a spawned process
imports it before anything else."""

import os
import sys

SMALL_JOB = {"LAB_FIRST_SECONDS": 0, "LAB_FIRST_GAMES": 200, "LAB_SIZE_GAMES": 20, "LAB_GAMES": 300}


def run_small_job():
    """Run the werewolf-8 job of SMALL_JOB's size here, one chunk after another: its record
    (tests/games/lab/test_lab_chunks.py compares the workers' with it)."""
    from django.conf import settings
    from django.core.cache import cache
    from django.test import override_settings

    from games.lab import jobs
    from games.lab.services import lab_run, lab_start
    from games.lab.simulation.setups import find_suggested

    setup = find_suggested("werewolf-8")
    with override_settings(**SMALL_JOB):
        assert lab_start(setup=setup, queued=False)
        assert lab_run(address=setup.key(), seed=settings.LAB_SEED) == jobs.DONE
    return cache.get(jobs.record_key(setup.key(), settings.LAB_SEED))


def worker_set_up(queues):
    """A `celery worker -Q QUEUES` set up as the command sets it up, before its pool starts:
    (whether matplotlib was loaded before, and after; how much nicer the process became)."""
    import django

    django.setup()
    from celery.apps.worker import Worker
    from celery.signals import celeryd_after_setup

    from witchhunt.celery import app

    app.loader.import_default_modules()  # the tasks' module and its receivers
    worker = Worker(app=app, queues=queues, hostname="probe@here", quiet=True)
    before, niceness = "matplotlib" in sys.modules, os.nice(0)
    celeryd_after_setup.send(sender=worker.hostname, instance=worker, conf=app.conf)
    return before, "matplotlib" in sys.modules, os.nice(0) - niceness


if __name__ == "__main__":
    print(*worker_set_up(sys.argv[1].split(",")))
