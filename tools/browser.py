"""The built site as a reader's browser gets it: one server, one Chromium, one map from a page
to its URL. The browser tests (tests/browser/reader.py) and the audit (tools/audit.py) use
these and nothing else.

    python -m tools.browser SITE_DIR PORT     # what SiteServer runs: serve SITE_DIR

The server is GitHub Pages as a reader meets it: the site below the path of `site_url`
(/torch-verified/), text gzip-compressed (so a response's Content-Length is the bytes a
reader transfers), 404.html with status 404 for what is missing, and a redirect from a
folder without its slash. It runs in a process of its own, so that serving never waits for
the Python that drives the browser.
"""

import gzip
import io
import os
import shutil
import socket
import subprocess
import sys
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar
from urllib.parse import unquote, urlsplit

from tests.sitetools import DEFAULT_LANGUAGE, LANGUAGES, ROOT, site_page, site_url

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # no host but this machine: a request to another one fails (and the tests record it)
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
SCHEMES = {"light": "default", "dark": "slate"}  # a reader's preference -> Material's scheme
COMPRESSED = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".map", ".ipynb", ".ico"}


def chromium_executable():
    """Debian's Chromium (tools/ensure-browser installs it), or the one $CHROMIUM names."""
    for candidate in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser"):
        path = candidate and shutil.which(candidate)
        if path:
            return path
    return None


def prefix():
    """The path the site is served under, from mkdocs.yml's site_url: /torch-verified/."""
    path = urlsplit(site_url()).path or "/"
    return path if path.endswith("/") else path + "/"


class Handler(SimpleHTTPRequestHandler):
    """The site below `prefix`, gzip for text, 404.html for what is missing: GitHub Pages."""

    prefix = "/"
    cache: ClassVar[dict] = {}

    def log_message(self, *args):
        pass

    def send_head(self):
        path = urlsplit(self.path).path
        if not path.startswith(self.prefix):
            return self._not_found()
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
            return self._not_found()
        return self._send(200, target)

    def _not_found(self):
        return self._send(404, Path(self.directory) / "404.html")

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

    def __init__(self, root=ROOT / "site"):
        self.root = Path(root)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tools.browser", str(self.root), str(port)],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
        )
        self.origin = f"http://127.0.0.1:{port}"
        self.base = f"{self.origin}{prefix()}"
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
        """The URL of a page (docs_dir-relative path, e.g. autograd/backward.md) in a language."""
        rel = site_page(self.root, lang, page).relative_to(self.root).as_posix()
        return self.base + rel.removesuffix("index.html")

    def language_of(self, url):
        """The language of a page URL of this site (None for another site or an asset)."""
        if not url.startswith(self.base):
            return None
        path = urlsplit(url).path[len(urlsplit(self.base).path) :]
        if path.startswith("assets/") or not (path == "" or path.endswith(("/", ".html"))):
            return None
        first = path.split("/", 1)[0]
        return first if first in LANGUAGES else DEFAULT_LANGUAGE

    def file(self, url):
        """The file of the site a URL serves."""
        path = unquote(urlsplit(url).path)[len(urlsplit(self.base).path) :]
        return self.root / (path + "index.html" if path.endswith("/") or not path else path)

    def close(self):
        self.process.terminate()
        self.process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def main(site, port):
    handler = type("SiteHandler", (Handler,), {"prefix": prefix(), "cache": {}})
    server = ThreadingHTTPServer(("127.0.0.1", int(port)), partial(handler, directory=site))
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main(*sys.argv[1:3])
