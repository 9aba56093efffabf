"""The site's VAPID key pair (RFC 8292): the push services know our messages by it.

The keys are settings (WEBPUSH_VAPID_PRIVATE_KEY, WEBPUSH_VAPID_PUBLIC_KEY, read from the
environment; docs/environment.md). Both are base64url without padding: the private key
the raw 32-byte scalar, the public key the uncompressed P-256 point, the form a browser's
`applicationServerKey` takes. `manage.py push_keys` prints a new pair.
"""

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid02


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def key_pair(private: ec.EllipticCurvePrivateKey | None = None) -> tuple[str, str]:
    """(private, public), base64url, of `private` or of a new key."""
    private = private or ec.generate_private_key(ec.SECP256R1())
    scalar = private.private_numbers().private_value.to_bytes(32, "big")
    point = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(scalar), b64url(point)


def public_key() -> str:
    """The key browsers subscribe with; empty when push is not set up."""
    return settings.WEBPUSH_VAPID_PUBLIC_KEY if settings.WEBPUSH_VAPID_PRIVATE_KEY else ""


def is_enabled() -> bool:
    return bool(public_key())


def signer() -> Vapid02:
    return Vapid02.from_raw(settings.WEBPUSH_VAPID_PRIVATE_KEY.encode())
