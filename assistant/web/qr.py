"""QR codes for the dashboard URL: SVG for the spectator page, text for the service console."""

from __future__ import annotations

import io

import segno


def _code(url: str) -> segno.QRCode:
    if not isinstance(url, str) or not url.strip():
        raise ValueError(f"a QR code needs a non-empty URL, got {url!r}")
    # Medium error correction: a phone still reads it off a glossy tablet screen.
    return segno.make(url.strip(), error="m", micro=False)


def qr_svg(url: str, *, scale: int = 6) -> str:
    """A standalone SVG (with its namespace, so browsers show it as an image) encoding ``url``."""
    out = io.BytesIO()
    _code(url).save(out, kind="svg", scale=scale, dark="#000", light="#fff", border=2, xmldecl=False, svgns=True)
    return out.getvalue().decode()


def qr_text(url: str) -> str:
    """``url`` as a QR code drawn with Unicode half blocks, for a terminal (two modules per line)."""
    out = io.StringIO()
    _code(url).terminal(out=out, compact=True, border=2)
    return out.getvalue()
