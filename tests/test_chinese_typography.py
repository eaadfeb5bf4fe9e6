"""The Chinese pages follow Chinese typography in their prose: no space before %, no
italics (a slanted CJK face is machine-made; use bold or quotes), and full-width brackets
around Chinese words. Code (fences, `inline code`), link targets and HTML tags are left out."""

import re

import pytest

from torch_verified.markdown import markdown_of, prose
from torch_verified.project import DOCS, pages

CJK = re.compile(r"[\u4e00-\u9fff]")
RULES = {
    "a space before %": lambda prose: re.findall(r"\d %", prose),
    "italics around Chinese (use **bold** or “quotes”)": lambda prose: [
        m.group(0)
        for m in re.finditer(r"(?<![*\\])\*(?![*\s])([^*]+?)(?<![\s*])\*(?!\*)", prose)
        if CJK.search(m.group(1))
    ],
    "half-width brackets around Chinese (use （）)": lambda prose: [
        m.group(0) for m in re.finditer(r"\(([^()]*)\)", prose) if CJK.search(m.group(1))
    ],
}


def typography_problems(text):
    """(line, rule, offending text) for the prose of a Chinese page."""
    return [
        (number, rule, hit)
        for number, line in prose(text)
        for rule, find in RULES.items()
        for hit in find(line)
    ]


def test_each_rule_finds_what_it_names():
    text = (
        "答对了 26 %。\n"
        "这是*默认数据类型*。\n"
        "按 (通道, 高, 宽) 存储。\n"
        "没问题：26%、**加粗**、*expected Float*、[链接](../a_b.md)、`(代码, 中)`、（全角）。\n"
    )
    assert [(line, rule.split(" (")[0]) for line, rule, _ in typography_problems(text)] == [
        (1, "a space before %"),
        (2, "italics around Chinese"),
        (3, "half-width brackets around Chinese"),
    ]


@pytest.mark.parametrize("page", pages("zh"))
def test_chinese_pages_follow_chinese_typography(page):
    if found := typography_problems(markdown_of(DOCS / "zh" / page)):
        pytest.fail(
            "\n".join(f"docs/zh/{page}:{line}: {rule}: {hit!r}" for line, rule, hit in found), False
        )
