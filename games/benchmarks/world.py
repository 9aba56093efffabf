"""A world of a benchmark's own: a migrated throwaway database, an in-memory broker and
mail box, and a cache, so a bench never touches the development data and no cached state
can meet the real games' ids."""

from contextlib import contextmanager

from django.db import connection
from django.test.utils import override_settings

LOCMEM = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
# The game page's parts: a store of its own (in-memory caches of one LOCATION share one),
# so that clearing them leaves the states and sessions.
PAGES = {**LOCMEM, "LOCATION": "pages"}


@contextmanager
def throwaway_world(name, *, cache=None, conn_max_age=None, **settings):
    """Inside: the database `name` (on SQLite an in-memory one), `cache` (an in-memory one by
    default) and `settings` overridden; everything dropped or restored on the way out."""
    from witchhunt.celery import app

    app.conf.update(broker_url="memory://localhost/", broker_transport_options={})
    db = connection.settings_dict
    test = db.setdefault("TEST", {})
    saved = test.get("NAME"), db.get("CONN_MAX_AGE")
    if connection.vendor != "sqlite":
        test["NAME"] = name  # a test run's test_witchhunt is never clobbered
    if conn_max_age is not None:
        db["CONN_MAX_AGE"] = conn_max_age
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        with override_settings(
            CACHES={"default": cache or LOCMEM, "pages": PAGES if cache is None else cache},
            EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
            **settings,
        ):
            yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        test["NAME"], db["CONN_MAX_AGE"] = saved
