"""factory-boy factories for rows other suites build on."""

import factory
from allauth.account.models import EmailAddress

from accounts.models import User

DEFAULT_PASSWORD = "correct-horse-battery-staple"


class UserFactory(factory.django.DjangoModelFactory):
    """A member with a verified primary email (pass email_verified=False for one without),
    who can sign in with DEFAULT_PASSWORD."""

    class Meta:
        model = User
        skip_postgeneration_save = True

    player_name = factory.Sequence(lambda n: f"Player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.player_name.lower()}@example.com")
    password = factory.django.Password(DEFAULT_PASSWORD)

    @factory.post_generation
    def email_verified(user, create, extracted, **kwargs):
        # allauth reads verification from its own table, not from the user row.
        if create:
            EmailAddress.objects.create(
                user=user, email=user.email, primary=True, verified=extracted is not False
            )
