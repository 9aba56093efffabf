"""The VAPID key pair's settings (games/push/keys.py): base64url, the private key the raw
P-256 scalar, the public key its uncompressed point. A deployment sets
WEBPUSH_VAPID_PRIVATE_KEY (and may set the public key, which is derived when it is not);
`make run` keeps a pair made once in var/, and the tests derive one from a constant."""

import base64
import hashlib
import json
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _pair(private: ec.EllipticCurvePrivateKey) -> tuple[str, str]:
    scalar = private.private_numbers().private_value.to_bytes(32, "big")
    point = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64(scalar), _b64(point)


def public_of(private_key: str) -> str:
    """The public key of a base64url raw private key."""
    raw = base64.urlsafe_b64decode(private_key + "=" * (-len(private_key) % 4))
    return _pair(ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1()))[1]


def derived_pair(seed: str) -> tuple[str, str]:
    """A pair that is the same on every run (the tests'): never for a site on the internet."""
    scalar = int.from_bytes(hashlib.sha256(seed.encode()).digest(), "big")
    return _pair(ec.derive_private_key(scalar % (2**255) + 1, ec.SECP256R1()))


def local_pair(var_dir: Path) -> tuple[str, str]:
    """The pair `make run` keeps in var/: made on the first start, then kept, so that the
    browsers subscribed on a developer's machine keep working across restarts."""
    path = var_dir / "webpush-vapid.json"
    try:
        data = json.loads(path.read_text())
        return data["private"], data["public"]
    except (OSError, ValueError, KeyError):
        pass
    private, public = _pair(ec.generate_private_key(ec.SECP256R1()))
    var_dir.mkdir(exist_ok=True)
    path.write_text(json.dumps({"private": private, "public": public}))
    path.chmod(0o600)
    return private, public
