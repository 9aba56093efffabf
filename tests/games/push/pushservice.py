"""A stand-in for a browser's push service on 127.0.0.1, and a browser's keys for it.

The server does what a real push service does with a message, and checks what one checks:
- the VAPID Authorization header (RFC 8292): `vapid t=<JWT>, k=<key>`, the JWT signed
  (ES256) by the key it names, which must be the site's public key, its `aud` the
  service's own origin, its `exp` in the future and at most a day away, its `sub` a
  mailto: or https: contact; a message without it, or with a bad one, is refused (401);
- the encrypted body (RFC 8188, aes128gcm), which it decrypts as the browser would, with
  the subscription's private key and authentication secret (RFC 8291).
Each path is one subscription: `/push/<token>` takes messages (201), `/gone/<token>` says
the subscription is gone (410), `/broken/<token>` fails (500). What it received is kept,
decrypted, with the headers, their names in lower case (`received`); what it refused,
with why (`refused`).
"""

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class BrowserKeys:
    """What a browser makes when it subscribes: a P-256 key pair and a 16-byte secret."""

    private: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(
            self.private.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    @property
    def auth_b64(self) -> str:
        return b64url(self.auth)


@dataclass
class Received:
    path: str
    headers: dict
    plaintext: bytes

    @property
    def message(self) -> dict:
        return json.loads(self.plaintext)


def vapid_problem(header: str, origin: str, public_key: str) -> str | None:
    """Why a VAPID Authorization header is not good for `origin` (None: it is)."""
    if not header.startswith("vapid "):
        return "no vapid scheme"
    parts = dict(p.strip().split("=", 1) for p in header[len("vapid ") :].split(",") if "=" in p)
    token, key = parts.get("t", ""), parts.get("k", "")
    if key != public_key:
        return "not the site's key"
    try:
        head, body, signature = token.split(".")
        point = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
        raw = unb64url(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        point.verify(der, f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))
        header_json, claims = json.loads(unb64url(head)), json.loads(unb64url(body))
    except (ValueError, InvalidSignature):
        return "bad signature"
    if header_json.get("alg") != "ES256":
        return "not ES256"
    if claims.get("aud") != origin:
        return f"aud {claims.get('aud')!r} is not {origin!r}"
    if not time.time() < claims.get("exp", 0) <= time.time() + 86400:
        return "bad exp"
    if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
        return "bad sub"
    return None


class PushService:
    def __init__(self, public_key: str):
        self.public_key = public_key
        self.browsers: dict[str, BrowserKeys] = {}  # token -> keys
        self.received: list[Received] = []
        self.refused: list[tuple[str, str]] = []
        self._lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length)
                headers = {k.lower(): v for k, v in self.headers.items()}
                status = service.take(self.path, headers, body)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    def subscription(self, kind="push"):
        """A new browser's subscription, as PushSubscription.toJSON() gives it."""
        token = b64url(os.urandom(12))
        keys = BrowserKeys()
        self.browsers[token] = keys
        return {
            "endpoint": f"{self.origin}/{kind}/{token}",
            "keys": {"p256dh": keys.p256dh, "auth": keys.auth_b64},
        }

    def take(self, path, headers, body) -> int:
        kind, _, token = path.strip("/").partition("/")
        problem = vapid_problem(headers.get("authorization", ""), self.origin, self.public_key)
        if problem is None and headers.get("content-encoding") != "aes128gcm":
            problem = "not aes128gcm"
        if problem is None and "ttl" not in headers:
            problem = "no TTL"
        if problem:
            with self._lock:
                self.refused.append((path, problem))
            return 401 if "vapid" in problem or "key" in problem else 400
        if kind == "gone":
            return 410
        if kind == "broken":
            return 500
        keys = self.browsers.get(token)
        if keys is None:
            return 404
        plaintext = http_ece.decrypt(
            body, private_key=keys.private, auth_secret=keys.auth, version="aes128gcm"
        )
        with self._lock:
            self.received.append(Received(path, headers, plaintext))
        return 201

    def messages_to(self, subscription) -> list[dict]:
        path = "/" + subscription["endpoint"].split("/", 3)[3]
        return [r.message for r in self.received if r.path == path]
