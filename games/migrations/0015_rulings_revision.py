"""Rulings revision 3 (W-76): every game records the revision of the rulings it started
under and is played to its end under it. Every game already stored was played under
revision 2b, so it is set to "2b" (the column is added with that default, then the default
becomes the engine's current revision, "3", for the games made from now on; a game still
open for sign-ups is given the current one when it is dealt, services/games.py).

No game needs to be finished before this upgrade, unlike revision 2's (0004): each game
replays under its own revision (games/mapping.py), so a stored game announces nothing
new; `manage.py replay_check` says so for every one of them.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_public_changes"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="revision",
            field=models.CharField(
                choices=[("2b", "Rulings revision 2b"), ("3", "Rulings revision 3")],
                default="2b",
                editable=False,
                max_length=8,
                verbose_name="rulings revision",
            ),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="game",
            name="revision",
            field=models.CharField(
                choices=[("2b", "Rulings revision 2b"), ("3", "Rulings revision 3")],
                default="3",
                editable=False,
                max_length=8,
                verbose_name="rulings revision",
            ),
        ),
    ]
