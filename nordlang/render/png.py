"""PNG pictures: an SVG drawn to pixels by cairosvg (the optional 'png' extra).

A picture too big for pixels (cairo draws at most 32767 on a side, and a
huge one would take gigabytes) is scaled down to fit MAX_SIDE and
MAX_PIXELS; one that would have to shrink below MIN_SCALE to fit (its
spaces a few pixels wide) is refused with the advice to write SVG.
"""

from __future__ import annotations

import re

from ..errors import UsageError

HINT = "pip install 'nordlang[png]' (or write an .svg file instead)"
MAX_SIDE = 8192                 # pixels on the longer side
MAX_PIXELS = 32_000_000         # width x height (128 MB of RGBA)
MIN_SCALE = 0.25                # below it the board is no longer readable
_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([\d.]+)"[^>]*?\bheight="([\d.]+)"')


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


def fit_scale(svg_text: str) -> float:
    """The scale (1 or less) at which the SVG fits the PNG limits; a
    UsageError when it would have to shrink below MIN_SCALE."""
    m = _SIZE.search(svg_text[:2000])
    if m is None:
        return 1.0
    width, height = float(m.group(1)), float(m.group(2))
    scale = min(1.0, MAX_SIDE / max(width, height, 1.0), (MAX_PIXELS / max(width * height, 1.0)) ** 0.5)
    if scale < MIN_SCALE:
        raise UsageError(f"the picture is {width:.0f} x {height:.0f} pixels, too big for a PNG: PNG output draws "
                         f"at most {MAX_SIDE} pixels on a side and {MAX_PIXELS // 1_000_000} million in all, and "
                         f"scaled down to {scale:.1%} its spaces would be too small to read",
                         hint="write an .svg file instead: it has no size limit")
    return scale


def render_png(svg_text: str, scale: float | None = None) -> bytes:
    """The SVG text as PNG bytes, at `scale` (default: 1, or less to fit the
    limits); needs cairosvg (pip install 'nordlang[png]')."""
    if scale is None:
        scale = fit_scale(svg_text)
    cairosvg = require_cairosvg()
    try:
        return cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), scale=scale)
    except (OSError, ValueError, MemoryError) as e:
        raise UsageError(f"cannot draw the PNG: {e}") from None
    except Exception as e:      # cairo's own errors (CairoError) are no subclass of the above
        if type(e).__name__ != "CairoError":
            raise
        raise UsageError(f"cannot draw the PNG: cairo says {e.args[0] if e.args else e}",
                         hint="write an .svg file instead") from None
