"""`nord serve`: the web page on a local server (the `web` extra: starlette, uvicorn)."""

from __future__ import annotations

import sys

from ..errors import UsageError
from . import positive_int


def add(sub):
    p = sub.add_parser("serve", help="a local web page: play, replay, step through scenarios, ask why a move is "
                                     "refused (needs the web extra: pip install 'nordlang[web]')")
    p.add_argument("--port", type=positive_int, default=8000, help="the port (default 8000; 0: any free one)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--game", metavar="NAME", help="the game the page offers first (default: nord)")
    p.add_argument("--variant", metavar="V", action="append", default=[],
                   help="a variant the page offers first (its bundled name or a file); repeat to stack")
    p.add_argument("--folder", metavar="DIR", action="append", default=[],
                   help="a folder whose replays and scenarios the page may open (repeatable; default: the "
                        "current folder); no file outside them is served")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.set_defaults(func=run)


def run(args):
    try:
        import uvicorn

        from ..web import create_app
    except ImportError as e:
        raise UsageError(f"nord serve needs {e.name or 'the web extra'}, which is not installed",
                         hint="pip install 'nordlang[web]'") from None
    if args.port > 65535:
        raise UsageError(f"port {args.port} is out of range (0 to 65535)")
    app = create_app(args.folder or ["."], args.game, args.variant)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning")
    server = uvicorn.Server(config)
    _announce_when_started(server, args.host, args.open)
    server.run()
    return 0


def _announce_when_started(server, host, open_page):
    """Print the page's address once the server listens (the port may have been 0: any free one), and open it."""
    import threading
    import time
    import webbrowser

    def wait():
        for _ in range(600):
            if server.started and server.servers:
                port = server.servers[0].sockets[0].getsockname()[1]
                url = f"http://{host}:{port}/"
                print(f"nord serve: {url} (Ctrl-C stops it)", file=sys.stderr, flush=True)
                if open_page:
                    webbrowser.open(url)
                return
            time.sleep(0.05)
    threading.Thread(target=wait, daemon=True).start()
