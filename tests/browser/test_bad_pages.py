"""What a reader must get on every page (torch_verified.browser.page_problems, which the
audit's reader's pass runs on every page of every CI run) catches what it promises to: a
page that loads from another host, logs a console error, links out of the reader's
language, weighs over its budget or whose language switcher misses its twin fails, naming
the page and the offence. Here on one page, in a tab of the tests."""

from torch_verified.browser import page_problems

PAGE = "autograd/computation-graph.md"
BAD = {
    "another-host": ('<img src="https://cdn.example.com/pixel.png" alt="">', "cdn.example.com"),
    "console-error": ('<script>console.error("the page broke")</script>', "the page broke"),
    "other-language": ('<a href="../../../autograd/computation-graph/">English</a>', "leave"),
    "over-budget": (
        "<p hidden>{}</p>".format("".join(f"{i:x}" for i in range(80_000))),
        "over the 300 KB budget",
    ),
    "no-twin": (
        '<script>document.querySelector("a.md-select__link[hreflang=en]").remove()</script>',
        "switcher",
    ),
}


def test_a_good_page_passes(reader):
    url = reader.server.url("zh", PAGE)
    assert page_problems(reader, "zh", PAGE, reader.open(url)) == []


def test_a_bad_page_fails_naming_it_and_each_offence(reader):
    """Every offence at once, on one load (a load of a page costs about a second of CPU)."""
    url = reader.server.url("zh", PAGE)
    good = reader.server.file(url).read_text(encoding="utf-8")
    bad = good.replace(
        "</article>", "".join(markup for markup, _ in BAD.values()) + "</article>", 1
    )
    assert bad != good
    length = {"content-length": str(len(bad.encode()))}
    reader.page.route(
        url, lambda route: route.fulfill(body=bad, content_type="text/html", headers=length)
    )
    try:
        problems = page_problems(reader, "zh", PAGE, reader.open(url, ready=False))
    finally:
        reader.page.unroute(url)
    for offence, (_, named) in BAD.items():
        assert any(f"docs/zh/{PAGE}" in p and named in p for p in problems), (offence, problems)
