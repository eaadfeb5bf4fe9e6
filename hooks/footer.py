"""The footer of every page says what verified this build (overrides/partials/copyright.html),
and the templates get the strings of torch_verified/strings.py.

CI builds the published site in the job whose tests have just passed and sets VERIFIED_RUN
to that run's address: the stamp then gives torch's version and build as installed in that
environment (e.g. 2.15.0+cu132), the date and the commit. Without VERIFIED_RUN (`make
serve`, any local build) it says that this is a local build, not the published site, which
names its CI run (not "not verified": a reader could not tell what that meant). Its second line is the last run of the
CUDA examples on a GPU (data/gpu_check.yml). The first ends with a link to the page that
offers the reader's own check (torch_verified/check_script.py).
"""

import ast
import datetime
import importlib.util
import os
from html import escape
from pathlib import Path

from mkdocs.exceptions import PluginError

from torch_verified import check_script, gpu_record
from torch_verified.project import LANGUAGES, language_of, prefix, site_path
from torch_verified.strings import STRINGS


def installed_torch_version():
    """torch.__version__ with its build (2.15.0+cu132, 2.15.0+cpu), read from torch/version.py
    without importing torch (seconds saved on every build)."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return "(not installed)"
    source = Path(spec.submodule_search_locations[0], "version.py").read_text(encoding="utf-8")
    for node in ast.parse(source).body:
        target = getattr(node, "target", None) or (getattr(node, "targets", None) or [None])[0]
        if isinstance(target, ast.Name) and target.id == "__version__":
            return ast.literal_eval(node.value)
    raise PluginError(f"{spec.origin}: no __version__ in torch/version.py")


def footer_html(language, environ, record, today=None):
    """The footer's two lines: what verified this build, and the last GPU run."""
    words = STRINGS[language]
    torch = escape(installed_torch_version())
    run = environ.get("VERIFIED_RUN")
    if run:
        date = (today or datetime.datetime.now(datetime.UTC).date()).isoformat()
        commit = (environ.get("GITHUB_SHA") or gpu_record.head())[:7]
        first = words["verified"].format(
            run=escape(run, quote=True), date=date, commit=commit, torch=torch
        )
    else:
        first = words["local"].format(torch=torch)
    check = prefix() + site_path(language, check_script.PAGE)
    first += f' <a href="{escape(check, quote=True)}">{words["check_link"]}</a>'
    second = words["gpu_label"].format(gpu_check=escape(gpu_record.text(language, record)))
    return (
        f'<span class="verified-stamp__run">{first}</span><br>'
        f'<span class="verified-stamp__gpu">{second}</span>'
    )


def on_env(env, config, files):
    """Once per language build: the stamps (every language's, for the one 404 page that
    speaks to readers of both) and the strings, for every template."""
    try:
        record = gpu_record.load()
    except gpu_record.RecordError as error:
        raise PluginError(str(error)) from error
    stamps = {lang: footer_html(lang, os.environ, record) for lang in LANGUAGES}
    language = language_of(config)
    env.globals.update(
        verified_stamps=stamps,
        verified_stamp=stamps[language],
        strings=STRINGS[language],
        all_strings=STRINGS,
    )
    return env
