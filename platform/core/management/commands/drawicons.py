"""Draw the installed app's icons (``static/img/icons/*.png``): a white card with a black spade on the felt.

Pure Python (zlib and struct, no imaging library): each pixel is the share of 4 x 4 samples inside the shapes.
Run again only when the design changes; the PNGs are committed.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

FELT = (10, 54, 34)
CARD = (253, 252, 247)
INK = (27, 27, 27)
SAMPLES = 4


def _inside_rounded(x: float, y: float, left: float, top: float, right: float, bottom: float, r: float) -> bool:
    if not (left <= x <= right and top <= y <= bottom):
        return False
    cx = min(max(x, left + r), right - r)
    cy = min(max(y, top + r), bottom - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _spade(x: float, y: float) -> bool:
    """A spade in the unit square: an upturned heart (two lobes and a point) over a flared stem."""
    lobes = (x - 0.33) ** 2 + (y - 0.6) ** 2 <= 0.17**2 or (x - 0.67) ** 2 + (y - 0.6) ** 2 <= 0.17**2
    # the point: from the lobes' outer sides up to the tip at (0.5, 0.1)
    point = 0.1 <= y <= 0.62 and abs(x - 0.5) <= (y - 0.1) * (0.34 / 0.45)
    stem = 0.6 <= y <= 0.92 and abs(x - 0.5) <= 0.035 + (y - 0.6) * 0.5
    return lobes or point or stem


def _colour(x: float, y: float, margin: float) -> tuple[int, int, int]:
    """The colour at (x, y) of the unit square; ``margin``: the maskable icon keeps the card in its safe zone."""
    m = margin
    card = (0.22 + m * 0.6, 0.1 + m, 0.78 - m * 0.6, 0.9 - m)
    if not _inside_rounded(x, y, *card, 0.06):
        return FELT
    w, h = card[2] - card[0], card[3] - card[1]
    sx, sy = (x - card[0]) / w, (y - card[1]) / h
    # the spade is drawn square: in the card's width, centred on its height
    sy = 0.5 + (sy - 0.5) * h / w
    return INK if _spade(sx, sy) else CARD


def draw(size: int, margin: float = 0.0) -> bytes:
    rows = []
    for py in range(size):
        row = bytearray([0])  # the filter byte: none
        for px in range(size):
            total = [0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    c = _colour((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size, margin)
                    total[0] += c[0]
                    total[1] += c[1]
                    total[2] += c[2]
            row.extend(v // (SAMPLES * SAMPLES) for v in total)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


#: file name -> (size, margin): the manifest's icons, the maskable one with its safe zone, Apple's home screen
ICONS = {
    "icon-192.png": (192, 0.0),
    "icon-512.png": (512, 0.0),
    "maskable-512.png": (512, 0.1),
    "apple-touch-icon.png": (180, 0.0),
}


class Command(BaseCommand):
    help = "Draw the web app's icons into static/img/icons/"

    def handle(self, *args: Any, **options: Any) -> None:
        folder = Path(settings.BASE_DIR) / "static" / "img" / "icons"
        folder.mkdir(parents=True, exist_ok=True)
        for name, (size, margin) in ICONS.items():
            (folder / name).write_bytes(draw(size, margin))
            self.stdout.write(f"{folder / name}")
