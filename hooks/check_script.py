"""torch-verified-check.py, the file the readers' check page (reference/check.md) offers: built
from the snippets by torch_verified/check_script.py, once per language (its messages and page
addresses default to that language), served at the root of each language's site. Nothing of
it is committed.

The repository it links reports to is `extra.repository` of mkdocs.yml (REPOSITORY_URL,
which CI's published build sets); a build without it writes a file that says so.
"""

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

from torch_verified import check_script
from torch_verified.project import language_of, root_of


@event_priority(-110)  # after the i18n plugin has chosen this language's files
def on_files(files, config):
    language = language_of(config)
    try:
        text = check_script.script(
            language=language,
            site=config.site_url,
            repository=config.extra.get("repository") or None,
        )
    except (ValueError, OSError) as error:  # data/releases.yml, a snippet: they name the file
        raise PluginError(f"{check_script.NAME}: {error}") from error
    files.append(File.generated(config, root_of(language) + check_script.NAME, content=text))
    return files
