"""Draw the installable app's icons (static/icons/*.png) from the site's palette: a white gear
on the accent blue, as the favicon. Plain and maskable (the gear inside the central 80% safe
zone, the blue to the edges), at the sizes the browsers ask for. Pure Python: no image library."""

import math
import struct
import zlib
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

ACCENT = (0x1A, 0x63, 0xD6)  # --accent in static/css/site.css
WHITE = (0xFF, 0xFF, 0xFF)
SIZES = (192, 512)
SAMPLES = 3  # per axis: anti-aliasing


def png(width: int, rows: list[bytes]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, len(rows), 8, 6, 0, 0, 0)  # 8-bit RGBA
    raw = b"".join(b"\x00" + row for row in rows)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def in_gear(x: float, y: float) -> bool:
    """A gear of radius 1 around (0, 0): 8 teeth, a body, a hole in its hub."""
    r = math.hypot(x, y)
    if r < 0.28:
        return False
    tooth = math.cos(8 * math.atan2(y, x)) > 0.25
    return r <= (1.0 if tooth else 0.78)


def draw(size: int, *, maskable: bool) -> bytes:
    # The gear's radius, as a share of the icon: the maskable safe zone is a circle of 40%.
    gear = 0.30 if maskable else 0.34
    rows = []
    for py in range(size):
        row = bytearray()
        for px in range(size):
            inside = ground = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (px + (sx + 0.5) / SAMPLES) / size - 0.5
                    y = (py + (sy + 0.5) / SAMPLES) / size - 0.5
                    inside += in_gear(x / gear, y / gear)
                    ground += maskable or math.hypot(x, y) <= 0.48
            n = SAMPLES * SAMPLES
            white = inside / n
            colour = [round(a + (w - a) * white) for a, w in zip(ACCENT, WHITE, strict=True)]
            alpha = round(255 * max(ground / n, white))
            row += bytes([*colour, alpha])
        rows.append(bytes(row))
    return png(size, rows)


class Command(BaseCommand):
    help = "Draw static/icons/icon-<size>.png and maskable-<size>.png (the app's icons)."

    def handle(self, *args, **options):
        folder = Path(settings.BASE_DIR) / "static" / "icons"
        folder.mkdir(parents=True, exist_ok=True)
        for size in SIZES:
            for maskable in (False, True):
                name = f"{'maskable' if maskable else 'icon'}-{size}.png"
                (folder / name).write_bytes(draw(size, maskable=maskable))
                self.stdout.write(f"static/icons/{name}")
