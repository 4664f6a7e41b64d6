"""Issue 34.3: config/addresses.py, the client's address for every limit."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from config.addresses import UNKNOWN, client_address


def _request(remote: str, forwarded: str | None = None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


@pytest.mark.parametrize(
    ("proxies", "remote", "forwarded", "client"),
    [
        # Not behind a proxy: the header is anyone's to write, and ignored.
        (0, "203.0.113.9", "198.51.100.1", "203.0.113.9"),
        # Behind one proxy: the entry it appended, whatever the client wrote to its left.
        (1, "127.0.0.1", "203.0.113.9", "203.0.113.9"),
        (1, "127.0.0.1", "10.0.0.1, 198.51.100.1,203.0.113.9", "203.0.113.9"),
        # Two proxies (a CDN, then ours): the second from the right.
        (2, "127.0.0.1", "1.2.3.4, 203.0.113.9, 10.0.0.2", "203.0.113.9"),
        (2, "127.0.0.1", "203.0.113.9", "203.0.113.9"),  # fewer entries: the nearest
        # No header, or nothing readable in its entry: the connecting address.
        (1, "127.0.0.1", None, "127.0.0.1"),
        (1, "127.0.0.1", "nonsense", "127.0.0.1"),
        # Ports, brackets, IPv4 in IPv6, and an IPv6 client as its /64.
        (1, "127.0.0.1", "203.0.113.9:5555", "203.0.113.9"),
        (1, "127.0.0.1", "[2001:db8:1:2:3::4]:443", "2001:db8:1:2::"),
        (0, "2001:db8:1:2:ffff::1", None, "2001:db8:1:2::"),
        (0, "::ffff:203.0.113.9", None, "203.0.113.9"),
        (0, "", None, UNKNOWN),
    ],
)
def test_34_3_the_clients_address(settings, proxies, remote, forwarded, client):
    settings.GEARTABLE_TRUSTED_PROXY_COUNT = proxies
    assert client_address(_request(remote, forwarded)) == client
