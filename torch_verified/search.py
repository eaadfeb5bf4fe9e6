"""Search: the words Chinese is cut into, and what each language's index holds.

Material's search (a lunr index, built in the reader's browser from `search_index.json`)
cuts Chinese text with jieba at build time, a zero-width space between words. jieba does
not know the site's terms (计算·图, 叶子·张量, 不·匹配): `chinese_words` gives it the Chinese
terms of glossary.yml, so a new term is one word in the index without a list kept beside
the glossary. The query side (what a reader types) is the search worker of
overrides/assets/javascripts/workers/search.js, which wraps Material's.

The index leaves out the code blocks (they were half of it: the index was too heavy for a
first visit, and a word of a teaching section is in its prose) and the glossary's meanings:
`excluded_from_index` marks them for Material's search, which then does not even parse
them; a pasted error message finds its entry by the entry's heading.
`tags` gives a section the words it is found by beside its own (data/search_terms.yml, the
glossary terms it teaches). `cases` are what the search must find (data/search_queries.yml
and what derives from the pages); `check` asks them in Chromium (tools/search_queries.py).
"""

import re
from functools import partial
from pathlib import Path

from torch_verified.project import DATA, LANGUAGES, glossary, read_yaml, search_index

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]{2,}")
# jieba's weight of a glossary word: enough to keep it whole between other words
# (把·计算图·画·出来, not 把·计算·图画·出来)
WEIGHT = 100_000
WORKER = "search.js"  # the worker the search box starts (overrides/assets/javascripts/workers/)
CODE = "en"  # lunr's language of the code and identifiers on every page, in every index
# the page's Material config (base, search worker, ...), which the hook rewrites
CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.DOTALL)
QUERIES = DATA / "search_queries.yml"
ERROR_TABLE = "errors/error-table.md"
TERMS = DATA / "search_terms.yml"  # words a section is found by, beside its own


def chinese_words(terms=None, column="zh"):
    """The Chinese words of glossary.yml's `zh:` terms: `梯度累加（也常称梯度累积）` gives
    梯度累加 and 梯度累积, `不匹配（形状、维度） / 不一致（数据类型、设备）` gives 不匹配 and 不一致
    (a note in brackets is not a term); terms mixed with Latin (`doctest 会话`) are left out."""
    words = []
    for term in glossary() if terms is None else terms:
        for part in str(term.get(column, "")).split(" / "):
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
# the teaching sections), every code block (<pre>, and a notebook cell's copy of its code
# for the copy button, a div of plain text), and the glossary's meanings (<dd>: the
# term finds its entry; the words of a meaning are the lessons'). Only on an element with
# no element of its tag inside: Material compares elements by tag, so the first inner
# </div> of an excluded <div> ends the exclusion.
UNSEARCHED = re.compile(
    r'<details class="(?:success|tip)"|<(?:pre|dd)(?=[ >])|<div class="clipboard-copy-txt"'
)


# Sections whose text the index leaves out (their titles stay): the exercises (their words
# are the lessons', and a result there is practice, not an answer) and the key takeaways (a
# page's summary of its own sections), and the error table's entries (a pasted message
# finds its entry by the heading, which holds the whole message and the error's name; the
# cause and fix drew concept questions to error entries). With the 10 pages of this turn,
# the Chinese index was 209 KB gzipped and a first visit 310 KB, over its 300 KB budget.
TITLE_ONLY = re.compile(
    r"#(?:exercises|exercise-\d+|challenge|key-takeaways)$|^errors/error-table/#"
)


def excluded_from_index(html):
    """The page's HTML with `data-search-exclude` on what the index leaves out."""
    return UNSEARCHED.sub(lambda m: m[0] + " data-search-exclude", html)


