"""How a member signs in, and how each request finds them again.

allauth's backend (the email and password, checked once), whose `get_user`, the query the
authentication middleware sends on every signed-in request, reads with the member's row
whether they moderate every game (games.permissions.moderation_granted): the game page's
`can_moderate` then costs no query. Read on every request, a grant or a revoke in the admin
holds from the member's next page.
"""

from allauth.account.auth_backends import AuthenticationBackend
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied

from games.permissions import moderation_granted


class MemberBackend(AuthenticationBackend):
    def authenticate(self, request, **credentials):
        user = super().authenticate(request, **credentials)
        if user is None and credentials.get("password"):
            # The backends listed after this one (settings) only find again the members
            # who signed in before it: they would check the same password again, each a
            # hash's time. Refused here, refused.
            raise PermissionDenied
        return user

    def get_user(self, user_id):
        user = (
            get_user_model()
            ._default_manager.annotate(_moderates_every_game=moderation_granted())
            .filter(pk=user_id)
            .first()
        )
        return user if user is not None and self.user_can_authenticate(user) else None
