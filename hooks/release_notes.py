"""Under each example, what the page cannot show in its code block:

- what the other releases of the version matrix print for it, where they print something
  else than the pin (data/releases.yml, checked by `make matrix`: torch_verified/matrix.py);
- under an example that needs a GPU (`*.cuda.pycon`), when the GPU job last ran it
  (data/gpu_check.yml), that it changed since, or that no GPU has checked it yet.
"""

from mkdocs.exceptions import PluginError

from torch_verified import gpu_record, matrix
from torch_verified.markdown import FENCED_INCLUDE
from torch_verified.project import kind, language_of
from torch_verified.strings import STRINGS


def note(data, entries, lang, indent):
    """Markdown under an example's fence: what the other releases print."""
    words, lines = STRINGS[lang], []
    for entry in entries:
        output = " ".join(entry.output.split())
        code = f"`` {output} ``" if "`" in output else f"`{output}`"
        verb = words["prints"] if len(entry.releases) == 1 else words["print"]
        label = data.label(entry.releases, lang)
        lines.append(
            indent
            + words["release_note"].format(label=label, verb=verb, example=entry.example, code=code)
        )
    body = f"\n{indent}\n".join(lines)
    return f'\n\n{indent}<div class="release-outputs" markdown>\n\n{body}\n\n{indent}</div>'


def gpu_note(lang, indent, record, snippet):
    """The note under a CUDA example: the last GPU run, or that the example changed since
    (its file's sha256 is not the one the record holds)."""
    if gpu_record.changed_since(record, snippet):
        text = STRINGS[lang]["gpu_changed"].format(date=record["date"])
    else:
        text = STRINGS[lang]["gpu_note"].format(text=gpu_record.text(lang, record))
    return f'\n\n{indent}<div class="gpu-check" markdown>\n\n{indent}{text}\n\n{indent}</div>'


def annotate(markdown, data, lang, record=None):
    def add(match):
        if match["lang"] != "pycon":
            return match[0]
        if kind(match["snippet"]) == "cuda":
            return match[0] + gpu_note(lang, match["indent"], record, match["snippet"])
        entries = data.for_snippet(match["snippet"])
        return match[0] + note(data, entries, lang, match["indent"]) if entries else match[0]

    return FENCED_INCLUDE.sub(add, markdown)


def on_page_markdown(markdown, page, config, files):
    try:
        return annotate(markdown, matrix.load(), language_of(config, page), gpu_record.load())
    except (matrix.MatrixDataError, gpu_record.RecordError, OSError) as error:
        raise PluginError(f"docs/{page.file.src_uri}: {error}") from error
