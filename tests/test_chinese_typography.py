"""The Chinese pages follow Chinese typography in their prose: no space before %, no
italics (a slanted CJK face is machine-made; use bold or quotes), full-width brackets
around Chinese words, a half-width space between Chinese and Latin letters, digits or
`inline code` (also at the edge of a link's text) and none between two Chinese characters
or next to full-width punctuation (so none after a bold lead-in such as `**说法。**`),
full-width punctuation after Chinese, ‘’ for quotes inside “”, —— as the dash.

Code (fences; inline code counts as Latin), link targets and HTML tags are left out. The
same rules hold for the Chinese rows of data/errors.yml (cause and fix), which the error
table shows, and for the other Chinese text the site shows: the interface strings, the
measured page's table and chart labels and the glossary's terms."""

import re

import pytest
import yaml

from torch_verified.markdown import markdown_of, prose, without_fences
from torch_verified.project import DATA, DOCS, IDEOGRAPHS, ROOT, pages
from torch_verified.strings import STRINGS

CJK_CHARS = IDEOGRAPHS
CJK = re.compile(f"[{CJK_CHARS}]")
LATIN = "A-Za-z0-9"
# Not ‘’ (inside “…” they may quote English) nor … (a range of numbers: 0 … 255).
FULL_WIDTH = "，。、；：？！（）“”《》—"


def spacing_text(line, bold=False):
    """A line as it reads for spacing: inline code becomes a Latin letter, a link its text
    (without the brackets), HTML tags, a heading's `#` marks and `{ #anchor }` nothing, and
    bold nothing unless `bold`."""
    line = re.sub(r"^\s*#+\s+|\s*\{\s*#[^}]*\}\s*$", "", line)
    line = re.sub(r"`[^`]*`", "x", line)
    line = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", line)
    line = re.sub(r"<[^>]+>", "", line)
    return line if bold else line.replace("**", "")


def _link_edge_spaces(line):
    """`见 [中文](…)` or `[中文](…) 中`: a space at a link's edge next to Chinese on both sides."""
    line = re.sub(r"`[^`]*`", "x", line)
    found = []
    for m in re.finditer(r"!?\[([^\]]*)\]\([^)]*\)", line):
        text, before, after = m.group(1), line[: m.start()], line[m.end() :]
        if text[:1] and CJK.match(text[0]) and re.search(f"[{CJK_CHARS}] $", before):
            found.append(before[-2:] + m.group(0))
        if text[-1:] and CJK.match(text[-1]) and re.match(f" [{CJK_CHARS}]", after):
            found.append(m.group(0) + after[:2])
    return found


def _nested_double_quotes(line):
    found, depth = [], 0
    for i, char in enumerate(line):
        if char == "“":
            depth += 1
            if depth == 2:
                found.append(line[max(0, i - 6) : i + 6])
        elif char == "”":
            depth = max(0, depth - 1)
    return found


RULES = {
    "a space before %": lambda prose, raw: re.findall(r"\d %", prose),
    "italics around Chinese (use **bold** or “quotes”)": lambda prose, raw: [
        m.group(0)
        for m in re.finditer(r"(?<![*\\])\*(?![*\s])([^*]+?)(?<![\s*])\*(?!\*)", prose)
        if CJK.search(m.group(1))
    ],
    "half-width brackets around Chinese (use （）)": lambda prose, raw: [
        m.group(0) for m in re.finditer(r"\(([^()]*)\)", prose) if CJK.search(m.group(1))
    ],
    "mismatched brackets (（…) or (…）)": lambda prose, raw: re.findall(
        r"（[^（）()]*\)|\([^（）()]*）", prose
    ),
    "a space after a bold lead-in that ends in full-width punctuation (write **说法。**在…)": (
        lambda prose, raw: re.findall(f"[{FULL_WIDTH}]\\*\\*[ \t]+\\S", raw)
    ),
    "Chinese next to Latin, a digit or code without a space": lambda prose, raw: re.findall(
        f"(?=([{CJK_CHARS}][{LATIN}]|[{LATIN}][{CJK_CHARS}]))", spacing_text(raw)
    ),
    "a space between two Chinese characters at a link's edge": lambda prose, raw: _link_edge_spaces(
        raw
    ),
    "a space next to full-width punctuation": lambda prose, raw: re.findall(
        f"[{FULL_WIDTH}] +[^\\s|*/]|[^\\s|*/] +[{FULL_WIDTH}]", spacing_text(raw, bold=True)
    ),
    "half-width punctuation after Chinese (use ，；：！？)": lambda prose, raw: re.findall(
        f"[{CJK_CHARS}][,;:!?]", spacing_text(raw)
    ),
    "two marks in a row (？。)": lambda prose, raw: re.findall(
        r"[。？！][。，；：？！]", spacing_text(raw)
    ),
    "“ inside “…” (use ‘…’ inside)": lambda prose, raw: _nested_double_quotes(prose),
    "ASCII quotes around Chinese (use “”)": lambda prose, raw: [
        m.group(0)
        for m in re.finditer(r'"([^"]*)"', prose)
        if CJK.search(m.group(1)) and not re.match(r"\s*(!!!|\?\?\?)", prose)
    ],
    "a Chinese ellipsis of one … or ... (use ……)": lambda prose, raw: re.findall(
        f"[{CJK_CHARS}](?:\\.\\.\\.|…(?!…))", prose
    ),
    "a single — (use ——)": lambda prose, raw: [
        prose[max(0, m.start() - 2) : m.end() + 2] for m in re.finditer(r"(?<!—)—(?!—)", prose)
    ],
}


