"""A code block's caption speaks to learners; its snippet file is one click away for
contributors, in the published build (hooks/captions.py), never inside the copied code."""

import re

import markdown
import pytest

from hooks.copy_code import on_page_content as with_copy_text
from torch_verified.markdown import includes, source_links, with_source_markers
from torch_verified.project import DOCS, LANGUAGES, config
from torch_verified.strings import STRINGS

REPOSITORY = "https://github.com/o/torch-verified"
PAGE = "operations/broadcasting.md"  # captions in answers (???) and tabs too


def rendered(lang, page):
    """The page's Markdown as the build renders it, markers included (no MkDocs run)."""
    extensions, configs = [], {}
    for entry in config()["markdown_extensions"]:
        name, options = next(iter(entry.items())) if isinstance(entry, dict) else (entry, {})
        extensions.append(name)
        configs[name] = options or {}
    text = (DOCS / lang / page).read_text(encoding="utf-8")
    return markdown.markdown(
        with_source_markers(text), extensions=extensions, extension_configs=configs
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_caption_links_its_snippet_in_the_repository(lang):
    html = with_copy_text(
        source_links(rendered(lang, PAGE), lang, REPOSITORY, "abc1234"), *[None] * 3
    )
    links = re.findall(
        r'<span class="filename">([^<]+) <a class="snippet-source" href="([^"]+)"[^>]*>([^<]+)</a></span>',
        html,
    )
    expected = [
        f"{REPOSITORY}/blob/abc1234/snippets/{name}"
        for name in includes((DOCS / lang / PAGE).read_text(encoding="utf-8"))
    ]
    assert [href for _, href, _ in links] == expected, f"docs/{lang}/{PAGE}: the captions' links"
    assert {text for _, _, text in links} == {STRINGS[lang]["source_link"]}
    assert all(".pycon" not in caption and "@@" not in caption for caption, _, _ in links)
    copied = re.findall(r'data-copy="([^"]*)"', html)
    assert len(copied) == len(expected) and not any("snippets/" in c or "@@" in c for c in copied)


def test_without_a_repository_a_caption_has_no_link_and_no_marker(site):
    """The tests' build has no REPOSITORY_URL (a local build): no link, and no marker left."""
    found = [
        path.relative_to(site).as_posix()
        for path in site.rglob("*.html")
        if re.search("@@source:|snippet-source", path.read_text(encoding="utf-8"))
    ]
    assert not found, f"a caption's source marker or link in a build without a repository: {found}"
