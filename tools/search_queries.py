"""Every ranking case of the site's search, asked in Chromium, a line per query: the suite's
(data/search_queries.yml and what derives from the pages: every error message pasted, every
entry's name, every glossary term), which fail the run on a miss, then the learner queries
of data/search_learner_queries.yml, which are counted (right first) and do not fail it.
CI's audit runs this (tools/audit.py); `make test` keeps a smoke test of the search box.

    python -m tools.search_queries                      # build the site, ask every query
    python -m tools.search_queries --site DIR           # ask an existing build
    python -m tools.search_queries --queries FILE       # only FILE's (the learner file's form)

A learner file: {lang: [[query, [page or page#anchor, ...]], ...]}: the first result must be
one of them. All the queries of a language are asked in one page load
(torch_verified/search.py: check).
"""

import argparse
import sys
import tempfile

from torch_verified import search
from torch_verified.browser import SiteServer
from torch_verified.project import DATA, build, read_yaml

LEARNERS = DATA / "search_learner_queries.yml"


def learner_cases(path):
    return [(lang, q, where, 1, None) for lang, qs in read_yaml(path).items() for q, where in qs]


def run(site, log=print, only=None):
    """The misses of the suite's cases on a built site (the learner queries are counted)."""
    suite = ("data/search_queries.yml and the pages", search.cases(), True)
    learners = (LEARNERS.name, learner_cases(LEARNERS), False)
    server, misses = SiteServer(site), []
    try:
        for name, cases, counts in (
            [(only, learner_cases(only), False)] if only else [suite, learners]
        ):
            found, score = search.check(server, cases, log)
            misses += found * counts
            log(
                f"{name}: "
                + ", ".join(f"{lang} {r}/{n}" for lang, (r, n) in score.items())
                + " right"
            )
    finally:
        server.close()
    return misses


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", help="a built site (default: build one)")
    parser.add_argument("--queries", help="only the queries of this file (a learner file)")
    args = parser.parse_args(argv)
    site = args.site or tempfile.mkdtemp(prefix="torch-verified-search-")
    if not args.site and (failed := build(site)) is not None:
        raise SystemExit(failed)
    misses = run(site, only=args.queries)
    print(*misses, sep="\n", file=sys.stderr)
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