# Material's search worker, as its search box uses it (integrations/search/worker: SETUP
# with the index, READY, then a QUERY per input value and its RESULT), asked every query of
# a list; each result grouped as renderSearchResultItem shows it (components/search/result):
# the page, then the sections that score as high as the best one of its group.
ASK = """async ([address, queries]) => {
  const config = JSON.parse(document.getElementById("__config").textContent)
  const base = new URL(config.base, location.href)
  const index = await (await fetch(address)).json()
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
    address = reader.server.base + search_index("", lang).as_posix()
    return reader.page.evaluate(ASK, [address, list(queries)])


def entry_names(lang):
    """{error name: the title of its entry} in docs/<lang>/errors/error-table.md, as a reader
    types it (`对多元素张量调用 .item()`, without the backticks)."""
    from torch_verified.errors import HEADING, error_snippets
    from torch_verified.project import DOCS

    text = (DOCS / lang / ERROR_TABLE).read_text(encoding="utf-8")
    names = error_snippets()
    return {
        m["anchor"].replace("-", "_"): " ".join(m["title"].replace("`", "").split())
        for m in HEADING.finditer(text)
        if m["anchor"].replace("-", "_") in names
    }


def glossary_queries(lang, terms=None):
    """[(Chinese word, the page that teaches it)] for the glossary terms with `taught:`."""
    return [
        (word, term["taught"].split("#")[0])
        for term in (glossary() if terms is None else terms)
        if term.get("taught")
        for word in chinese_words([term], lang)
    ]


def pasted(message):
    """What a reader may paste of a message: all of it (as the page shows it, the `...` of a
    shortened one left out), and its first sentence without the exception type."""
    whole = message.removesuffix(" ...")
    first = re.split(r"(?<=[.!?]) ", re.sub(r"^[\w.]+: ", "", whole), maxsplit=1)[0]
    return {"whole": whole, "first": first}


def messages():
    """(error, form, text): what the pinned torch prints, and what the other releases of the
    version matrix print where it differs (data/releases.yml, checked by `make matrix`)."""
    from torch_verified import errors

    found = []
    for name, path in sorted(errors.error_snippets().items()):
        for message, releases in errors.message_variants(path):
            own = message == errors.error_message(path)
            label = "" if own else "torch-" + "-".join(releases) + "-"
            found += [(name, label + form, text) for form, text in pasted(message).items()]
    return found


def cases(path=QUERIES):
    """Every ranking case: (lang, query, targets, n, why). One of `targets` (`page` or
    `page#anchor`) must be among the first `n` results; `why` says why it misses still (it
    must then miss). From `path` (data/search_queries.yml: parts, terms, first) and derived:
    every error message pasted, every entry's Chinese name, every glossary term taught."""
    from torch_verified import errors

    data = read_yaml(path)
    snippets = errors.error_snippets()

    def entry(name, where):
        if name not in snippets:
            raise ValueError(f"{where}: no snippets/errors/{name}.pycon")
        return [f"{ERROR_TABLE}#{errors.anchor(name)}"]

    found = []
    for lang in LANGUAGES:
        found += [(lang, text, entry(name, "-"), 1, None) for name, _, text in messages()]
        for part, name in data["parts"]:
            shown = errors.error_message(snippets[name]) if name in snippets else ""
            if part not in shown:
                raise ValueError(f"{path}: {part!r} is not in the message of {name}: {shown!r}")
            found.append((lang, part, entry(name, path), 1, None))
        for term, pages in data["terms"].get(lang, []):
            found.append((lang, term, [pages] if isinstance(pages, str) else pages, 3, None))
        for query, targets, *why in data["first"].get(lang, []):
            found.append((lang, query, targets, 1, why[0] if why else None))
        # no targets: every result is a page of the language, each once
        found += [(lang, q, None, 0, None) for language, q in data["languages"] if language == lang]
        found += [(lang, t, entry(n, "-"), 1, None) for n, t in entry_names(lang).items()]
        found += [(lang, word, [page], 3, None) for word, page in glossary_queries(lang)]
    return found


def among(found, targets, url, n=1):
    """Whether one of the first `n` results is one of `targets` (`page`, or `page#anchor`:
    the result's first section); `url(page)` gives a page's address."""
    for result in found[:n]:
        for target in targets:
            page, _, anchor = target.partition("#")
            if result["page"] == url(page) and (
                not anchor or result["sections"][:1] == [f"#{anchor}"]
            ):
                return True
    return False


def shown(found, n=3):
    """The first results, as `page#section`, for a message."""
    return [f"{r['page']}{r['sections'][0] if r['sections'] else ''}" for r in found[:n]]


