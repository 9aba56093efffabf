"""The games.moderate_any_game permission: granted in the admin, it makes a user the
moderator of every game (games/permissions.py). Staff status alone no longer does; the
host still moderates their own game. Django creates the permission row after migrating."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0004_rulings_revision_2")]

    operations = [
        migrations.AlterModelOptions(
            name="game",
            options={
                "ordering": ["-created_at"],
                "permissions": [("moderate_any_game", "Can moderate every game")],
            },
        ),
    ]
