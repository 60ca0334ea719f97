"""`nord serve`: a local web page to play, replay, step through scenarios and ask why.

The server (Starlette on uvicorn, the `web` extra) holds games in memory by
id; the page is plain HTML, JS and CSS in static/, with no build step.
"""

from .app import create_app

__all__ = ["create_app"]
