"""Email backends for tests of what happens while the mail server is down."""

import smtplib

from django.core.mail.backends.base import BaseEmailBackend


class DownBackend(BaseEmailBackend):
    """A mail server that cannot be reached: every send raises, as smtplib's does."""

    attempts = 0

    def send_messages(self, email_messages):
        type(self).attempts += 1
        raise smtplib.SMTPConnectError(421, "mail server down for the test")
