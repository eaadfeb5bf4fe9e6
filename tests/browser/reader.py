"""A reader's browser tab: Chromium driven by Playwright over the built site, both from
tools/browser.py.

One server and one Chromium per pytest worker (session fixtures in conftest.py); every visit
records what a reader's devtools would show: console errors, uncaught exceptions, failed
or refused requests, and the local files the page loaded. Requests to any other host are
refused (and recorded), and Chromium resolves no host names besides 127.0.0.1.
"""

from dataclasses import dataclass, field
from pathlib import Path

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# Material's search is ready when its worker has loaded the index (and the lunr language
# scripts) and answered the empty query: the result meta then shows the placeholder text.
SEARCH_READY = """() => {
  const meta = document.querySelector(".md-search-result__meta")
  const config = document.getElementById("__config")
  if (!meta || !config) return document.readyState === "complete"
  const placeholder = JSON.parse(config.textContent).translations["search.result.placeholder"]
  return meta.textContent === placeholder
}"""


@dataclass
class Visit:
    url: str
    problems: list = field(default_factory=list)  # what a reader's console would show
    requests: list = field(default_factory=list)  # local URLs the page loaded
    sent: dict = field(default_factory=dict)  # local URL -> bytes transferred (Content-Length)

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
        elif response.url.startswith(self.server.origin + "/"):
            self.visit.sent[response.url] = int(response.headers.get("content-length") or 0)

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
