"""The project model: where things are, the site's languages, the pin, and how a page maps to
its built file and its URL. Hooks, tools, tests and bench read these; nothing else derives them.

A page is named by its path below docs/<language>/ (`autograd/backward.md`); its site path is
where the built site serves it (`autograd/backward/`, `zh/autograd/backward/`, `` for the home
page of the default language).

Only the standard library is imported at module level: the matrix worker imports this in a
venv that holds torch, numpy, matplotlib and sybil alone.
"""

import fcntl
import os
import subprocess
import tomllib
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"
DATA = ROOT / "data"
ASSETS = DOCS / "assets"
SITE = ROOT / "site"  # `make build`
TEST_SITE = ROOT / ".site-test"  # the site a test run reads, built once per run


@cache
def config():
    """mkdocs.yml as MkDocs reads it: `!ENV` as MkDocs resolves it (yaml_env_tag, MkDocs' own),
    `!relative $config_dir/x` as the path below the repository."""
    import yaml
    from yaml_env_tag import add_env_tag

    class Loader(yaml.SafeLoader):
        pass

    add_env_tag(Loader)
    Loader.add_constructor(
        "!relative",
        lambda loader, node: loader.construct_scalar(node).replace("$config_dir", str(ROOT)),
    )
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader)


@cache
def _languages():
    i18n = next(p["i18n"] for p in config()["plugins"] if isinstance(p, dict) and "i18n" in p)
    built = [lang for lang in i18n["languages"] if lang.get("build", True)]
    default = next(lang["locale"] for lang in built if lang.get("default"))
    return tuple(lang["locale"] for lang in built), default


def __getattr__(name):
    """LANGUAGES (the i18n plugin's built locales, default first as mkdocs.yml lists it) and
    DEFAULT_LANGUAGE, read from mkdocs.yml on first use."""
    if name == "LANGUAGES":
        return _languages()[0]
    if name == "DEFAULT_LANGUAGE":
        return _languages()[1]
    raise AttributeError(name)


def other(language):
    """The other language of a two-language site (en -> zh)."""
    (found,) = (lang for lang in _languages()[0] if lang != language)
    return found


def root_of(language):
    """Where a language's pages are served below the site root: "" or "zh/"."""
    return "" if language == _languages()[1] else f"{language}/"


def suffix(language):
    """The suffix of a file made per language: "" (memory.svg) or ".zh" (memory.zh.svg)."""
    return "" if language == _languages()[1] else f".{language}"


def language_of_name(name):
    """The language of a file made per language, by its suffix: the inverse of suffix()."""
    parts = Path(name).name.split(".")
    return parts[-2] if len(parts) > 2 and parts[-2] in _languages()[0] else _languages()[1]


IDEOGRAPHS = "\u3400-\u4dbf\u4e00-\u9fff"  # CJK ideographs, for a regex's [...]


def ideographic(language):
    """Whether a language writes in ideographs, with no spaces between words (zh): its text is
    spaced, matched and measured by characters, not by words."""
    return language in ("zh", "ja")


def site_url():
    """mkdocs.yml's `site_url` (SITE_URL overrides it, as `make serve` does)."""
    return config()["site_url"]


def published_site():
    """The site's real address, when the build was given one (SITE_URL: the deploy, `make
    serve`), else "": mkdocs.yml's default `site_url` is a placeholder, never shown."""
    return site_url() if os.environ.get("SITE_URL") else ""


def prefix():
    """The path the site is served under: /torch-verified/."""
    path = urlsplit(site_url()).path or "/"
    return path if path.endswith("/") else path + "/"


def pins():
    """{package: version} of every exact pin of pyproject.toml's dependency groups."""
    return dict(_pins((ROOT / "pyproject.toml").stat().st_mtime_ns))


@cache  # asked for on every page of a build
def _pins(mtime):
    groups = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = {}
    for group in groups["dependency-groups"].values():
        for requirement in group:
            if isinstance(requirement, str) and "==" in requirement:
                name, version = requirement.split("==")
                found[name.lower()] = version
    return found


def pinned_torch():
    """The torch release every example is checked against (pyproject.toml, `torch==`)."""
    return pins()["torch"]


def read_yaml(path):
    """A data file (glossary.yml, data/*.yml), parsed once until it changes (`make serve`
    rebuilds after an edit; a build reads each file for every page)."""
    stat = Path(path).stat()
    return _yaml(str(path), stat.st_mtime_ns, stat.st_size)


