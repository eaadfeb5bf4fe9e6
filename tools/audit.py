"""Audit every built page, in both languages, as readers and search engines meet it.

Two passes over the site, served on 127.0.0.1 below site_url's path (as GitHub Pages serves
it: gzip for text, 404.html for a missing path):

1. Lighthouse (tools/lighthouse, pinned), default mobile emulation and simulated throttling,
   the four categories. A page passes with performance >= 95 and accessibility, best
   practices and SEO at 100. Performance varies from run to run on a busy machine (its
   load shows up as long tasks): once every page has had its run, each page below the
   threshold runs twice more, one run at a time, and counts with the median of its three.
   With --performance-floor N (CI: 90), a page fails on performance only below N: between
   N and the target it is reported, with its largest costs (the load of a shared machine
   moves a score by several points).
2. A reader's pass, the one visit of every page in a real browser of a CI run: Chromium
   driven by Playwright (torch_verified/browser.py), on the views Lighthouse does not see:
   the dark (slate) scheme at the mobile size, and both schemes at a desktop size, where
   the navigation and the table of contents are on screen. On each view of each page:
   axe-core (the copy Lighthouse bundles, so the same rules), the scheme, and what a reader
   must get (browser.page_problems: a clean console, nothing from another host, no web
   fonts, the page's language, a first visit within budget, links in the reader's language,
   nothing wider than the window, a language switcher that leads to the twin), and in the
   dark scheme at the mobile size, each figure (browser.figure_problems: not a white panel,
   in its dark colours, text legible on a phone; photographed). The home,
   computation-graph and error-table pages are photographed in each view, and at a phone's
   width in the light scheme (artifacts/screenshots/).
3. The search: every ranking case of tools/search_queries.py, a line each (a miss fails).

    python -m tools.audit                  # build the site, audit every page
    python -m tools.audit --site DIR       # audit an existing build of the current config
    python -m tools.audit --only zh/autograd --skip-lighthouse

Writes the table to artifacts/audit.md (and the Lighthouse reports of failing pages to
artifacts/lighthouse/); exits 1 naming each page and failing audit.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools import search_queries
from torch_verified import project
from torch_verified.browser import (
    CHROMIUM_ARGS,
    DESKTOP,
    PHONE,
    SCHEMES,
    Reader,
    SiteServer,
    chromium_executable,
    figure_problems,
    launch,
    page_problems,
)
from torch_verified.project import LANGUAGES, ROOT, pages

# `npm ci --prefix tools/lighthouse` installs them; LIGHTHOUSE_MODULES may point elsewhere
MODULES = Path(os.environ.get("LIGHTHOUSE_MODULES", ROOT / "tools" / "lighthouse" / "node_modules"))
LIGHTHOUSE = MODULES / ".bin" / "lighthouse"
AXE = MODULES / "axe-core" / "axe.min.js"
A11Y_CONFIG = MODULES / "lighthouse" / "core" / "config" / "default-config.js"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
THRESHOLDS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
# Lighthouse splits its --chrome-flags at spaces: the browser's flags without one
CHROME_FLAGS = " ".join(["--headless=new", *(flag for flag in CHROMIUM_ARGS if " " not in flag)])
# The views of the reader's pass: (scheme, name, viewport, mobile). Light at the mobile size
# is Lighthouse's own view.
VIEWS = (
    ("dark", "mobile", PHONE, True),
    ("light", "desktop", DESKTOP, False),
    ("dark", "desktop", DESKTOP, False),
)
PHOTOGRAPHED = {
    "index.md": "home",
    "autograd/computation-graph.md": "autograd-computation-graph",
    "errors/error-table.md": "error-table",
}


# -- what to audit ------------------------------------------------------------------------


def targets(only=()):
    """(name, path below the site root, (language, page) or None) of every page of every
    language, and the 404 page."""
    found = [
        (f"{lang}/{page.rsplit('.', 1)[0]}", project.site_path(lang, page), (lang, page))
        for lang in LANGUAGES
        for page in pages(lang)
    ]
    found.append(("404", "404.html", None))
    return [t for t in found if not only or any(o in t[0] for o in only)]


# -- Lighthouse ---------------------------------------------------------------------------


def version(package):
    path = MODULES / package / "package.json"
    return json.loads(path.read_text(encoding="utf-8"))["version"] if path.exists() else "?"


def run_lighthouse(url, out, categories=CATEGORIES):
    if not LIGHTHOUSE.exists() or not chromium_executable():
        raise SystemExit(
            f"Lighthouse ({LIGHTHOUSE}: `npm ci --prefix tools/lighthouse`) and Chromium "
            "(tools/ensure-browser, or $CHROMIUM) are needed"
        )
    only = f"--only-categories={','.join(categories)}"
    command = [str(LIGHTHOUSE), url, f"--chrome-flags={CHROME_FLAGS}", only]
    command += ["--output=json", f"--output-path={out}", "--quiet"]
    env = {**os.environ, "CHROME_PATH": chromium_executable()}
    done = subprocess.run(
        command, check=False, env=env, capture_output=True, text=True, timeout=180
    )
    if done.returncode != 0 or not Path(out).is_file():
        raise RuntimeError(f"lighthouse {url} failed:\n{done.stdout}{done.stderr}")
    report = json.loads(Path(out).read_text(encoding="utf-8"))
    if report.get("runtimeError"):
        raise RuntimeError(f"lighthouse {url}: {report['runtimeError']}")
    return report


def scores(report):
    """{category: score} of the categories the run had (a run without performance: None)."""
    return {
        c: round(100 * (report["categories"][c]["score"] or 0))
        if c in report["categories"]
        else None
        for c in CATEGORIES
    }


def failing_audits(report, category):
    """`audit-id` (with its value) of each weighted audit of a category that did not pass;
    where Lighthouse computed no score for the category, why (its errors and warnings)."""
    refs = [
        (ref, report["audits"][ref["id"]]) for ref in report["categories"][category]["auditRefs"]
    ]
    if report["categories"][category]["score"] is None:
        reasons = [f"{r['id']}: {a['errorMessage']}" for r, a in refs if a.get("errorMessage")]
        reasons += report.get("runWarnings", [])
        return [f"Lighthouse computed no {category} score (0 here): " + "; ".join(reasons)]
    costly = sorted(  # the largest cost first: the points the audit takes off the score
        (ref["weight"] * (1 - audit["score"]), ref, audit)
        for ref, audit in refs
        if ref["weight"] > 0 and audit["score"] is not None and audit["score"] < 1
    )[::-1]
    return [
        f"{ref['id']} {audit.get('displayValue') or ''}".strip()
        + (f" ({audit['score']:.2f})" if category == "performance" else "")
        for _, ref, audit in costly
    ]


def summarize(name, url, reports):
    """One row of the table: the median performance run's report stands for the page."""
    ranked = sorted(reports, key=lambda r: r["categories"].get("performance", {}).get("score") or 0)
    report = ranked[len(ranked) // 2]
    result = {
        "page": name,
        "url": url,
        "runs": len(reports),
        "performance_runs": [scores(r)["performance"] for r in reports],
        **scores(report),
        "bytes": int(report["audits"].get("total-byte-weight", {}).get("numericValue", 0)),
        "failing": {},
    }
    if None not in result["performance_runs"]:
        result["performance"] = int(statistics.median(result["performance_runs"]))
    for category in CATEGORIES:
        if result[category] is not None and result[category] < THRESHOLDS[category]:
            result["failing"][category] = failing_audits(report, category)
    result["report"] = report
    return result


def lighthouse_pass(base, found, jobs, workdir, log):
    """Every page once, `jobs` at a time; then, one at a time, two more runs of each page
    below the performance threshold (load on the machine shows up as long tasks): such a
    page counts with the median of its three."""
    categories = CATEGORIES
    reports = {name: [] for name, _, _ in found}
    urls = {name: base + rel for name, rel, _ in found}

    def run(name):
        out = workdir / f"{name.replace('/', '_')}-{len(reports[name]) + 1}.json"
        reports[name].append(run_lighthouse(urls[name], out, categories))
        r = summarize(name, urls[name], reports[name])
        log(f"{name}: " + " ".join(f"{c}={r[c]}" for c in categories) + f" bytes={r['bytes']:,}")

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for job in [pool.submit(run, name) for name, _, _ in found]:
            job.result()
    slow = [
        n for n, r in reports.items() if scores(r[0])["performance"] < THRESHOLDS["performance"]
    ]
    for name in slow:
        log(f"{name}: performance below {THRESHOLDS['performance']}: two more runs")
        run(name)
        run(name)
    return [summarize(name, urls[name], reports[name]) for name, _, _ in found]


# -- the reader's pass: axe-core and what a reader gets, in Playwright ------------------------


def axe_rules():
    """The axe rules that count in Lighthouse's accessibility score (its audits' ids)."""
    config = A11Y_CONFIG.read_text(encoding="utf-8")
    found = re.findall(r"\{id: '([\w-]+)', weight: (\d+), group: 'a11y-", config)
    if not found:
        raise SystemExit(f"{A11Y_CONFIG}: found no accessibility audits")
    return sorted(rule for rule, weight in found if int(weight) > 0)


AXE_RUN = """rules => axe.run(document, {
    runOnly: {type: "rule", values: rules.filter(id => axe.getRules().some(r => r.ruleId === id))},
    resultTypes: ["violations"]})"""


def reader_view(server, found, rules, view):
    """{page: [problem, ...]} in one view (scheme, size) of every page."""
    from playwright.sync_api import sync_playwright

    scheme, size, viewport, mobile = view
    script = AXE.read_text(encoding="utf-8") if rules else ""
    problems = {}
    with sync_playwright() as playwright:
        browser = launch(playwright)
        context = browser.new_context(
            viewport=viewport,
            is_mobile=mobile,
            has_touch=mobile,
            device_scale_factor=1.75 if mobile else 1,
        )
        context.set_default_timeout(30_000)
        reader = Reader(context, server).setup(viewport, scheme)
        for name, rel, page in found:
            visit = reader.open(server.base + rel)
            seen = page_problems(reader, *page, visit) if page else list(visit.problems)
            if page and scheme == "dark" and mobile:  # the figures as a phone reader sees them
                shots = f"figure-{page[0]}-{page[1].rsplit('.', 1)[0].replace('/', '_')}"
                seen += figure_problems(reader, shots)
            shown = reader.page.evaluate("document.body.dataset.mdColorScheme")
            if shown != SCHEMES[scheme]:
                seen.append(f"the page shows scheme {shown!r}, not {SCHEMES[scheme]!r}")
            if page and page[1] in PHOTOGRAPHED:  # and at a phone's width in the light scheme
                for width, name in (
                    (viewport, size),
                    *([(PHONE, "mobile")] if scheme == "light" else []),
                ):
                    reader.page.set_viewport_size(width)
                    if overflow := reader.horizontal_overflow():
                        seen.append(f"{overflow} px wider than a {width['width']} px window")
                    shot = f"{page[0]}-{PHOTOGRAPHED[page[1]]}-{name}-{scheme}"
                    reader.screenshot(
                        shot, full_page=True, timeout=120_000
                    )  # a long page, a busy machine
                reader.page.set_viewport_size(viewport)
            if rules:
                reader.page.add_script_tag(content=script)
                for violation in reader.page.evaluate(AXE_RUN, rules)["violations"]:
                    nodes = violation["nodes"]
                    detail = " ".join(nodes[0]["failureSummary"].splitlines()[-1].split())
                    seen.append(
                        f"{violation['id']}: {len(nodes)} element(s), e.g. "
                        f"{' '.join(nodes[0]['html'].split())[:120]} — {detail[:240]}"
                    )
            if seen:
                problems[name] = [f"{scheme}/{size}: {line}" for line in dict.fromkeys(seen)]
        browser.close()
    return problems


def reader_pass(server, found, rules, jobs, log):
    """{page: [problem, ...]} over the views, `jobs` views at a time (a browser each)."""
    problems = {}
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        runs = {pool.submit(reader_view, server, found, rules, view): view for view in VIEWS}
        for job in concurrent.futures.as_completed(runs):
            scheme, size, _, _ = runs[job]
            for name, lines in job.result().items():
                problems.setdefault(name, []).extend(lines)
            log(f"reader: {scheme} scheme at {size} size: {len(found)} pages")
    return problems


# -- the table ----------------------------------------------------------------------------


def table(results, reader_problems):
    head = "| Page | Performance | Accessibility | Best practices | SEO | Bytes | reader's pass |"
    lines = [head, "|---|---:|---:|---:|---:|---:|---|"]
    for r in results:
        perf = "not run" if r["performance"] is None else str(r["performance"])
        if r["runs"] > 1:
            perf += f" (median of {'/'.join(map(str, r['performance_runs']))})"
        seen = "ok" if r["page"] not in reader_problems else "FAIL"
        weight = f"{r['bytes']:,}" if r["bytes"] else "–"  # (a performance audit)
        lines.append(
            f"| {r['page']} | {perf} | {r['accessibility']} | {r['best-practices']} "
            f"| {r['seo']} | {weight} | {seen} |"
        )
    return "\n".join(lines) + "\n"


def report(results, reader_problems, output, args):
    """The failures, and the table written to `output` (and .json beside it, and the
    Lighthouse reports of failing pages in lighthouse/ beside it)."""
    failures, advisories = (
        [f"{name}: {line}" for name, lines in reader_problems.items() for line in lines],
        [],
    )
    for r in results:
        for category, audits in r["failing"].items():
            line = f"{r['page']}: {category} {r[category]} < {THRESHOLDS[category]}: "
            line += "; ".join(audits or ["(no single audit below 1)"])
            advisory = category == "performance" and r[category] >= args.performance_floor
            (advisories if advisory else failures).append(line)
    axe = (
        ""
        if args.skip_axe
        else f"axe-core {version('axe-core')}, Lighthouse's accessibility rules, and "
    )
    views = ", ".join(f"{scheme} scheme at {size} size" for scheme, size, _, _ in VIEWS)
    text = (
        f"# Lighthouse, axe and a reader's pass\n\nLighthouse {version('lighthouse')} (mobile "
        "emulation, simulated throttling); thresholds: "
        + ", ".join(f"{c} {t}" for c, t in THRESHOLDS.items())
        + f". Bytes: total transferred (gzip). The reader's pass: {axe}what a reader gets "
        f"(console, requests, weight, language, links, width, twin), on {views}.\n\n"
    )
    text += table(results, reader_problems) if results else ""
    text += "\n## Failures\n\n" + "".join(f"- {f}\n" for f in failures) if failures else ""
    if advisories:
        text += (
            f"\n## Below the performance target, above the floor ({args.performance_floor}): "
            "reported, not failing\n\n" + "".join(f"- {a}\n" for a in advisories)
        )
        text += "".join(f"- {a}\n" for a in advisories)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    summary = [{k: v for k, v in r.items() if k != "report"} for r in results]
    output.with_suffix(".json").write_text(
        json.dumps({"pages": summary, "reader": reader_problems}, indent=1, ensure_ascii=False),
        "utf-8",
    )
    shutil.rmtree(output.parent / "lighthouse", ignore_errors=True)
    for r in (r for r in results if r["failing"]):
        (output.parent / "lighthouse").mkdir(exist_ok=True)
        (output.parent / "lighthouse" / f"{r['page'].replace('/', '_')}.json").write_text(
            json.dumps(r["report"])
        )
    return failures, text


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", help="an existing build (default: build one now)")
    parser.add_argument("--jobs", type=int, default=2, help="Lighthouse runs at a time")
    parser.add_argument("--only", nargs="*", default=(), help="pages whose name contains this")
    parser.add_argument("--skip-axe", action="store_true", help="the reader's pass without axe")
    parser.add_argument("--skip-lighthouse", action="store_true", help="the reader's pass only")
    parser.add_argument("--skip-search", action="store_true", help="without the search's cases")
    parser.add_argument(
        "--lighthouse-sample",
        choices=LANGUAGES,
        metavar="LANG",
        help="Lighthouse on the first page of each chapter in LANG, every home page and the 404 "
        "(CI: a Lighthouse run is 8-12 s of a 2-core machine; the pages share their templates, "
        "and the reader's pass, axe included, still visits every page of every language)",
    )
    parser.add_argument("--output", default=str(ROOT / "artifacts" / "audit.md"))
    parser.add_argument(
        "--performance-floor",
        type=int,
        default=THRESHOLDS["performance"],
        help="fail a page whose performance (the median of three runs below the target of "
        f"{THRESHOLDS['performance']}) is under this; between it and the target, report it "
        "(CI: 90, the same page moves by several points with the load of a shared machine)",
    )
    args = parser.parse_args(argv)
    start = time.monotonic()

    def log(message):
        print(f"[{time.monotonic() - start:6.1f}s] {message}", file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory(prefix="audit-") as tmp:
        site = Path(args.site) if args.site else Path(tmp) / "site"
        if not args.site:
            log("building the site (make build)")
            if failed := project.build(site):
                raise SystemExit(f"make build failed:\n{failed}")
        server = SiteServer(site)
        found = targets(args.only)
        log(f"serving {site} at {server.base}; {len(found)} pages")
        results = []
        try:
            if not args.skip_lighthouse:
                (Path(tmp) / "reports").mkdir()
                firsts = {pages[0] for _, pages in project.nav()}  # each chapter's first page
                sample = [
                    t
                    for t in found
                    if not args.lighthouse_sample
                    or t[2] is None
                    or (t[2][0] == args.lighthouse_sample and t[2][1] in firsts)
                    or t[2][1] in ("index.md", "errors/error-table.md")
                ]
                results = lighthouse_pass(
                    server.base,
                    sample,
                    args.jobs,
                    Path(tmp) / "reports",
                    log,
                )
            try:
                rules = None if args.skip_axe else axe_rules()
                reader_problems = reader_pass(server, found, rules, args.jobs, log)
            except Exception as error:  # noqa: BLE001 - the Lighthouse table still counts
                reader_problems = {"(reader's pass)": [f"could not run: {error!r}"]}
            # every ranking case of the search, a line each (tools/search_queries.py)
            if not args.skip_search and (misses := search_queries.run(site, log)):
                reader_problems["(search)"] = misses
        finally:
            server.close()

        output = Path(args.output)
        failures, text = report(results, reader_problems, output, args)
    print(text)
    log(f"done; table in {output}")
    if failures:
        print(f"{len(failures)} failure(s):", *failures, sep="\n", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
