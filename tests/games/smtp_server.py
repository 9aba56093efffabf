"""A real SMTP server on loopback for the game emails' delivery tests (aiosmtpd, in a
thread of its own): it keeps every message it accepts, refuses the addresses it is told
to with a 5xx (as a mail server refuses an unknown mailbox), and can be stopped and
started again on the same port (an outage)."""

import asyncio
import logging
import socket
import threading
import time
from email import message_from_bytes
from email.header import decode_header, make_header

from aiosmtpd.controller import Controller

LOOPBACK = "127.0.0.1"
logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's every SMTP line


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


class Handler:
    def __init__(self, refuse=()):
        self.refuse = set(refuse)
        self.messages = []  # (recipient, subject) of each message accepted
        self.bodies = []  # each message accepted, parsed
        self.rcpt_tries = []  # every RCPT TO the server saw, accepted or not
        self.busy_after = None  # a number: a 451 ("try later") once it accepted that many
        self.hang_up = False  # True: the server closes the connection after each message
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        with self.lock:
            self.rcpt_tries.append(address)
        if address in self.refuse:
            return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.busy_after is not None and len(self.messages) >= self.busy_after:
            return "451 4.3.0 Mail server busy, try again later"
        message = message_from_bytes(envelope.content)
        subject = str(make_header(decode_header(message["Subject"])))
        with self.lock:
            for recipient in envelope.rcpt_tos:
                self.messages.append((recipient, subject))
                self.bodies.append(message)
        session.delivered = True
        return "250 Message accepted for delivery"

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if self.hang_up and getattr(session, "delivered", False):
            # As a server does at its idle timeout: a 421, and the connection closes.
            asyncio.get_running_loop().call_soon(server.transport.close)
            return "421 4.4.2 Timeout, closing connection"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"


class SmtpServer:
    """`start()`, `stop()`, `start()` again: the same port, the same handler."""

    def __init__(self, refuse=()):
        self.handler = Handler(refuse)
        self.port = _free_port()
        self._controller = None

    def start(self) -> "SmtpServer":
        self._controller = Controller(self.handler, hostname=LOOPBACK, port=self.port)
        self._controller.start()
        return self

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    @property
    def messages(self) -> list:
        with self.handler.lock:
            return list(self.handler.messages)

    def to(self, address: str) -> list[str]:
        """The subjects of the messages accepted for `address`."""
        return [subject for recipient, subject in self.messages if recipient == address]

    def settings(self, settings) -> None:
        """Point Django's SMTP backend at this server (pytest-django's `settings`)."""
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST = LOOPBACK
        settings.EMAIL_PORT = self.port
        settings.EMAIL_USE_TLS = False
        settings.EMAIL_USE_SSL = False
        settings.EMAIL_HOST_USER = ""
        settings.EMAIL_HOST_PASSWORD = ""
        settings.EMAIL_TIMEOUT = 5


def wait_for(predicate, timeout=30.0, every=0.1, then=None):
    """Poll `predicate` until it is true (True) or `timeout` passes (False); `then()` is
    called between polls (e.g. sending the beat's sweep)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        if then is not None:
            then()
        time.sleep(every)
    return predicate()
