"""The built site as a reader's browser gets it: one server, one Chromium, one reader's tab,
and what a reader must get on every page. The browser tests and the audit use these alone.

    python -m torch_verified.browser SITE_DIR PORT     # what SiteServer runs: serve SITE_DIR

The server is GitHub Pages as a reader meets it: the site below the path of `site_url`
(/torch-verified/), text gzip-compressed (so a response's Content-Length is the bytes a
reader transfers), 404.html with status 404 for what is missing, and a redirect from a
folder without its slash. It runs in a process of its own, so that serving never waits for
the Python that drives the browser. A Reader's tab records every visit as a reader's
devtools would show it: console errors, uncaught exceptions, failed or refused requests,
and the bytes of each local file. Chromium resolves no host but 127.0.0.1, so a request to
any other host is recorded and then fails.
"""

import gzip
import io
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar
from urllib.parse import urlsplit

from torch_verified import project

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # no host but this machine: a request to another one fails (and the reader records it)
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
SCHEMES = {"light": "default", "dark": "slate"}  # a reader's preference -> Material's scheme
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
ARTIFACTS = project.ROOT / "artifacts"
COMPRESSED = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".map", ".ipynb", ".ico"}
KB = 1024
# The bytes a first visit transfers (gzip for text, as GitHub Pages sends it), search index
# and worker included: a page, and a page built from a notebook.
BUDGET = {"page": 300 * KB, "notebook": 1024 * KB}
FONT_FILES = (".woff2", ".woff", ".ttf", ".otf", ".eot")
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
    """Debian's Chromium (tools/ensure-browser installs it), or the one $CHROMIUM names."""
    for candidate in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser"):
        path = candidate and shutil.which(candidate)
        if path:
            return path
    return None


def launch(playwright):
    executable = chromium_executable()
    if executable is None:
        raise RuntimeError(
            "the browser needs Chromium: run tools/ensure-browser (`make test` does), or point "
            "$CHROMIUM at a Chromium binary"
        )
    return playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)


