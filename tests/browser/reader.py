"""A reader's browser: the built site served locally, and Chromium driven by Playwright.

One server and one Chromium per pytest worker (session fixtures in conftest.py); every visit
records what a reader's devtools would show: console errors, uncaught exceptions, failed
or refused requests, and the local files the page loaded. Requests to any other host are
refused (and recorded), and Chromium resolves no host names besides 127.0.0.1.
"""

import http.server
import os
import shutil
import threading
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


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the site under the path of its site_url, as GitHub Pages does."""

    root = prefix = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=str(self.root), **kwargs)

    def translate_path(self, path):
        path = urlparse(path).path
        if not (path + "/").startswith(self.prefix + "/"):
            return str(Path(self.root) / "\0no such file")
        return super().translate_path(path[len(self.prefix) :] or "/")

    def log_message(self, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a page left before it finished loading: the browser closed the connection


class SiteServer:
    """The built site on http://127.0.0.1:<free port>/<site_url path>/, from a thread."""

    def __init__(self, root):
        self.root = Path(root)
        prefix = urlparse(site_url()).path.rstrip("/")
        handler = type("Handler", (_Handler,), {"root": self.root, "prefix": prefix})
        self.httpd = _Server(("127.0.0.1", 0), handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_port}"
        self.base = f"{self.origin}{prefix}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

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
        self.httpd.shutdown()
        self.httpd.server_close()


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
        context.route("**/*", self._route)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self._problem(f"uncaught exception: {error}"))
        self.page.on("response", self._response)
        self.page.on("requestfailed", self._failed)

    def _problem(self, text):
        self.visit.problems.append(text)

    def _route(self, route):
        url = route.request.url
        if url.startswith(self.server.origin + "/"):
            self.visit.requests.append(url)
            route.continue_()
        else:
            self._problem(f"request to another host: {url}")
            route.abort("blockedbyclient")

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