def _raw_lines(text):
    """[(line number, text)] without fenced code (inline code and links still there)."""
    return list(enumerate(without_fences(text).splitlines(), 1))


def typography_problems(text):
    """(line, rule, offending text) for the prose of a Chinese page."""
    return [
        (number, rule, hit)
        for (number, line), (_, raw) in zip(prose(text), _raw_lines(text), strict=True)
        for rule, find in RULES.items()
        for hit in find(line, raw)
    ]


def test_each_rule_finds_what_it_names():
    text = (
        "答对了 26 %。\n"
        "这是*默认数据类型*。\n"
        "按 (通道、高、宽) 存储。\n"
        "数据类型（dtype)不变。\n"
        "**说法。** 在 x = 2 处。\n"
        "用`view`改形状，共3维。\n"
        "见 [梯度会累加](a.md) 一节。\n"
        "结果是 6 。\n"
        "形状不同,报错。\n"
        "见[累加 loss 还是 loss.item()？](a.md)。\n"
        "文档说：““自动混合精度”只用 autocast”。\n"
        "这一步—也就是前向传播。\n"
        '按"通道、高、宽"存储。\n'
        "等等…\n"
        "没问题：26%、**加粗**、*expected Float*、[链接](../a_b.md)、`(代码, 中)`、（全角）、"
        "**说法。**在、见 [`squeeze` 与 `unsqueeze`](b.md) 中的、[备注](c.md)：dim=1、"
        "“‘引文’”、破折号——如此、| 表格 |、溢出（上溢） / 下溢、0 … 255、等等……\n"
        '??? note "深入：标题"\n'
    )
    assert [(line, rule.split(" (")[0]) for line, rule, _ in typography_problems(text)] == [
        (1, "a space before %"),
        (2, "italics around Chinese"),
        (3, "half-width brackets around Chinese"),
        (4, "mismatched brackets"),
        (5, "a space after a bold lead-in that ends in full-width punctuation"),
        (6, "Chinese next to Latin, a digit or code without a space"),
        (6, "Chinese next to Latin, a digit or code without a space"),
        (6, "Chinese next to Latin, a digit or code without a space"),
        (6, "Chinese next to Latin, a digit or code without a space"),
        (7, "a space between two Chinese characters at a link's edge"),
        (7, "a space between two Chinese characters at a link's edge"),
        (8, "a space next to full-width punctuation"),
        (9, "half-width punctuation after Chinese"),
        (10, "two marks in a row"),
        (11, "“ inside “…”"),
        (12, "a single —"),
        (13, "ASCII quotes around Chinese"),
        (14, "a Chinese ellipsis of one … or ..."),
    ]


def _report(found, where):
    if found:
        pytest.fail(
            "\n".join(
                f"{where + ':' if where else ''}{line}: {rule}: {hit!r}"
                for line, rule, hit in found
            ),
            False,
        )


@pytest.mark.parametrize("page", pages("zh"))
def test_chinese_pages_follow_chinese_typography(page):
    _report(typography_problems(markdown_of(DOCS / "zh" / page)), f"docs/zh/{page}")


def test_chinese_error_rows_follow_chinese_typography():
    rows = yaml.safe_load((DATA / "errors.yml").read_text(encoding="utf-8"))
    text = "\n".join(f"{row['zh'][key]}" for row in rows.values() for key in ("cause", "fix"))
    found = typography_problems(text)
    names = [f"{name}.{key}" for name in rows for key in ("cause", "fix")]
    _report([(names[line - 1], rule, hit) for line, rule, hit in found], "data/errors.yml zh")


def _strings(value, name):
    """(name, text) of each string in a nested dict / list of strings."""
    if isinstance(value, str):
        yield name, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, f"{name}.{key}")
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _strings(item, f"{name}[{index}]")


def test_other_chinese_text_follows_chinese_typography():
    labels = yaml.safe_load((DATA / "bench_labels.yml").read_text(encoding="utf-8"))["zh"]
    glossary = yaml.safe_load((ROOT / "glossary.yml").read_text(encoding="utf-8"))
    texts = [
        *_strings(STRINGS["zh"], "torch_verified/strings.py zh"),
        *_strings(labels, "data/bench_labels.yml zh"),
        *_strings([[e["zh"], e["meaning"]["zh"]] for e in glossary], "glossary.yml zh"),
    ]
    found = [
        (f"{name}, line {line}", rule, hit)
        for name, text in texts
        for line, rule, hit in typography_problems(text)
    ]
    _report(found, "")


def test_the_chinese_page_notebooks_intro_follows_chinese_typography():
    """The intro cell the build writes into each page's notebook joins two strings around a
    page title (which may start with code, as `backward()` 之外的自动求导 does)."""
    from torch_verified.notebooks import notebook

    title, page = "`backward()` 之外的自动求导", "autograd/beyond-backward.md"
    for site in ("", "https://example.org/torch-verified/"):  # a local build, the published one
        book = notebook("正文。\n", "zh", title=title, page=page, site=site, torch="2")
        cells = book["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        _report(typography_problems(text), f"the notebook of a zh page (site {site!r})")
