"""`make bench`'s parts, one module each; `python manage.py bench --only NAME` runs one.

Each part has `run(write, options)`: it measures and writes one line per number. The
numbers are recorded in docs/benchmarks.md; speed is measured here, never by timed tests.
"""

from importlib import import_module

# In the order `make bench` runs them.
PARTS = ("engine", "posts", "clock", "burst", "inputs", "load", "page", "threads", "reading", "lab")


def run(name, write, options):
    import_module(f"{__name__}.{name}").run(write, options)
