"""A calendar address's secret: a random nonce kept in the row, and the token in the
address derived from it with the site's secret key. The row keeps the token's SHA-256 to
find the feed by; so the profile can show the address again, and a copy of the database
alone opens no feed. A new SECRET_KEY gives every member a new address (the old ones are
404s, like revoked ones)."""

import base64
import hashlib
import hmac
import secrets

from django.conf import settings

TOKEN_CHARS = 32  # base64url characters: 192 bits
NONCE_BYTES = 32


def new_nonce() -> str:
    return secrets.token_hex(NONCE_BYTES)


def token_for(nonce: str) -> str:
    digest = hmac.new(
        settings.SECRET_KEY.encode(), f"calendar-feed:{nonce}".encode(), hashlib.sha256
    ).digest()
    return base64.urlsafe_b64encode(digest).decode()[:TOKEN_CHARS]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
