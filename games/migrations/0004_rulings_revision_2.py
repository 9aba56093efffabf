"""Rulings revision 2 (W-5a, W-8a, W-19, W-72a/b, W-73..W-75, WW-7): the engine now
resolves some inputs differently. A game's state is replayed from its inputs, so this
migration refuses to go on while any stored game would replay into events other than
the ones it announced; it changes no row. `manage.py replay_check` runs the same check.
"""

from django.db import migrations


def check_stored_games(apps, schema_editor):
    if not apps.get_model("games", "Game").objects.exclude(status="open").exists():
        return  # a new database: nothing was announced yet
    # The check needs today's engine and mapping, not the historical models: it asks
    # whether this release's rules reproduce what the stored games announced.
    from games.selectors.replays import describe, stored_games_that_differ

    differ = stored_games_that_differ()
    if differ:
        raise RuntimeError(describe(differ))


class Migration(migrations.Migration):
    dependencies = [("games", "0003_early_end_grace")]

    operations = [migrations.RunPython(check_stored_games, migrations.RunPython.noop)]
