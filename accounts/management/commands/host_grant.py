"""`python manage.py host_grant NAME_OR_EMAIL` lets a member open games; `--revoke` takes
it back. The same as adding or removing "games | game | Can add game" on the user in the
admin (docs/hosting.md)."""

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from accounts.models import User, player_key_for
from accounts.services import host_grant, host_revoke
from games.permissions import can_host


class Command(BaseCommand):
    help = "Let a member host games (or, with --revoke, no longer), by player name or email."

    def add_arguments(self, parser):
        parser.add_argument("member", help="the member's player name or email address")
        parser.add_argument("--revoke", action="store_true", help="take hosting back")

    def handle(self, *args, member, revoke, **options):
        user = User.objects.filter(
            Q(player_key=player_key_for(member)) | Q(email=member.lower())
        ).first()
        if user is None:
            raise CommandError(f"No member has the player name or email address {member!r}.")
        if revoke:
            host_revoke(user)
        else:
            host_grant(user)
        user = User.objects.get(pk=user.pk)  # has_perm caches what it read
        if can_host(user):
            note = " (a superuser, or through a group)" if revoke else ""
            self.stdout.write(f"{user.player_name} can host games{note}.")
        else:
            inactive = "" if user.is_active else " (the account is inactive)"
            self.stdout.write(f"{user.player_name} cannot host games{inactive}.")
