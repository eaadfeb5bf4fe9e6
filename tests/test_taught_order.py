"""Nothing is used before it is taught (issue 32). glossary.yml says where each term is
taught (`taught: <page>#<anchor>`); along the nav's reading order, a page before that one
may use the term (its English term on English pages, its Chinese term on Chinese ones, in
prose, not in code) only where the mention's paragraph links to the teaching page, or inside a
going-deeper block (`??? note`). The home page, which previews the course, is not checked;
nor are the languages a term's `everyday:` names, quotations, or a word on the page that
teaches a longer term holding it."""

import posixpath
import re
from functools import cache

import pytest

from torch_verified.markdown import FRONT_MATTER, markdown_of, without_fences
from torch_verified.project import DOCS, LANGUAGES, glossary, ideographic, nav, read_yaml

ORDER = [page for _, pages in nav() for page in pages]
HOME = ORDER[0]
LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]*)[^)]*\)")
URL = re.compile(r"https?://\S+")
NOTE = re.compile(r"^(\s*)\?\?\?\+? note\b")
# a quotation (PyTorch's docs, a message): its words are the source's, not the page's teaching
QUOTE = re.compile(r'"[^"]*"|“[^”]*”')


def terms(entry, lang):
    """The words of an entry in a language: `batch / batch dimension (of a tensor)` gives
    batch, batch dimension; `数据类型（dtype）` gives 数据类型."""
    parts = re.split(r"[/／]", entry[lang])
    return {re.sub(r"\s*[(（].*?[)）]", "", p).strip() for p in parts} - {""}


def pattern(term, lang):
    if not ideographic(lang):  # a whole word, plural too
        return re.compile(rf"(?<![\w-]){re.escape(term)}(?:s|es)?(?![\w-])", re.IGNORECASE)
    return re.compile(re.escape(term))


def prose_lines(text):
    """(line, text) of a page's prose: no front matter, code or going-deeper blocks."""
    text = FRONT_MATTER.sub(lambda m: "\n" * m[0].count("\n"), text)
    found, note = [], None
    for number, line in enumerate(without_fences(text).splitlines(), 1):
        indent = len(line) - len(line.lstrip())
        if note is not None and line.strip() and indent <= note:
            note = None
        if note is None and (match := NOTE.match(line)):
            note = len(match[1])
        if note is None:
            found.append((number, re.sub(r"`[^`]*`", lambda m: " " * len(m[0]), line)))
    return found


@cache
def page_text(lang, page):
    return markdown_of(DOCS / lang / page)


@cache
def paragraphs(text):
    """(first line, text) of each paragraph of prose; a heading belongs to the paragraph
    after it."""
    found, current = [], []
    for number, line in prose_lines(text):
        if line.strip():
            current.append((number, line))
            continue
        if current and not current[-1][1].lstrip().startswith("#"):
            found.append(current)
            current = []
    return [c for c in [*found, current] if c]


@cache
def all_terms(lang):
    return {w for entry in glossary() for w in terms(entry, lang)}


@cache
def longer_terms(words, lang):
    """The glossary's terms that contain one of `words` (激活检查点 holds 检查点): a use of
    those is not a use of these."""
    every = all_terms(lang)
    return sorted(
        {t for t in every for w in words if w.lower() in t.lower() and t.lower() != w.lower()},
        key=len,
        reverse=True,
    )


def first_unlinked_use(text, page, words, lang, teacher):
    """The line of the page's first use of the term (in link texts too, not in their
    targets, nor inside a longer term or a quotation), when its paragraph does not link to
    `teacher`."""
    patterns = [pattern(w, lang) for w in words]
    longer = [re.compile(re.escape(t), re.IGNORECASE) for t in longer_terms(tuple(words), lang)]

    def plain(line):
        line = LINK.sub(lambda m: f"[{m[1]}]", URL.sub(" ", line))
        for term in longer:
            line = term.sub(" ", line)
        return line

    for paragraph in paragraphs(text):
        joined = "\n".join(line for _, line in paragraph)
        if not any(p.search(joined) for p in patterns):
            continue
        unquoted = QUOTE.sub(lambda m: re.sub(r"[^\n]", " ", m[0]), joined).split("\n")
        lines = [(n, plain(line)) for (n, _), line in zip(paragraph, unquoted, strict=True)]
        used = [n for n, line in lines if any(p.search(line) for p in patterns)]
        if not used:
            continue
        for link in LINK.finditer("\n".join(line for _, line in paragraph)):
            path = link[2].split("#")[0]
            target = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
            if (target if path else page) == teacher:
                return None
        return used[0]
    return None