class Handler(SimpleHTTPRequestHandler):
    """The site below `prefix`, gzip for text, 404.html for what is missing: GitHub Pages."""

    prefix = "/"
    cache: ClassVar[dict] = {}

    def log_message(self, *args):
        pass

    def send_head(self):
        path = urlsplit(self.path).path
        if not path.startswith(self.prefix):
            return self._send(404, Path(self.directory) / "404.html")
        local = "/" + path[len(self.prefix) :]
        self.path = local
        target = Path(self.translate_path(local))
        if target.is_dir():
            if not local.endswith("/"):
                self.send_response(301)
                self.send_header("Location", self.prefix + local.lstrip("/") + "/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            target = target / "index.html"
        if not target.is_file():
            return self._send(404, Path(self.directory) / "404.html")
        return self._send(200, target)

    def _send(self, status, target):
        body = self.cache.get(target)
        if body is None:
            body = target.read_bytes()
            if target.suffix in COMPRESSED:
                body = gzip.compress(body, 6, mtime=0)
            self.cache[target] = body
        gzipped = target.suffix in COMPRESSED
        if gzipped and "gzip" not in self.headers.get("Accept-Encoding", ""):
            body, gzipped = gzip.decompress(body), False
        self.send_response(status)
        kind = self.guess_type(str(target))
        if kind.startswith("text/") or kind in ("application/javascript", "application/json"):
            kind += "; charset=utf-8"
        self.send_header("Content-Type", kind)
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")  # what GitHub Pages sends
        self.end_headers()
        return io.BytesIO(body)


class SiteServer:
    """The built site on http://127.0.0.1:<free port>/torch-verified/ (see the module)."""

    def __init__(self, root):
        self.root = Path(root)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "torch_verified.browser", str(self.root), str(port)],
            cwd=project.ROOT,
            stdout=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(project.ROOT)},
        )
        self.origin = f"http://127.0.0.1:{port}"
        self.base = f"{self.origin}{project.prefix()}"
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError(f"the site server on port {port} did not start") from None
                time.sleep(0.05)

    def url(self, lang, page):
        """The URL of a page (path below docs/<lang>/, e.g. autograd/backward.md)."""
        return project.url(self.base, lang, page)

    def language_of(self, url):
        return project.language_of_url(self.base, url)

    def file(self, url):
        """The file of the site a URL serves."""
        return project.file_of_url(self.root, self.base, url)

    def close(self):
        self.process.terminate()
        self.process.wait()


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
        self.server, self.context = server, context
        self.page = context.new_page()
        self.visit = Visit("")
        # Every visit is a first visit: nothing stored by an earlier one (the palette...).
        context.add_init_script("try { localStorage.clear(); sessionStorage.clear() } catch (e) {}")
        # Watched, not intercepted (an interception is a round trip through this process
        # for every file).
        context.on("request", self._request)
        self.page.on("console", self._console)
        self.page.on(
            "pageerror", lambda error: self.visit.problems.append(f"uncaught exception: {error}")
        )
        self.page.on("response", self._response)
        self.page.on("requestfailed", self._failed)

    def _request(self, request):
        if request.url.startswith(self.server.origin + "/"):
            self.visit.requests.append(request.url)
        elif not request.url.startswith(("data:", "blob:", "about:")):
            self.visit.problems.append(f"request to another host: {request.url}")

    def _console(self, message):
        if message.type == "error":
            where = message.location.get("url") or ""
            self.visit.problems.append(
                f"console error: {message.text}" + (f" ({where})" if where else "")
            )

    def _response(self, response):
        if response.status >= 400:
            self.visit.problems.append(f"HTTP {response.status}: {response.url}")
        elif response.url.startswith(self.server.origin + "/"):
            self.visit.sent[response.url] = int(response.headers.get("content-length") or 0)

    def _failed(self, request):
        local = request.url.startswith(self.server.origin + "/")
        if local and request.failure != "net::ERR_ABORTED":
            self.visit.problems.append(f"request failed ({request.failure}): {request.url}")

    def setup(self, viewport=DESKTOP, color_scheme="light"):
        self.page.set_viewport_size(viewport)
        self.page.emulate_media(color_scheme=color_scheme)
        return self

    def open(self, url, ready=True):
        """Open a URL as a fresh visit; with `ready`, wait until search has set up."""
        self.page.goto("about:blank")  # what the previous page still loads is not this visit's
        self.visit = Visit(url)
        self.page.goto(url, wait_until="load")
        if ready:
            self.page.wait_for_function(SEARCH_READY)
        return self.visit

    def follow(self, action):
        """A visit started by a click or a key press (`action`) that navigates."""
        self.visit = Visit("(navigating)")
        with self.page.expect_navigation(wait_until="load"):
            action()
        self.visit.url = self.page.url
        return self.visit

    def language(self):
        return self.page.evaluate("document.documentElement.lang")

    def horizontal_overflow(self):
        """How many CSS pixels the page is wider than the window (0 when it fits)."""
        return self.page.evaluate(
            "Math.max(0, document.documentElement.scrollWidth - window.innerWidth)"
        )

    def screenshot(self, name, **options):
        """artifacts/screenshots/NAME.png (CI uploads artifacts/): look at them."""
        (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
        (options.pop("locator", None) or self.page).screenshot(
            path=ARTIFACTS / "screenshots" / f"{name}.png", **options
        )


def page_problems(reader, lang, page, visit):
    """What a reader must get on a page just opened (with search ready): a clean console,
    nothing from another host, no web fonts, its language, a first visit within budget,
    links that stay in its language, nothing wider than the window, and a language switcher
    that leads to its twin. One line per problem, each naming the page."""
    server, other = reader.server, project.other(lang)
    name = f"docs/{lang}/{page} ({server.url(lang, page)})"
    problems = list(visit.problems)
    if reader.language() != lang:
        problems.append(f"<html lang={reader.language()!r}>")
    fonts = [u for u in visit.requests if u.split("?")[0].endswith(FONT_FILES)]
    if fonts:
        problems.append(f"downloads web fonts: {fonts}")
    kind = "notebook" if page.endswith(".ipynb") else "page"
    if sum(visit.sent.values()) > BUDGET[kind]:
        heaviest = sorted(visit.sent.items(), key=lambda item: -item[1])[:4]
        problems.append(
            f"a first visit transfers {sum(visit.sent.values()) / KB:.0f} KB, over the "
            f"{BUDGET[kind] // KB} KB budget of a {kind}, search included: "
            + ", ".join(
                f"{url.removeprefix(server.base)} {size / KB:.0f} KB" for url, size in heaviest
            )
        )
    hrefs = reader.page.eval_on_selector_all(
        "a[href]:not(.md-select__link)", "links => links.map(a => a.href)"
    )
    leaving = sorted({h for h in hrefs if server.language_of(h) not in (None, lang)})
    if leaving:
        problems.append(f"links leave the reader's language ({lang}): {leaving}")
    if overflow := reader.horizontal_overflow():
        problems.append(
            f"{overflow} px wider than a {reader.page.viewport_size['width']} px window"
        )
    twin = reader.page.eval_on_selector_all(
        f"a.md-select__link[hreflang={other}]", "a => a.map(l => l.href)"
    )
    if twin != [server.url(other, page)]:
        problems.append(
            f"the language switcher to {other!r} leads to {twin}, not {server.url(other, page)}"
        )
    return [f"{name}: {problem}" for problem in problems]


# -- figures ------------------------------------------------------------------------------

FIGURES = (
    "article img[src*='assets/figures/'], article img[src*='assets/bench/'], "
    "article .jp-RenderedImage img"
)
PAGE_DARK = (0x1E, 0x21, 0x29)  # Material's slate background, hsl(225, 15%, 14%)
LEGIBLE = 11  # px: the smallest text a phone reader should get
# bench/ draws its plots 432 units wide with 7 and 10 px text (8 px and less on a phone):
# known, reported by the audit's table as such, not counted as a failure until bench/ is redrawn
SMALL_TEXT_KNOWN = "assets/bench/"
LOADED = """i => (i.complete && i.naturalWidth) ? i.naturalWidth : new Promise(done => {
    i.addEventListener("load", () => done(i.naturalWidth), {once: true});
    i.addEventListener("error", () => done(0), {once: true});
    setTimeout(() => done(i.naturalWidth), 10000);
})"""


def _colours(png):
    """The share of near-white pixels of a screenshot, and the mean colour of its edge."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    pixels = list(image.getdata())
    light = sum(1 for p in pixels if min(p) > 215) / len(pixels)
    w, h = image.size
    edge = [image.getpixel((x, y)) for x in range(w) for y in (1, h - 2)]
    edge += [image.getpixel((x, y)) for y in range(h) for x in (1, w - 2)]
    return light, tuple(sum(p[k] for p in edge) / len(edge) for k in range(3))


def figure_problems(reader, shots=None):
    """What a reader of the page open in `reader` (the site switched to its dark scheme)
    must get from each figure: it loads; its edge is the page's colour and few of its
    pixels are near white (not a white panel); a figure of tools/figures is drawn in its own
    dark palette, not its light one (the site's scheme, not the system's, reached the
    image); an SVG's smallest text, at the width the page shows it, is LEGIBLE px or more.
    With `shots` (a name prefix), each figure is photographed to artifacts/screenshots/."""
    page, problems = reader.page, []
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true })")
    images = page.locator(FIGURES)  # (a figure in a collapsed going-deeper box too, opened)
    for k in range(images.count()):
        image = images.nth(k)
        image.scroll_into_view_if_needed()
        src = image.get_attribute("src") or ""
        if not image.evaluate(LOADED):
            problems.append(f"{src} did not load")
            continue
        png = image.screenshot()
        if shots:
            reader.screenshot(f"{shots}-{k}", locator=image)
        light, edge = _colours(png)
        if light > 0.2 or max(abs(a - b) for a, b in zip(edge, PAGE_DARK, strict=True)) > 24:
            problems.append(
                f"{src}: on a light panel in the dark scheme (edge "
                f"{tuple(round(c) for c in edge)}, {light:.0%} near white)"
            )
        if "assets/figures/" in src:  # the image in each palette of its own, for comparison
            own = []
            for scheme in ("dark", "light", ""):
                image.evaluate("(i, s) => { i.style.colorScheme = s }", scheme)
                own.append(image.screenshot() if scheme else None)
            if (png == own[0], png == own[1]) != (True, False):
                problems.append(f"{src}: not in its dark colours in the dark scheme")
        if src.endswith(".svg") and SMALL_TEXT_KNOWN not in src:
            svg, shown = image.evaluate(
                "async i => [await (await fetch(i.src)).text(), i.getBoundingClientRect().width]"
            )
            sizes = [float(s) for s in re.findall(r'font-size(?:="|:\s*)([\d.]+)', svg)]
            box = re.search(r'viewBox="[\d.]+ [\d.]+ ([\d.]+)', svg)
            width = float(box[1]) if box else shown  # no viewBox: drawn at its own size
            if sizes and min(sizes) * shown / width < LEGIBLE:
                problems.append(
                    f"{src}: text of {min(sizes) * shown / width:.1f} px at "
                    f"{page.viewport_size['width']} px (< {LEGIBLE})"
                )
    return problems


def main(site, port):
    handler = type("SiteHandler", (Handler,), {"prefix": project.prefix(), "cache": {}})
    server = ThreadingHTTPServer(("127.0.0.1", int(port)), partial(handler, directory=site))
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main(*sys.argv[1:3])
