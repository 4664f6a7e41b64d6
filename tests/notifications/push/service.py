"""A push service on loopback, and the devices that subscribe to it: what the phone would show.

`PushService` is a real HTTP server (stdlib, a thread) that does what a browser vendor's push
service does with a push (RFC 8030, 8291, 8292): it checks the VAPID JWT (ES256 against the
public key in the `Authorization: vapid t=..., k=...` header, which must be the site's; `aud`
the endpoint's origin; `exp` in the future, at most a day ahead), answers 201, and keeps the
encrypted body. `Device` holds a subscription's private key and auth secret and decrypts each
body (`http_ece`, aes128gcm), as the browser would before showing it.

A test can make the service answer an endpoint with another status (410: the device is gone) or
redirect it elsewhere (307), or stop it (the push service is down) and start it again on the
same port. `Trap` is a port nobody may connect to: a listening socket that records whether
anyone did.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def vapid_pair() -> tuple[str, str]:
    """A VAPID key pair as the settings hold it: (public point, private number), base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(public), b64url(key.private_numbers().private_value.to_bytes(32, "big"))


class Device:
    """A browser's push subscription: its keys, and the decryption of what it is sent."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )

    def subscription(self) -> dict:
        """What `PushSubscription.toJSON()` gives the page."""
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(self.public), "auth": b64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> dict:
        clear = http_ece.decrypt(
            body, private_key=self.key, dh=None, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(clear)


@dataclass
class Push:
    """One push the service accepted (or refused), as received."""

    path: str
    headers: dict
    body: bytes
    claims: dict
    status: int


@dataclass
class PushService:
    """The loopback push service. `vapid_public` is the key the site signs with: a JWT signed
    with another key, or with a bad `aud` or `exp`, is refused with 401 (and recorded)."""

    vapid_public: str
    port: int = 0
    received: list[Push] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)  # path -> status to answer
    redirects: dict[str, str] = field(default_factory=dict)  # path -> a 307's Location
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self._server: ThreadingHTTPServer | None = None
        if not self.port:
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                self.port = probe.getsockname()[1]

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def endpoint(self, name: str) -> str:
        return f"{self.origin}/push/{name}"

    def device(self, name: str) -> Device:
        return Device(self.endpoint(name))

    def start(self) -> None:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status, claims = service.check(self)
                location = service.redirects.get(self.path)
                if location and status == 201:
                    status = 307
                with service.lock:
                    service.received.append(
                        Push(
                            self.path,
                            {k.lower(): v for k, v in self.headers.items()},
                            body,
                            claims,
                            status,
                        )
                    )
                self.send_response(status)
                if status == 307:
                    self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        ThreadingHTTPServer.allow_reuse_address = True
        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        """Down: nobody listens on the port (a push is refused at connect)."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def check(self, request: BaseHTTPRequestHandler) -> tuple[int, dict]:
        """The VAPID JWT of a push (RFC 8292): 201 if good, 401 (and why, in `errors`) if not;
        then the status the test asked for this endpoint."""
        try:
            claims = self.verify(request.headers.get("Authorization", ""), request.path)
        except ValueError as exc:
            with self.lock:
                self.errors.append(str(exc))
            return 401, {}
        if request.headers.get("Content-Encoding") != "aes128gcm":
            self.errors.append(f"Content-Encoding {request.headers.get('Content-Encoding')}")
            return 400, claims
        return self.answers.get(request.path, 201), claims

    def verify(self, authorization: str, path: str) -> dict:
        scheme, _, params = authorization.partition(" ")
        if scheme.lower() != "vapid":
            raise ValueError(f"not a vapid Authorization: {authorization!r}")
        fields = dict(part.strip().split("=", 1) for part in params.split(","))
        if fields.get("k") != self.vapid_public:
            raise ValueError("the JWT's key is not the site's")
        head, payload, signature = fields["t"].split(".")
        if json.loads(unb64url(head)) != {"typ": "JWT", "alg": "ES256"}:
            raise ValueError(f"JWT header {unb64url(head)!r}")
        raw = unb64url(signature)
        if len(raw) != 64:
            raise ValueError("an ES256 signature is 64 bytes")
        der = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(fields["k"]))
        try:
            key.verify(der, f"{head}.{payload}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise ValueError("the JWT's signature does not verify") from None
        claims = json.loads(unb64url(payload))
        if claims.get("aud") != self.origin:
            raise ValueError(f"aud {claims.get('aud')!r} is not {self.origin}")
        if not time.time() < claims.get("exp", 0) <= time.time() + 86400:
            raise ValueError(f"exp {claims.get('exp')} is not within the next day")
        if not str(claims.get("sub", "")).startswith(("mailto:", "https://")):
            raise ValueError(f"sub {claims.get('sub')!r}")
        return claims

    def accepted(self, path_name: str | None = None) -> list[Push]:
        with self.lock:
            return [
                p
                for p in self.received
                if p.status == 201 and (path_name is None or p.path == f"/push/{path_name}")
            ]


class Trap:
    """A listening socket on loopback (`host`, a free port) that accepts nothing: a connection
    made to it waits in its backlog, so once a sender's attempt is over, `connected()` says
    whether it connected, without waiting."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.socket = socket.socket()
        self.socket.bind((host, 0))
        self.socket.listen(8)
        self.socket.setblocking(False)
        self.host, self.port = self.socket.getsockname()
        self.seen = 0

    def connected(self) -> int:
        """How many connections were made to it so far."""
        while True:
            try:
                conn, _ = self.socket.accept()
            except BlockingIOError:
                return self.seen
            conn.close()
            self.seen += 1

    def close(self) -> None:
        self.socket.close()
