"""One search index per language, so that a reader searches the pages of their own language;
the glossary's Chinese words for jieba, the index without code blocks, and the search box's
worker (torch_verified/search.py).

mkdocs-static-i18n merges the entries of every language into one `search/search_index.json`,
and Material's search (which fetches `search/search_index.json` relative to the `base` of the
page's `__config`) then mixes English and Chinese results. After the last build this hook
splits that index: the default language keeps `search/search_index.json`, every other
language gets `<lang>/search/search_index.json` (locations relative to `<lang>/`), and the
pages of that language point their `__config.base` at `<lang>/`. The reader's palette choice
is unaffected: Material keys it on `__md_scope`, which stays the site root. Each section
gets its search terms as `tags` (data/search_terms.yml, the glossary's terms it teaches), an
error-table entry `message: 1`, an exercise or takeaway half its weight: what the worker
ranks by (overrides/assets/javascripts/workers/search.js).
"""

import json

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from torch_verified import search
from torch_verified.project import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    language_of,
    language_of_path,
    root_of,
    search_index,
)


def on_config(config):
    try:
        search.teach_jieba()
    except ImportError:  # Material's search plugin does not segment Chinese without jieba
        pass


def on_page_content(html, page, config, files):
    return search.excluded_from_index(html)


def on_post_page(output, page, config):
    language = language_of(config)

    def rebase(match):
        app = json.loads(match.group(2))
        if language != DEFAULT_LANGUAGE:
            app["base"] = f"{app['base'].rstrip('/')}/{language}/"
        # the site's worker, next to Material's, which it loads (its name has a hash)
        folder, _, material = app["search"].rpartition("/")
        app["search"] = f"{folder}/{search.WORKER}?worker={material}"
        text = json.dumps(app, ensure_ascii=False).replace("<", "\\u003c")
        return match.group(1) + text + match.group(3)

    return search.CONFIG.sub(rebase, output, count=1)


def split(index, default, others):
    """{language: index} from the merged index; locations become relative to `<lang>/`."""
    parts = {lang: [] for lang in (default, *others)}
    for doc in index["docs"]:
        lang = language_of_path(doc["location"])
        location = doc["location"].removeprefix(root_of(lang))
        doc = {**doc, "location": location}
        if search.TITLE_ONLY.search(location):
            doc["text"] = ""
        parts[lang].append(doc)
    messages = search.message_entries()
    result = {}
    for lang, docs in parts.items():
        # code and identifiers are on every page: lunr's English stays with the language's
        langs = [x for x in index["config"]["lang"] if x in (search.CODE, lang)] or [search.CODE]
        config = {**index["config"], "lang": langs}
        tags = search.tags(docs, lang) if docs else {}  # (i18n's inner build: one language)
        docs = [{**d, "tags": tags[d["location"]]} if tags.get(d["location"]) else d for d in docs]
        docs = [{**d, "message": 1} if d["location"] in messages else d for d in docs]
        docs = [
            {**d, "boost": d.get("boost", 1) * search.RECAP} if search.recap(d) else d for d in docs
        ]
        fields = config["fields"]
        # a section's search terms, and the terms it teaches, before the headings with them
        boost = 1.5 * fields["title"]["boost"]
        config["fields"] = {**fields, "tags": {**fields["tags"], "boost": boost}}
        result[lang] = {**index, "config": config, "docs": docs}
    return result


@event_priority(-200)  # after mkdocs-static-i18n (-100) has written the merged index
def on_post_build(config):
    merged = search_index(config.site_dir, DEFAULT_LANGUAGE)
    if not merged.is_file():
        return
    index = json.loads(merged.read_text(encoding="utf-8"))
    others = [lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE]
    try:
        parts = split(index, DEFAULT_LANGUAGE, others)
    except ValueError as error:  # data/search_terms.yml names no section
        raise PluginError(str(error)) from None
    for lang, part in parts.items():
        target = search_index(config.site_dir, lang)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(part, ensure_ascii=False, separators=(",", ":")), "utf-8")
