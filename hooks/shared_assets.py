"""Let the pages of every language show the shared files in docs/assets/ (e.g. figures).

With `docs_structure: folder` and `fallback_to_default: false`, mkdocs-static-i18n builds
each other language with that language's files only, so a Chinese page showing
`../assets/figures/x.svg` fails the strict build although the file exists. This hook puts
the files outside the language folders back into those builds, at the same place in the
site as for the default language: one file, one URL, for both languages.
"""

from mkdocs.plugins import event_priority
from mkdocs.structure.files import get_files


@event_priority(-110)  # after mkdocs-static-i18n (-100) has picked the language's files
def on_files(files, config):
    i18n = config.plugins.get("i18n")
    if i18n is None or i18n.current_language == i18n.default_language:
        return files
    present = {file.src_uri for file in files}
    for file in get_files(config):
        shared = file.src_uri.split("/")[0] not in i18n.all_languages
        if shared and not file.is_documentation_page() and file.src_uri not in present:
            files.append(file)
    return files
