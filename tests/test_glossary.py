"""The glossary (glossary.yml) is well formed, shown on the site, and followed by docs/zh."""

import re

import pytest

from hooks.shortcodes import glossary_entries
from torch_verified.glossary import anchor, link_first_uses
from torch_verified.markdown import markdown_of, prose
from torch_verified.project import DOCS, LANGUAGES, glossary, pages

TERMS = glossary()


def wrong_terms(text, terms=TERMS):
    """(line, wrong term, right term) for each `avoid` term in the prose of a page.

    Code (fenced blocks and `inline code`) is left out, so a page can quote a wrong term
    in backticks, e.g. to say that it is wrong.
    """
    found = []
    for number, prose_line in prose(text):
        for term in terms:
            found += [(number, w, term["zh"]) for w in term.get("avoid", []) if w in prose_line]
    return found


def test_glossary_entries_are_well_formed():
    problems = []
    for number, term in enumerate(TERMS, 1):
        avoid = term.get("avoid", [])
        meaning = term.get("meaning") or {}
        if not (isinstance(term.get("en"), str) and isinstance(term.get("zh"), str)):
            problems.append(f"entry {number}: needs `en:` and `zh:` strings: {term}")
        elif not all(
            isinstance(m := meaning.get(lang), str) and m.strip() and "\n" not in m
            for lang in LANGUAGES
        ):
            problems.append(
                f"entry {number} ({term['en']}): needs a one-line `meaning:` in {LANGUAGES}"
            )
        elif not (isinstance(avoid, list) and all(isinstance(a, str) for a in avoid)):
            problems.append(f"entry {number} ({term['en']}): `avoid` must be a list of terms")
        else:
            problems += [
                f"entry {number} ({term['en']}): avoid term {a!r} is part of the term {t['zh']!r}"
                for a in avoid
                for t in TERMS
                if a in str(t.get("zh"))
            ]
    problems += same_english_twice(TERMS)
    anchors = [anchor(t) for t in TERMS if isinstance(t.get("en"), str)]
    problems += [
        f"two entries have the anchor #{a}" for a in sorted(set(anchors)) if anchors.count(a) > 1
    ]
    assert not problems, "glossary.yml:\n  " + "\n  ".join(problems)


def english_terms(en):
    """The English terms of an entry: `batch / batch dimension (of a tensor)` gives
    {"batch", "batch dimension"}; a note in parentheses after a term is not part of it."""
    return {re.sub(r"\s+\(.*?\)", "", part).strip().lower() for part in en.split("/")}


def same_english_twice(terms):
    """One message per English term that two entries translate (one term for one idea)."""
    seen, problems = {}, []
    for number, term in enumerate(terms, 1):
        for english in english_terms(str(term.get("en"))):
            if english in seen:
                first, zh = seen[english]
                problems.append(
                    f"entry {number} ({term['en']} → {term.get('zh')}) and entry {first} "
                    f"(→ {zh}) both translate {english!r}: keep one"
                )
            else:
                seen[english] = (number, term.get("zh"))
    return problems


def test_an_english_term_given_twice_is_found():
    terms = [
        {"en": "batch / batch dimension", "zh": "批量 / 批量维度"},
        {"en": "batch size", "zh": "批量大小"},
        {"en": "Batch (of samples)", "zh": "批次"},
    ]
    message = "entry 3 (Batch (of samples) → 批次) and entry 1 (→ 批量 / 批量维度) both translate"
    assert same_english_twice(terms) == [f"{message} 'batch': keep one"]


@pytest.mark.parametrize("page", pages("zh"))
def test_chinese_pages_use_the_glossary_terms(page):
    if found := wrong_terms(markdown_of(DOCS / "zh" / page)):
        pytest.fail(
            "\n".join(
                f"docs/zh/{page}:{line}: {wrong!r} is a translation to avoid; write {right!r} "
                "(glossary.yml)"
                for line, wrong, right in found
            ),
            False,
        )


def test_a_wrong_term_is_found_with_its_line_and_the_right_one():
    text = "# 标题\n\n这里用了就地操作。\n\n`就地操作` 在代码里不算。\n"
    assert wrong_terms(text) == [(3, "就地", "原地操作")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_glossary_shows_every_meaning_linked_to_where_it_is_taught(lang):
    shown = glossary_entries(TERMS, lang)
    for term in TERMS:
        entry = f"**{term[lang]}** · "
        assert entry in shown and f"{{ #{anchor(term)} }}\n:   {term['meaning'][lang]}" in shown
        if "taught" in term:
            assert f"](../{term['taught']})" in shown.split(entry)[1].split("\n\n")[0], term


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_glossary_page_shows_glossary_yml(built, lang):
    page = "reference/glossary.md"
    assert "{{ glossary_entries }}" in (DOCS / lang / page).read_text(encoding="utf-8")
    html = built(lang, page)
    assert "glossary_entries" not in html, f"docs/{lang}/{page}: the marker was not replaced"
    missing = [t["en"] for t in TERMS if f'<dt id="{anchor(t)}">' not in html]
    assert not missing, f"docs/{lang}/{page}: the built glossary lacks the entries {missing}"
    # the first use on a core page links to the entry (hooks/shortcodes.py)
    numpy = built(lang, "tensors/numpy.md")
    assert 'href="../../reference/glossary/#device"' in numpy, f"docs/{lang}/tensors/numpy.md"


def test_the_first_use_of_a_term_in_prose_links_to_its_glossary_entry():
    entries = [
        {"en": "view", "zh": "视图", "taught": "operations/shapes.md#reshape-view"},
        {"en": "leaf tensor", "zh": "叶子张量"},
        {"en": "shape", "zh": "形状", "everyday": ["zh", "en"]},
    ]
    text = (
        '# A view { #view }\n\n`view`, [a view](x.md), "a view", a shape, then Views\n'
        'and a view.\n\n```python\nleaf tensor\n```\n\n??? deeper "Going deeper: a view"\n'
        '    a leaf tensor\n\n!!! note "A leaf tensor"\n    A leaf tensor.\n'
    )
    link = "](../reference/glossary.md#"
    assert link_first_uses(text, "tensors/numpy.md", "en", entries) == text.replace(
        "then Views", f"then [Views{link}view)"
    ).replace("    A leaf tensor.", f"    A [leaf tensor{link}leaf-tensor).")
    assert link_first_uses(text, "operations/shapes.md", "en", entries[:1]) == text
    zh = "视图和`视图`，再一个视图。"
    assert (
        link_first_uses(zh, "tensors/a.md", "zh", entries)
        == f"[视图{link}view)和`视图`，再一个视图。"
    )
