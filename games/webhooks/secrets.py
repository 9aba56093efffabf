"""The destinations' secrets, sealed at rest (Fernet): a Discord or Slack webhook's
address (which is its own credential), a Matrix access token, a generic endpoint's
`whsec_` key. The key is WEBHOOK_SECRET_KEY's, or derived from SECRET_KEY when it is
blank, so a database dump alone opens none of them. A secret is shown once, when it is
made, and never again: no page, admin form, log or delivery row carries it."""

import base64
import hashlib
import secrets

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings


def _fernet() -> Fernet:
    source = settings.WEBHOOK_SECRET_KEY or settings.SECRET_KEY
    digest = hashlib.sha256(b"witchhunt.webhooks.secrets:" + source.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def seal(value: str) -> str:
    return _fernet().encrypt(value.encode()).decode() if value else ""


def unseal(sealed: str) -> str:
    """The secret, or "" when it cannot be opened (the key changed): the send then fails
    in words, and the moderator adds the destination again."""
    if not sealed:
        return ""
    try:
        return _fernet().decrypt(sealed.encode()).decode()
    except InvalidToken:
        return ""


def signing_secret_new() -> str:
    """A generic endpoint's Standard Webhooks key: `whsec_` and 32 random bytes, base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
