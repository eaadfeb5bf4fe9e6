"""Learner queries asked of the site's search, outside the test suite: what each one finds
first, and the score (the right page or section first), per language.

    python -m tools.search_queries                      # build the site, ask every query
    python -m tools.search_queries --site DIR           # ask an existing build
    python -m tools.search_queries --queries data/search_queries.yml --key first

The queries (data/search_learner_queries.yml) have the form of `first:` in
data/search_queries.yml, whose queries the tests ask: [query, [page or page#anchor, ...]].
All the queries of a language are asked of the search worker in one page load
(torch_verified/search.py: ask), as the tests do.
"""

import argparse
import tempfile
from functools import partial

from torch_verified import search
from torch_verified.browser import DESKTOP, Reader, SiteServer, launch
from torch_verified.project import DATA, build, read_yaml


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", help="a built site (default: build one)")
    parser.add_argument("--queries", default=DATA / "search_learner_queries.yml")
    parser.add_argument("--key", help="the queries are under this key of the file")
    args = parser.parse_args(argv)
    data = read_yaml(args.queries)
    data = data[args.key] if args.key else data
    site = args.site or tempfile.mkdtemp(prefix="torch-verified-search-")
    if not args.site and (failed := build(site)) is not None:
        raise SystemExit(failed)
    from playwright.sync_api import sync_playwright

    server = SiteServer(site)
    right_first = {}
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            reader = Reader(browser.new_context(viewport=DESKTOP), server).setup()
            for lang, queries in data.items():
                answers = search.ask(reader, lang, [q for q, *_ in queries])
                right_first[lang] = 0
                for query, targets, *_ in queries:
                    found = answers[query]
                    url = partial(server.url, lang)
                    ok = search.first_is(found, targets, url)
                    right_first[lang] += ok
                    first = search.shown(found, 1)
                    where = first[0].split(server.url(lang, ""), 1)[-1] if first else "-"
                    print(
                        f"{'ok  ' if ok else 'MISS'} {lang} {query!r} -> {where}"
                        + ("" if ok else f"   (wanted {', '.join(targets)})")
                    )
            browser.close()
    finally:
        server.close()
    for lang, queries in data.items():
        print(f"{lang}: {right_first[lang]}/{len(queries)} right first")


if __name__ == "__main__":
    main()
