"""Search: the words Chinese is cut into, and what each language's index holds.

Material's search (a lunr index, built in the reader's browser from `search_index.json`)
cuts Chinese text with jieba at build time, a zero-width space between words. jieba does
not know the site's terms (计算·图, 叶子·张量, 不·匹配): `chinese_words` gives it the Chinese
terms of glossary.yml, so a new term is one word in the index without a list kept beside
the glossary. The query side (what a reader types) is the search worker of
overrides/assets/javascripts/workers/search.js, which wraps Material's.

`index_text` is what a section's text becomes in the index: the code blocks are left out
(they are half of it: the index was too heavy for a first visit, and a word of a teaching
section is in its prose); a pasted error message finds its entry by the entry's heading.
"""

import re

from torch_verified.project import glossary

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]{2,}")
# jieba's weight of a glossary word: enough to keep it whole between other words
# (把·计算图·画·出来, not 把·计算·图画·出来)
WEIGHT = 100_000
WORKER = "search.js"  # the worker the search box starts (overrides/assets/javascripts/workers/)
CODE = re.compile(r"<pre>.*?</pre>", re.DOTALL)


def chinese_words(terms=None):
    """The Chinese words of glossary.yml's `zh:` terms: `梯度累加（也常称梯度累积）` gives
    梯度累加 and 梯度累积, `不匹配（形状、维度） / 不一致（数据类型、设备）` gives 不匹配 and 不一致
    (a note in brackets is not a term); terms mixed with Latin (`doctest 会话`) are left out."""
    words = []
    for term in glossary() if terms is None else terms:
        for part in str(term["zh"]).split(" / "):
            main, _, note = part.partition("（")
            candidates = [main.strip(), *re.findall(r"也常称(\w+)", note)]
            words += [w for w in candidates if HAN.fullmatch(w) and w not in words]
    return words


def teach_jieba(words=None):
    """Give jieba the glossary's words (the same module Material's search plugin uses)."""
    import jieba

    for word in chinese_words() if words is None else words:
        jieba.add_word(word, WEIGHT)


def index_text(text):
    """A section's text as the index holds it: without its code blocks."""
    return CODE.sub("", text)