@cache
def _yaml(path, mtime, size):
    import yaml

    class Strict(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        """A key given twice in one mapping is an error, not silently the last one."""

        def construct_mapping(self, node, deep=False):
            keys = [self.construct_object(key, deep=True) for key, _ in node.value]
            twice = sorted({str(k) for k in keys if keys.count(k) > 1})
            if twice:
                raise ValueError(f"{path}, line {node.start_mark.line + 1}: {twice} given twice")
            return super().construct_mapping(node, deep)

    with open(path, encoding="utf-8") as file:
        return yaml.load(file, Strict)


def nav():
    """[(section, [page, ...])] of mkdocs.yml's `nav`, in reading order; a page outside any
    section (the home page) is a section of its own, named None."""
    found = []
    for item in config()["nav"]:
        ((name, value),) = item.items() if isinstance(item, dict) else ((None, item),)
        if isinstance(value, str):
            found.append((None, [value]))
        else:
            found.append(
                (name, [next(iter(v.values())) if isinstance(v, dict) else v for v in value])
            )
    return found


def nav_name(language, name):
    """A section's name in `language` (the i18n plugin's nav_translations)."""
    i18n = next(p["i18n"] for p in config()["plugins"] if isinstance(p, dict) and "i18n" in p)
    for lang in i18n["languages"]:
        if lang["locale"] == language:
            return (lang.get("nav_translations") or {}).get(name, name)
    return name


def glossary():
    """glossary.yml: the terms ({en, zh, avoid}) the Chinese pages follow."""
    return read_yaml(ROOT / "glossary.yml")


# -- pages and snippets ---------------------------------------------------------------------


def pages(language):
    """Paths of the pages of a language below docs/<language>/: Markdown and notebooks."""
    root = DOCS / language
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.suffix in (".md", ".ipynb") and ".ipynb_checkpoints" not in p.parts
    )


def markdown_pages(language):
    return [p for p in pages(language) if p.endswith(".md")]


def twins(markdown_only=False):
    """The pages that exist in every language."""
    found = markdown_pages if markdown_only else pages
    return sorted(set.intersection(*(set(found(lang)) for lang in _languages()[0])))


def snippet_files():
    """Every snippet, by its path below snippets/ (as pages include it)."""
    return sorted(p.relative_to(SNIPPETS).as_posix() for p in SNIPPETS.rglob("*.pycon"))


def kind(path):
    """ "cuda" for *.cuda.pycon (needs a GPU), "nocuda" for *.nocuda.pycon (what a machine
    without one prints), else None: the one place this naming rule is read."""
    return next((k for k in ("cuda", "nocuda") if str(path).endswith(f".{k}.pycon")), None)


def language_of(config, page=None):
    """The language of the page being built (the i18n plugin's locale of its file), or of the
    build itself (for templates and site-wide events)."""
    found = getattr(getattr(page, "file", None), "locale", None) or config.theme["language"]
    return found if found in _languages()[0] else _languages()[1]


# -- page <-> built file <-> URL ------------------------------------------------------------


def site_path(language, page):
    """Where the site serves a page: `zh/autograd/backward/`, `` for the default home page."""
    stem = page.rsplit(".", 1)[0]
    stem = "" if stem == "index" else stem.removesuffix("/index") + "/"
    return root_of(language) + stem


def built_file(site, language, page):
    return Path(site) / (site_path(language, page) + "index.html")


def url(base, language, page):
    """The URL of a page on a site served at `base` (which ends with /)."""
    return base + site_path(language, page)


def page_of(file, language):
    """The path of a file of the build below docs/<language>/ (`autograd/backward.md`)."""
    return file.src_uri.removeprefix(f"{language}/")


def language_of_path(path):
    """The language of a site path (`zh/autograd/backward/`, a search entry's location)."""
    first = path.split("/", 1)[0]
    return first if first in _languages()[0] else _languages()[1]


def language_of_url(base, address):
    """The language of a page URL of the site at `base` (None for an asset or another site)."""
    if not address.startswith(base):
        return None
    path = urlsplit(address).path[len(urlsplit(base).path) :]
    if path.startswith("assets/") or not (path == "" or path.endswith(("/", ".html"))):
        return None
    return language_of_path(path)


def search_index(site, language):
    """Where the built site at `site` keeps a language's search index."""
    return Path(site) / root_of(language) / "search" / "search_index.json"


def file_of_url(site, base, address):
    """The file of the site at `site` that a URL of the site at `base` serves."""
    path = unquote(urlsplit(address).path)[len(urlsplit(base).path) :]
    return Path(site) / (path + "index.html" if path.endswith("/") or not path else path)


# -- building the site ----------------------------------------------------------------------

BANNER = "end of life"  # Material's banner, which the Makefile turns off


def build_env():
    """The environment of a command that builds the site, with Material's banner on again: a
    check sees that the command printed none."""
    return {k: v for k, v in os.environ.items() if k != "NO_MKDOCS_2_WARNING"}


def build(site, stamp=None):
    """Build the site into `site` with `make build` (strict, not quiet: `-q` drops the warnings
    --strict counts), as a contributor does. With a `stamp`, once per stamp under a lock that
    every process of a test run shares. Returns None, or the output of a failed build (or
    of one that printed Material's banner)."""
    site = Path(site)
    with open(site.with_name(site.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = site / ".built"
        if stamp and done.is_file() and done.read_text() == stamp:
            return None
        result = subprocess.run(
            ["make", "--no-print-directory", "build", f"SITE_DIR={site}"],
            check=False,
            cwd=ROOT,
            capture_output=True,
            text=True,
            env=build_env(),
        )
        output = result.stdout + result.stderr
        if result.returncode != 0 or BANNER in output:
            return output
        done.write_text(stamp or "")
        return None


if __name__ == "__main__":  # `pin` (make install), or the early build of a test run: SITE STAMP
    import sys

    if sys.argv[1:] == ["pin"]:
        print(pinned_torch())
    else:
        build(*sys.argv[1:3])
