"""The visitor's address behind the TLS proxy.

The proxy (Caddy in docker-compose.yml) connects to gunicorn itself, so REMOTE_ADDR is the
proxy's address for everyone; it names the visitor's in X-Forwarded-For. That header is
believed only on a request whose REMOTE_ADDR is in settings.TRUSTED_PROXIES: from anywhere
else it is whatever the sender wished to write. The header is read from the right, where
the proxies append, and the first address that is not a trusted proxy is the visitor's.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@lru_cache(maxsize=8)
def _networks(configured: tuple[str, ...]):
    return tuple(ipaddress.ip_network(network) for network in configured)


def _parse(text: str) -> Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [2001:db8::1]:443
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # 198.51.100.7:443
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


def client_address(request: HttpRequest) -> str | None:
    """The visitor's IP address as text, or None when the connection has none."""
    remote = _parse(request.META.get("REMOTE_ADDR", ""))
    if remote is None:
        return None
    networks = _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ())))

    def trusted(address: Address) -> bool:
        return any(address in network for network in networks)

    if not trusted(remote):
        return str(remote)
    # Several X-Forwarded-For lines arrive joined by commas, in order.
    for entry in reversed(request.headers.get("X-Forwarded-For", "").split(",")):
        address = _parse(entry)
        if address is None:
            break  # not written by a proxy of ours: nothing to its left can be believed
        if not trusted(address):
            return str(address)
        remote = address
    # Only proxies, or no usable header (the proxy's own requests): the last proxy seen.
    return str(remote)
