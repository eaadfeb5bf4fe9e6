"""Page weight: what a first visit to each page transfers stays within budget.

tools/page_weight.py computes it (and prints the table: `python tools/page_weight.py site`);
the browser tests check, page by page, that it counts exactly the files Chromium loads.
The table is written to artifacts/page-weight.txt (CI uploads artifacts/).
"""

from tests.sitetools import LANGUAGES, ROOT, pages, site_page
from tools.page_weight import BUDGET, KB, NOTEBOOK_BUDGET, report


def test_every_page_is_within_its_budget(site):
    sources = {site_page(site, lang, p): (lang, p) for lang in LANGUAGES for p in pages(lang)}
    rows, table = report(site, list(sources))
    (ROOT / "artifacts").mkdir(exist_ok=True)
    (ROOT / "artifacts" / "page-weight.txt").write_text(table + "\n", encoding="utf-8")

    problems = []
    for row in rows:
        lang, page = sources[row["html"]]
        budget = NOTEBOOK_BUDGET if page.endswith(".ipynb") else BUDGET
        if row["kind"] != ("notebook" if page.endswith(".ipynb") else "page"):
            problems.append(f"docs/{lang}/{page}: built as a {row['kind']}")
        if row["sent"] > budget:
            problems.append(
                f"docs/{lang}/{page}: {row['sent'] / KB:.1f} KB transferred, over its "
                f"{budget // KB} KB budget"
            )
        if row["missing"] or row["elsewhere"]:
            problems.append(
                f"docs/{lang}/{page}: loads files that are not in the site {row['missing']} "
                f"or come from other hosts {row['elsewhere']}"
            )
    assert not problems, "\n".join(problems) + "\n\n" + table
