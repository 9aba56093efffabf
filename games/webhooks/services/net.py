"""One HTTP request to a destination, politely and safely (SSRF):

- the host is resolved here and EVERY address it resolves to is checked: a private,
  loopback, link-local, shared, multicast or reserved one is refused (unless the
  operator's WEBHOOK_ALLOW_PRIVATE allows it: tests, or a site bridging to its own LAN);
- the connection goes to the address that was checked (TLS still checks the host's
  certificate by name), so a DNS answer that changes in between cannot redirect it;
- plain http is refused too unless WEBHOOK_ALLOW_PRIVATE;
- a short timeout (WEBHOOK_TIMEOUT seconds per step), no redirect followed (a 3xx is an
  answer like any other), at most RESPONSE_MAX bytes of the answer read.

Errors say what went wrong in a few words and never carry the address or its token.
"""

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

RESPONSE_MAX = 64 * 1024


class Refused(Exception):
    """A request we will not make (the address is not allowed): the row fails for good."""


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict  # lowercased names
    body: bytes


def is_public(ip) -> bool:
    ip = ipaddress.ip_address(ip)
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def addresses_checked(host: str, port: int) -> list[str]:
    """Every address `host` resolves to, each allowed, or Refused."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise ConnectionError("the host name does not resolve") from exc
    found = list(dict.fromkeys(info[4][0] for info in infos))
    if not found:
        raise ConnectionError("the host name does not resolve")
    if not settings.WEBHOOK_ALLOW_PRIVATE:
        for address in found:
            if not is_public(address):
                raise Refused("refused: the host is a private or reserved address")
    return found


class _Pinned(http.client.HTTPConnection):
    """An HTTP connection to the checked address, the Host header still the host's."""

    def __init__(self, host, port, address, timeout):
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self):
        self.sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _PinnedTLS(_Pinned):
    default_port = 443

    def connect(self):
        super().connect()
        context = ssl.create_default_context()
        self.sock = context.wrap_socket(self.sock, server_hostname=self.host)


def request(method: str, url: str, body: bytes = b"", headers: dict | None = None) -> Answer:
    """The answer to one request; raises Refused, or OSError / http.client errors (each
    counted as a failure that may pass: a retry)."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise Refused("refused: not an https address")
    if parts.scheme == "http" and not settings.WEBHOOK_ALLOW_PRIVATE:
        raise Refused("refused: not an https address")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise Refused("refused: not a valid address") from exc
    address = addresses_checked(parts.hostname, port)[0]
    kind = _PinnedTLS if parts.scheme == "https" else _Pinned
    connection = kind(parts.hostname, port, address, settings.WEBHOOK_TIMEOUT)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read(RESPONSE_MAX)
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, data)
    finally:
        connection.close()
