"""Every teaching page as a Jupyter notebook to download, made at build time from its page
(torch_verified/notebooks.py says how): written next to the page's HTML as `<page>.ipynb`,
with a download link under the page's title, and, when the repository is on GitHub, a link
that opens it in Google Colab from the branch ci.yml pushes the built notebooks to
(notebooks.COLAB_BRANCH). Nothing of it is committed;
tests/test_page_notebooks.py runs the notebooks and compares their outputs with the
snippets'.
"""

import json
from html import escape
from pathlib import Path

from torch_verified.notebooks import (
    colab_url,
    is_teaching,
    notebook,
    notebook_name,
    with_download_link,
)
from torch_verified.project import language_of, page_of, pinned_torch, published_site
from torch_verified.strings import STRINGS

_notebooks = {}  # src_uri of a page -> its notebook, from on_page_markdown to on_post_page


def on_page_markdown(markdown, page, config, files):
    language = language_of(config, page)
    if is_teaching(page_of(page.file, language)):
        _notebooks[page.file.src_uri] = notebook(
            markdown,
            language,
            page=page_of(page.file, language),
            site=published_site(),
            torch=pinned_torch(),
        )
    return markdown


def on_page_content(html, page, config, files):
    if page.file.src_uri not in _notebooks:
        return html
    language, words = language_of(config, page), STRINGS[language_of(config, page)]
    colab = colab_url(config.extra.get("repository"), language, page_of(page.file, language))
    more = ""
    if colab:  # a plain link: nothing is loaded from Google until the reader clicks it
        more = f'{words["colab_separator"]}<a href="{escape(colab, quote=True)}">{words["colab_link"]}</a>'
    return with_download_link(html, notebook_name(page_of(page.file, language)), language, more)


def on_post_page(output, page, config):
    nb = _notebooks.pop(page.file.src_uri, None)
    if nb is not None:
        language = language_of(config, page)
        target = Path(page.file.abs_dest_path).parent / notebook_name(page_of(page.file, language))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(nb, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return output