def teaches_a_longer_term(page, words, lang):
    """Whether `page` teaches a longer term that holds one of `words` (saved-tensors teaches
    activation checkpointing, 激活检查点): there, the short word is that term's."""
    longer = set(longer_terms(tuple(words), lang))
    return any(
        entry.get("taught", "").split("#")[0] == page and terms(entry, lang) & longer
        for entry in glossary()
    )


def used_before_taught(lang, texts=None, entries=None):
    """{page: {term: line}} of the uses before the teaching page, in `lang`."""
    found = {}
    for entry in entries or glossary():
        if "taught" not in entry or lang in entry.get("everyday", []):
            continue
        teacher = entry["taught"].split("#")[0]
        for page in ORDER[1 : ORDER.index(teacher)] if teacher in ORDER else []:
            if teaches_a_longer_term(page, terms(entry, lang), lang):
                continue
            text = (texts or {}).get(page) or page_text(lang, page)
            line = first_unlinked_use(text, page, terms(entry, lang), lang, teacher)
            if line:
                found.setdefault(page, {})[entry[lang]] = line
    return found


def test_every_taught_page_is_in_the_nav():
    wrong = [
        e["en"] for e in glossary() if "taught" in e and e["taught"].split("#")[0] not in ORDER
    ]
    assert not wrong, f"glossary.yml: `taught:` names a page outside mkdocs.yml's nav: {wrong}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_nothing_is_used_before_it_is_taught(lang):
    found = [
        f"docs/{lang}/{page}:{line}: {term!r}, taught later at "
        + next(e["taught"] for e in glossary() if e[lang] == term)
        for page, uses in used_before_taught(lang).items()
        for term, line in uses.items()
    ]
    assert not found, (
        "a term used before the page that teaches it: link the mention's paragraph to its "
        "section (glossary.yml, `taught:`), move it into a going-deeper block, or reword:\n  "
        + "\n  ".join(found)
    )


def test_a_use_before_its_page_is_found_unless_it_links_there():
    entry = {"en": "leaf tensor", "zh": "叶子张量", "taught": "autograd/computation-graph.md#x"}
    page = "tensors/attributes.md"
    texts = {
        page: "# Attributes\n\n`leaf tensor` in code, then Leaf tensors in prose.\n",
    }
    assert used_before_taught("en", texts, [entry]) == {page: {"leaf tensor": 3}}
    texts[page] = "A [leaf tensor](../autograd/computation-graph.md#leaves) starts a graph.\n"
    assert used_before_taught("en", texts, [entry]) == {}
    texts[page] = '??? note "Going deeper: history"\n\n    A leaf tensor.\n\nAfter.\n'
    assert used_before_taught("en", texts, [entry]) == {}
    texts[page] = "一个[叶子张量](../tensors/numpy.md)。\n"
    assert used_before_taught("zh", texts, [entry]) == {page: {"叶子张量": 1}}
    texts[page] = 'The docs say "a leaf tensor\nhas no grad_fn"; then a leaf tensor.\n'
    assert used_before_taught("en", texts, [entry]) == {page: {"leaf tensor": 2}}


def test_a_key_given_twice_is_an_error_not_the_last_one(tmp_path):
    path = tmp_path / "glossary.yml"
    path.write_text("- en: x\n  zh: 叉\n  taught: a.md\n  taught: b.md\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"\['taught'\] given twice"):
        read_yaml(path)
