"""Make the copy button of a pycon block copy only the code.

Material copies the `data-copy` attribute of an ancestor of the code, when there is one.
For every pycon block this hook puts there the source of its examples, as doctest reads
them: no `>>> `/`... ` prompts, no outputs, no tracebacks. What is pasted runs.
"""

import doctest
import html
import re

BLOCK = re.compile(r'<div class="language-pycon highlight">(.*?)</div>', re.DOTALL)
CODE = re.compile(r"<code>(.*?)</code>", re.DOTALL)
TAG = re.compile(r"<[^>]+>")


def runnable_code(session):
    """The code of a doctest session; a blank line closes each multi-line statement,
    so that pasting it into an interactive Python prompt runs it too."""
    examples = doctest.DocTestParser().get_examples(session)
    return "".join(
        example.source + ("\n" if example.source.count("\n") > 1 else "") for example in examples
    )


def _with_copy_text(match):
    code = CODE.search(match.group(1))
    if not code:
        return match.group(0)
    session = html.unescape(TAG.sub("", code.group(1)))
    copy = html.escape(runnable_code(session), quote=True)
    return f'<div class="language-pycon highlight" data-copy="{copy}">{match.group(1)}</div>'


def on_page_content(content, page, config, files):
    return BLOCK.sub(_with_copy_text, content)
