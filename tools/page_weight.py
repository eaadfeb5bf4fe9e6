"""Page weight: the bytes a reader's first visit to each page of the built site transfers.

    python tools/page_weight.py [SITE_DIR]      # default: site/ (`make build`)

For each page: its HTML and every local file it makes the browser load: stylesheets, scripts,
icons, images, the fonts and images their CSS points at, and what Material's JavaScript
fetches as the page opens: the search worker, the search index of the page's language and
the lunr language scripts the worker imports. The browser tests (tests/browser) check that
this list is exactly what Chromium requests, page by page.

Two figures per page: raw bytes, and bytes transferred, where text (HTML, CSS, JS, JSON, SVG)
travels gzip-compressed as static hosts (GitHub Pages) serve it. The budget is on the bytes
transferred: 300 KB for a page, 1 MB for a page built from a notebook.
"""

import gzip
import json
import re
import sys
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

KB = 1024
BUDGET = 300 * KB
NOTEBOOK_BUDGET = 1024 * KB
COMPRESSED = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".map", ".ico"}
ORIGIN = "http://site/"
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)|@import\s+['"]([^'"]+)['"]""")
LOADED_LINKS = {"stylesheet", "icon", "preload", "modulepreload", "manifest", "apple-touch-icon"}
SOURCE_ATTRS = {
    "script": "src",
    "img": "src",
    "source": "src",
    "audio": "src",
    "video": "src",
    "iframe": "src",
    "embed": "src",
    "object": "data",
    "input": "src",
}


class _Resources(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.urls, self.lazy = [], set()
        self.config, self.search_form = None, False
        self._in_config = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "link" and LOADED_LINKS & set((attrs.get("rel") or "").split()):
            self.urls.append(attrs.get("href"))
        elif tag in SOURCE_ATTRS and attrs.get(SOURCE_ATTRS[tag]):
            self.urls.append(attrs[SOURCE_ATTRS[tag]])
            if attrs.get("loading") == "lazy":
                self.lazy.add(attrs[SOURCE_ATTRS[tag]])
        if tag == "video" and attrs.get("poster"):
            self.urls.append(attrs["poster"])
        if tag == "form" and attrs.get("name") == "search":
            self.search_form = True
        self._in_config = tag == "script" and attrs.get("id") == "__config"

    def handle_data(self, data):
        if self._in_config:
            self.config = json.loads(data)
            self._in_config = False


def _url(site, path):
    """The URL of a file of the site, on a site served at ORIGIN."""
    rel = path.relative_to(site).as_posix()
    return ORIGIN + rel.removesuffix("index.html")


def local_file(site, url):
    """The file of the site that a URL (on ORIGIN) serves, or None for another host."""
    if not url.startswith(ORIGIN):
        return None
    path = unquote(urlparse(url).path).lstrip("/")
    return Path(site) / (path + "index.html" if path.endswith("/") or not path else path)


def _search_urls(page_url, config, site):
    """What Material fetches for search as a page opens (bundle.ts, worker/main/index.ts)."""
    worker = urljoin(page_url, config["search"])
    index = urljoin(urljoin(page_url, config["base"].rstrip("/") + "/"), "search/search_index.json")
    urls = [worker, index]
    index_file = local_file(site, index)
    langs = []
    if index_file and index_file.is_file():
        langs = json.loads(index_file.read_text(encoding="utf-8"))["config"]["lang"]
    lunr = urljoin(worker, "../lunr/")
    scripts = []
    for lang in langs:
        if lang == "ja":
            scripts.append(lunr + "tinyseg.js")
        elif lang in ("hi", "th"):
            scripts.append(lunr + "wordcut.js")
        if lang != "en":
            scripts.append(f"{lunr}min/lunr.{lang}.min.js")
    if len(langs) > 1:
        scripts.append(lunr + "min/lunr.multi.min.js")
    if scripts:
        urls += [lunr + "min/lunr.stemmer.support.min.js", *scripts]
    return urls


def resources(site, html):
    """(URLs of the files a page loads besides its HTML, lazy-loaded ones among them)."""
    site, html = Path(site), Path(html)
    parser = _Resources()
    parser.feed(html.read_text(encoding="utf-8"))
    page_url = _url(site, html)
    urls = [urljoin(page_url, u) for u in parser.urls if u and not u.startswith("data:")]
    lazy = {urljoin(page_url, u) for u in parser.lazy}
    if parser.config and parser.search_form and parser.config.get("search"):
        urls += _search_urls(page_url, parser.config, site)
    seen, queue = [], list(urls)
    while queue:  # stylesheets load their fonts, images and @imports
        url = queue.pop(0)
        if url in seen:
            continue
        seen.append(url)
        path = local_file(site, url)
        if path and path.suffix == ".css" and path.is_file():
            for pair in CSS_URL.findall(path.read_text(encoding="utf-8", errors="replace")):
                ref = pair[0] or pair[1]
                if ref and not ref.startswith(("data:", "#")):
                    queue.append(urljoin(url, ref.strip()))
    return seen, lazy


@cache
def _size(path):
    data = Path(path).read_bytes()
    sent = len(gzip.compress(data, 6, mtime=0)) if Path(path).suffix in COMPRESSED else len(data)
    return len(data), min(sent, len(data))


def weigh(site, html):
    """{'files', 'raw', 'sent', 'missing', 'elsewhere'} of one page (sizes in bytes)."""
    urls, _ = resources(site, html)
    files, missing, elsewhere = [Path(html)], [], []
    for url in urls:
        path = local_file(site, url)
        if path is None:
            elsewhere.append(url)
        elif path.is_file():
            files.append(path)
        else:
            missing.append(url)
    sizes = [_size(str(p)) for p in files]
    return {
        "files": len(files),
        "raw": sum(raw for raw, _ in sizes),
        "sent": sum(sent for _, sent in sizes),
        "missing": missing,
        "elsewhere": elsewhere,
    }


def is_notebook(html):
    return 'class="jupyter-wrapper"' in Path(html).read_text(encoding="utf-8")


def built_pages(site):
    """The pages of a built site (every HTML file but the 404 page), sorted."""
    site = Path(site)
    return sorted(p for p in site.rglob("*.html") if p.relative_to(site).as_posix() != "404.html")


def report(site, pages=None):
    """(rows, text) for the pages of a built site: one row per page, heaviest marked."""
    site = Path(site)
    rows = []
    for html in pages or built_pages(site):
        notebook = is_notebook(html)
        row = weigh(site, html)
        row["html"] = Path(html)
        row["page"] = "/" + _url(site, html).removeprefix(ORIGIN)
        row["budget"] = NOTEBOOK_BUDGET if notebook else BUDGET
        row["kind"] = "notebook" if notebook else "page"
        rows.append(row)
    rows.sort(key=lambda r: r["page"])
    width = max([len(r["page"]) for r in rows] + [4])
    lines = [
        f"{'page':<{width}}  {'kind':<8}  {'files':>5}  {'raw KB':>8}  {'sent KB':>8}  {'budget':>7}",
        "-" * (width + 46),
    ]
    for r in rows:
        flag = "  OVER BUDGET" if r["sent"] > r["budget"] else ""
        lines.append(
            f"{r['page']:<{width}}  {r['kind']:<8}  {r['files']:>5}  {r['raw'] / KB:>8.1f}  "
            f"{r['sent'] / KB:>8.1f}  {r['budget'] // KB:>4} KB{flag}"
        )
    if rows:
        top = max(rows, key=lambda r: r["sent"])
        lines.append(
            f"heaviest: {top['page']}, {top['sent'] / KB:.1f} KB sent "
            f"({top['raw'] / KB:.1f} KB raw, {top['files']} files)"
        )
    return rows, "\n".join(lines)


def main(argv):
    site = Path(argv[1] if len(argv) > 1 else "site")
    if not (site / "index.html").is_file():
        sys.exit(f"{site}/index.html not found: build the site first (make build)")
    rows, text = report(site)
    print(text)
    bad = [r for r in rows if r["sent"] > r["budget"] or r["missing"] or r["elsewhere"]]
    for r in bad:
        print(f"{r['page']}: missing {r['missing']}, other hosts {r['elsewhere']}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
