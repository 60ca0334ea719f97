"""PNG pictures: an SVG drawn to pixels by cairosvg (the optional 'png' extra)."""

from __future__ import annotations

from ..errors import UsageError

HINT = "pip install 'nordlang[png]' (or write an .svg file instead)"


def require_cairosvg():
    """The cairosvg module, or a UsageError that says how to get it."""
    try:
        import cairosvg
    except ImportError:
        raise UsageError("PNG output needs cairosvg, which is not installed", hint=HINT) from None
    except OSError as e:  # cairosvg is there but the cairo library is not
        raise UsageError(f"PNG output needs the cairo library, which cairosvg cannot load ({e})",
                         hint="install cairo (Debian: apt-get install libcairo2), then " + HINT) from None
    return cairosvg


def render_png(svg_text: str, scale: float = 1.0) -> bytes:
    """The SVG text as PNG bytes; needs cairosvg (pip install 'nordlang[png]')."""
    cairosvg = require_cairosvg()
    try:
        return cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), scale=scale)
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot draw the PNG: {e}") from None
