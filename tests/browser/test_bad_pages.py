"""The page checks catch what they promise to: a page that loads from another host, logs a
console error or links out of the reader's language fails, naming the page and the offence."""

import pytest

from tests.browser.every_page import check_twins

AUTOGRAD = "autograd/computation-graph.md"
BAD = {
    "another-host": ('<img src="https://cdn.example.com/pixel.png" alt="">', "cdn.example.com"),
    "console-error": ('<script>console.error("the page broke")</script>', "the page broke"),
    "other-language": ('<a href="../../../autograd/computation-graph/">English</a>', "leave"),
}


@pytest.mark.parametrize("offence", BAD)
def test_a_bad_page_fails_with_its_name_and_offence(reader, site, offence):
    url = reader.server.url("zh", AUTOGRAD)
    markup, named = BAD[offence]
    good = reader.server.file(url).read_text(encoding="utf-8")
    bad = good.replace("</article>", markup + "</article>", 1)
    assert bad != good
    reader.page.route(url, lambda route: route.fulfill(body=bad, content_type="text/html"))
    try:
        with pytest.raises(AssertionError) as failure:
            check_twins(reader, site, "zh", AUTOGRAD)
    finally:
        reader.page.unroute(url)
    message = str(failure.value)
    assert f"docs/zh/{AUTOGRAD}" in message and named in message, message
