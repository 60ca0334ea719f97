"""What the browser tests share: the page's server on a port of its own
(as `nord serve` runs it), the system's headless Chromium driven by
Selenium, and waiting for the page. The fixtures `server` and `browser`
come to every test through conftest.py; a browser test module calls
require_browser() first, so a machine that lacks a part skips it whole."""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
WAIT = 30           # seconds a step may take at most (a busy machine); never a measure of speed
WIDE = 1400         # the window's width (a desktop's) unless a test sets another



def require_browser() -> None:
    """Skip the calling test module unless the page's server and a browser can run here."""
    pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
    pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")
    pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    if not (CHROMIUM and DRIVER):
        pytest.skip("chromium and chromedriver are not installed (apt-get install chromium chromium-driver; "
                    ".ci/run does it)", allow_module_level=True)


def start_server(app):
    """Serve `app` with uvicorn on a free port of 127.0.0.1, in a thread: (url, stop)."""
    import uvicorn
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(400):
        if srv.started and srv.servers:
            break
        time.sleep(0.05)

    def stop():
        srv.should_exit = True
        thread.join(10)
    return f"http://127.0.0.1:{srv.servers[0].sockets[0].getsockname()[1]}/", stop


@pytest.fixture(scope="module")
def server():
    from nordlang.web import create_app
    url, stop = start_server(create_app([ROOT / "tests" / "replays", ROOT / "variants"], "tictactoe"))
    yield url
    stop()


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    profile = tempfile.mkdtemp(prefix="nord-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", f"--window-size={WIDE},1000"):
        opts.add_argument(flag)
    drv = webdriver.Chrome(options=opts, service=Service(DRIVER))
    drv.set_page_load_timeout(WAIT)
    yield drv
    drv.quit()
    shutil.rmtree(profile, ignore_errors=True)


def wait(drv, cond, what):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(drv, WAIT, poll_frequency=0.05).until(lambda d: cond(d), message=f"waited for {what}")


def page(drv, url):
    drv.get(url)
    wait(drv, lambda d: d.execute_script("return document.body.dataset.ready === '1'"), "the page to load")


def view(drv):
    return drv.execute_script("return view")


def settled(drv):
    """The page is idle: no request under way, and no agent about to move."""
    return drv.execute_script("return !busy && view && !(view.kind === 'game' && view.seat === 'agent' && !view.over)")
