"""The client's address: the one answer every limit keyed on an address reads (allauth's log-in
locks and rate limits through `accounts.adapter`, the API's bad-token limit, the stream
process's streams per address). Nothing else reads the connecting address or X-Forwarded-For
(tests/test_code_shape.py checks it).

The proxy rule, decided here once: without BEHIND_PROXY the connecting address is the client
(a X-Forwarded-For header is anyone's to write, so it is ignored). Behind the proxy every
request connects from the proxy, and the client is the entry of X-Forwarded-For that our own
proxies appended: the GEARTABLE_TRUSTED_PROXY_COUNT-th from the right (nginx's
`$proxy_add_x_forwarded_for` appends the address it was connected from; whatever the client
wrote itself is further left, and never read). An IPv6 client is its /64 network, as allauth
counts it: one machine holds a whole /64, and must not get a fresh limit from each address.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest

IPV6_PREFIX = 64
UNKNOWN = "-"  # no address that reads as one: every such request shares one limit


def client_address(request: HttpRequest) -> str:
    """The address of the client that sent `request` (a WSGI or an ASGI one), as its limits
    count it: an IPv4 address, an IPv6 /64 network's first address, or UNKNOWN."""
    count = settings.GEARTABLE_TRUSTED_PROXY_COUNT
    if count:
        hops = [h.strip() for h in request.headers.get("X-Forwarded-For", "").split(",")]
        hops = [h for h in hops if h]
        if hops:
            # Fewer entries than proxies: a request that skipped the outer ones (or a proxy
            # that sent none of its own); the left-most is then the nearest to the client.
            found = _normalised(hops[-count] if len(hops) >= count else hops[0])
            if found != UNKNOWN:
                return found
    return _normalised(request.META.get("REMOTE_ADDR") or "")


def _normalised(text: str) -> str:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # "[2001:db8::1]:443"
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # "203.0.113.9:443"
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return UNKNOWN
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False).network_address)
    return str(address)
