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


# What Material's search leaves out of the index (its `data-search-exclude`): an exercise's
# answer and hint (a result there would give the answer away, and their words are those of
# the teaching sections). Only on an element with no element of its tag inside: Material
# compares elements by tag, so the first inner </div> of an excluded <div> ends the exclusion.
UNSEARCHED = re.compile(r'<details class="(?:success|tip)"')


def excluded_from_index(html):
    """The page's HTML with `data-search-exclude` on what the index leaves out."""
    return UNSEARCHED.sub(lambda m: m[0] + " data-search-exclude", html)


def index_text(text):
    """A section's text as the index holds it: without its code blocks."""
    return CODE.sub("", text)


# Material's search worker, as its search box uses it (integrations/search/worker: SETUP
# with the index, READY, then a QUERY per input value and its RESULT), asked every query of
# a list; each result grouped as renderSearchResultItem shows it (components/search/result):
# the page, then the sections that score as high as the best one of its group.
ASK = """async queries => {
  const config = JSON.parse(document.getElementById("__config").textContent)
  const base = new URL(config.base, location.href)
  const index = await (await fetch(new URL("search/search_index.json", base))).json()
  const worker = new Worker(new URL(config.search, location.href))
  const reply = type => new Promise(resolve => {
    const listen = ({ data }) => {
      if (data.type !== type) return
      worker.removeEventListener("message", listen)
      resolve(data)
    }
    worker.addEventListener("message", listen)
  })
  const options = { suggest: config.features.includes("search.suggest") }
  const ready = reply(1)
  worker.postMessage({ type: 0, data: { config: index.config, docs: index.docs, options } })
  await ready
  const results = {}
  for (const query of queries) {
    const answer = reply(3)
    worker.postMessage({ type: 2, data: query })
    results[query] = (await answer).data.items.map(group => {
      const threshold = group[0].score
      const docs = [...group]
      const at = docs.findIndex(doc => !`${new URL(doc.location, base)}`.includes("#"))
      const [article] = docs.splice(at, 1)
      let best = docs.findIndex(doc => doc.score < threshold)
      if (best === -1) best = docs.length
      const page = new URL(article.location, base)
      return {
        page: page.origin + page.pathname,
        sections: docs.slice(0, best).map(doc => new URL(doc.location, base).hash),
      }
    })
  }
  worker.terminate()
  return results
}"""


def ask(reader, lang, queries):
    """{query: [{page, sections}]}: every query asked of the search worker of a page in
    `lang`, in one page load (the reader's tab opens the language's home page)."""
    reader.open(reader.server.url(lang, "index.md"))
    return reader.page.evaluate(ASK, list(queries))


def entry_names(lang):
    """{error name: the title of its entry} in docs/<lang>/errors/error-table.md, as a reader
    types it (`对多元素张量调用 .item()`, without the backticks)."""
    from torch_verified.errors import HEADING, error_snippets
    from torch_verified.project import DOCS

    text = (DOCS / lang / "errors" / "error-table.md").read_text(encoding="utf-8")
    names = error_snippets()
    return {
        m["anchor"].replace("-", "_"): " ".join(m["title"].replace("`", "").split())
        for m in HEADING.finditer(text)
        if m["anchor"].replace("-", "_") in names
    }


def glossary_queries(terms=None):
    """[(Chinese word, the page that teaches it)] for the glossary terms with `taught:`."""
    return [
        (word, term["taught"].split("#")[0])
        for term in (glossary() if terms is None else terms)
        if term.get("taught")
        for word in chinese_words([term])
    ]


def first_is(found, targets, url):
    """Whether the first result is one of `targets` (`page` or `page#anchor`); `url(page)`
    gives a page's address."""
    if not found:
        return False
    first = found[0]
    for target in targets:
        page, _, anchor = target.partition("#")
        if first["page"] == url(page) and (not anchor or first["sections"][:1] == [f"#{anchor}"]):
            return True
    return False


def shown(found, n=3):
    """The first results, as `page#section`, for a message."""
    return [f"{r['page']}{r['sections'][0] if r['sections'] else ''}" for r in found[:n]]


def taught_sections(terms=None):
    """{index location: [Chinese words]}: the section that teaches each term of glossary.yml
    (`taught: autograd/computation-graph.md#leaves` -> `autograd/computation-graph/#leaves`).
    The zh index gives these words to the section as its `tags`, which weigh as a heading's
    words: a term finds the section that teaches it, not only the pages whose headings use it."""
    sections = {}
    for term in glossary() if terms is None else terms:
        if not term.get("taught"):
            continue
        page, _, anchor = term["taught"].partition("#")
        location = ("" if page == "index.md" else page.removesuffix(".md") + "/") + (
            f"#{anchor}" if anchor else ""
        )
        for word in chinese_words([term]):
            sections.setdefault(location, []).append(word)
    return sections
