"""A code block's caption is for learners ("From Python lists"); contributors get the file
the example lives in one click away: a small link after the caption to the snippet in the
project's repository (`extra.repository`, REPOSITORY_URL in the published build), at the
commit that was built (GITHUB_SHA in CI, else the default branch). Without a repository
there is no link. The link sits in the block's title bar, outside the code: the copy
button does not copy it.

The snippet's name travels from the Markdown (where the include names it) to the HTML
(where the title bar is) as a marker in the fence's title, replaced or removed here.
"""

import os

from torch_verified.markdown import source_links, with_source_markers
from torch_verified.project import language_of


def on_page_markdown(markdown, page, config, files):
    return with_source_markers(markdown)


def on_page_content(html, page, config, files):
    commit = os.environ.get("GITHUB_SHA") or "HEAD"
    repository = config.extra.get("repository") or ""
    return source_links(html, language_of(config, page), repository, commit)