def check(server, checked, log=print):
    """Ask every case of `checked` ((lang, query, targets, n, why), as cases() gives them) of
    the search on the site `server` serves, in Chromium; log a line per query. Returns
    (misses, {lang: (right, asked)}): a miss is a case whose target is not found where it
    must be, or a known miss (`why`) that is found now."""
    from playwright.sync_api import sync_playwright

    from torch_verified.browser import DESKTOP, Reader, launch

    misses, score = [], {}
    with sync_playwright() as playwright:
        browser = launch(playwright)
        reader = Reader(browser.new_context(viewport=DESKTOP), server).setup()
        for lang in LANGUAGES:
            mine = [c for c in checked if c[0] == lang]
            answers = ask(reader, lang, {c[1] for c in mine})
            score[lang] = [0, len(mine)]
            for _, query, targets, n, why in mine:
                found = answers[query]
                pages = [r["page"] for r in found]
                ok = (
                    among(found, targets, partial(server.url, lang), n)
                    if targets
                    else found
                    and len(set(pages)) == len(pages)
                    and all(server.language_of(page) == lang for page in pages)
                )
                score[lang][0] += ok
                first = shown(found, 1)[0].split(server.url(lang, ""), 1)[-1] if found else "-"
                want = f"   (wanted in the first {n}: {targets or 'own pages, once'})"
                log(f"{'ok  ' if ok else 'MISS'} {lang} {query!r} -> {first}" + want * (not ok))
                wrong = f"found now: remove its reason ({why})" if why else f"not {want.strip()}"
                misses += [f"search {lang} {query!r}: {wrong}"] * (ok == bool(why))
        browser.close()
    return misses, score


# A page's exercises, challenge and takeaways restate what its sections teach: a question
# finds the teaching section first (the index weighs them by RECAP)
RECAP = 0.5
RECAPS = re.compile(r"#(exercises|exercise-\d+|challenge|key-takeaways)$")


def recap(doc):
    return bool(RECAPS.search(doc["location"]))


def message_entries():
    """The index locations of the error table's entries, each headed by its message (the
    search worker gives them their page's boost only where the heading holds the query)."""
    from torch_verified import errors

    return {location(f"{ERROR_TABLE}#{errors.anchor(n)}") for n in errors.error_snippets()}


def location(target):
    """`autograd/backward.md#leaves` -> `autograd/backward/#leaves`, as the index names it."""
    page, _, anchor = target.partition("#")
    stem = "" if page == "index.md" else page.removesuffix(".md") + "/"
    return stem + (f"#{anchor}" if anchor else "")


def taught_sections(lang, terms=None):
    """{index location: [Chinese words]}: the section that teaches each term of glossary.yml
    (`taught: autograd/computation-graph.md#leaves`), in `lang`'s column. The index gives
    these words to the section as its `tags`, which weigh as a heading's words: a term finds
    the section that teaches it, not only the pages whose headings use it."""
    sections = {}
    for term in glossary() if terms is None else terms:
        if term.get("taught"):
            words = chinese_words([term], lang)
            sections.setdefault(location(term["taught"]), []).extend(words)
    return sections


def tags(docs, lang, path=TERMS):
    """{index location: [words]} of a language's index (`docs`): the glossary's Chinese words
    where they are taught (a page's title anchor is the page), and `path`'s search terms
    (data/search_terms.yml). A key of `path` that names no section is an error."""
    import yaml

    where = {d["location"] for d in docs}
    found = {}
    for place, words in taught_sections(lang).items():
        place = place if place in where else place.split("#")[0]
        found.setdefault(place, []).extend(words)
    text = Path(path).read_text(encoding="utf-8")
    lines = {key.value: key.start_mark.line + 1 for key, _ in yaml.compose(text).value}
    for key, words in read_yaml(path).items():
        unknown = set(words) - set(LANGUAGES)
        if unknown or location(key) not in where and lang in words:
            what = f"no language {sorted(unknown)}" if unknown else f"no section of docs/{lang}"
            raise ValueError(f"{path}, line {lines[key]}: {key} names {what}")
        found.setdefault(location(key), []).extend(words.get(lang, []))
    return found
