"""Celery tasks of the accounts app: sending the account emails (accounts/mail.py)."""

from smtplib import SMTPException, SMTPRecipientsRefused

from celery import shared_task

from .mail import message_from_data


# A mail server that is down, refuses or times out (SMTPException, or an OSError such as a
# refused connection or a timeout) is tried again 30 s later, then 1, 2, 4, 8 and 16
# minutes later, then every 30 minutes: thirteen tries over about three and a half hours,
# well within the three days a verification or reset link stays valid. (Each pause stays
# below the Redis broker's one-hour visibility timeout, so no retry is delivered twice.)
# An address the server refuses outright is not tried again.
@shared_task(
    name="accounts.tasks.send_account_email",
    ignore_result=True,
    autoretry_for=(SMTPException, OSError),
    dont_autoretry_for=(SMTPRecipientsRefused,),
    retry_backoff=30,
    retry_backoff_max=30 * 60,
    retry_jitter=False,
    max_retries=12,
)
def send_account_email(data: dict) -> None:
    message_from_data(data).send()
