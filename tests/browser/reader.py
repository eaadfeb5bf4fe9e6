"""A reader's browser: the built site served locally, and Chromium driven by Playwright.

One server and one Chromium per pytest worker (session fixtures in conftest.py); every visit
records what a reader's devtools would show: console errors, uncaught exceptions, failed
or refused requests, and the local files the page loaded. Requests to any other host are
refused (and recorded), and Chromium resolves no host names besides 127.0.0.1.
"""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from tests.sitetools import DEFAULT_LANGUAGE, LANGUAGES, site_page, site_url

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]

# Material's search is ready when its worker has loaded the index (and the lunr language
# scripts) and answered the empty query: the result meta then shows the placeholder text.
SEARCH_READY = """() => {
  const meta = document.querySelector(".md-search-result__meta")
  const config = document.getElementById("__config")
  if (!meta || !config) return document.readyState === "complete"
  const placeholder = JSON.parse(config.textContent).translations["search.result.placeholder"]
  return meta.textContent === placeholder
}"""


def chromium_executable():
    """Debian's Chromium (tools/ensure-browser installs it), or $CHROMIUM."""
    for candidate in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser"):
        path = candidate and shutil.which(candidate)
        if path:
            return path
    return None


class SiteServer:
    """The built site on http://127.0.0.1:<free port>/<site_url path>/, as GitHub Pages
    serves it. A separate process (`python -m http.server` over a folder in which the
    site_url path links to the site), so that serving never waits for the tests' Python.
    """

    def __init__(self, root):
        self.root = Path(root)
        prefix = urlparse(site_url()).path.rstrip("/")
        self.top = Path(tempfile.mkdtemp(prefix="site-served-"))
        served = self.top / prefix.lstrip("/") if prefix else self.top
        if prefix:
            served.parent.mkdir(parents=True, exist_ok=True)
            served.symlink_to(self.root.resolve(), target_is_directory=True)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "http.server",
                str(port),
                "--bind",
                "127.0.0.1",
                "--directory",
                str(self.top if prefix else self.root),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.origin = f"http://127.0.0.1:{port}"
        self.base = f"{self.origin}{prefix}/"
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError(f"the site server on port {port} did not start")
                time.sleep(0.05)

    def url(self, lang, page):
        """The URL of a page (docs_dir-relative path) in a language."""
        rel = site_page(self.root, lang, page).relative_to(self.root).as_posix()
        return self.base + rel.removesuffix("index.html")

    def language_of(self, url):
        """The language of a page URL of this site (None for another site or an asset)."""
        if not url.startswith(self.base):
            return None
        path = urlparse(url).path[len(urlparse(self.base).path) :]
        if path.startswith("assets/") or not (path == "" or path.endswith(("/", ".html"))):
            return None
        first = path.split("/", 1)[0]
        return first if first in LANGUAGES else DEFAULT_LANGUAGE

    def file(self, url):
        """The file of the site a URL serves."""
        path = unquote(urlparse(url).path)[len(urlparse(self.base).path) :]
        return self.root / (path + "index.html" if path.endswith("/") or not path else path)

    def close(self):
        self.process.terminate()
        self.process.wait()
        shutil.rmtree(self.top, ignore_errors=True)


@dataclass
class Visit:
    url: str
    problems: list = field(default_factory=list)  # what a reader's console would show
    requests: list = field(default_factory=list)  # local URLs the page loaded

    def report(self):
        return f"{self.url}:\n  " + "\n  ".join(self.problems)


class Reader:
    """One browser tab that records everything a visit shows."""

    def __init__(self, context, server):
        self.server = server
        self.context = context
        self.page = context.new_page()
        self.visit = Visit("")
        # Every visit is a first visit: nothing stored by an earlier one (the palette, the
        # repository facts Material caches for the session...).
        context.add_init_script("try { localStorage.clear(); sessionStorage.clear() } catch (e) {}")
        # Watched, not intercepted (an interception is a round trip through this process
        # for every file): Chromium resolves no host but 127.0.0.1 (CHROMIUM_ARGS), so a
        # request to another host is recorded here and then fails.
        context.on("request", self._request)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self._problem(f"uncaught exception: {error}"))
        self.page.on("response", self._response)
        self.page.on("requestfailed", self._failed)

    def _problem(self, text):
        self.visit.problems.append(text)

    def _request(self, request):
        url = request.url
        if url.startswith(self.server.origin + "/"):
            self.visit.requests.append(url)
        elif not url.startswith(("data:", "blob:", "about:")):
            self._problem(f"request to another host: {url}")

    def _console(self, message):
        if message.type == "error":
            where = message.location.get("url") or ""
            self._problem(f"console error: {message.text}" + (f" ({where})" if where else ""))

    def _response(self, response):
        if response.status >= 400:
            self._problem(f"HTTP {response.status}: {response.url}")

    def _failed(self, request):
        if (
            request.url.startswith(self.server.origin + "/")
            and request.failure != "net::ERR_ABORTED"
        ):
            self._problem(f"request failed ({request.failure}): {request.url}")

    def setup(self, viewport=DESKTOP, color_scheme="light"):
        self.page.set_viewport_size(viewport)
        self.page.emulate_media(color_scheme=color_scheme)
        return self

    def open(self, url, ready=True):
        """Open a URL as a fresh visit; with `ready`, wait until search has set up."""
        # Leave the previous page first: what it still loads is not this visit's.
        self.page.goto("about:blank")
        self.visit = Visit(url)
        self.page.goto(url, wait_until="load")
        if ready:
            self.page.wait_for_function(SEARCH_READY)
        return self.visit

    def follow(self, action, ready=False):
        """A visit started by a click or a key press (`action`) that navigates."""
        self.visit = Visit("(navigating)")
        with self.page.expect_navigation(wait_until="load"):
            action()
        self.visit.url = self.page.url
        if ready:
            self.page.wait_for_function(SEARCH_READY)
        return self.visit

    def language(self):
        return self.page.evaluate("document.documentElement.lang")

    def horizontal_overflow(self):
        """How many CSS pixels the page is wider than the window (0 when it fits)."""
        return self.page.evaluate(
            "Math.max(0, document.documentElement.scrollWidth - window.innerWidth)"
        )
