"""List the Chinese pages whose English twin changed after them, from git history.

    python -m tools.stale_translations

A report, not a check: it exits 0 whatever it finds (2 only when it cannot look). A page
is stale when a commit changed what a reader sees of docs/en/X after docs/zh/X was last
committed or marked reviewed. Not counted: merge commits, and changes to the front matter
(the description is written in each language), to HTML comments or to line breaks and
spaces alone. To mark a page reviewed when the English change needs no translation,
commit with a trailer naming it (an empty commit will do):

    git commit --allow-empty -m "zh: reviewed, nothing to translate" \
        --trailer "Translation-reviewed: docs/zh/autograd/computation-graph.md"

Pages never committed are left out; in a shallow clone the history is cut short, so the
report can miss pages (`git fetch --unshallow` for a full one).
"""

import re
import subprocess
import sys
from pathlib import Path

from torch_verified.examples import BadInput
from torch_verified.markdown import FRONT_MATTER

TRAILER = "Translation-reviewed:"
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def git(*args, cwd=".", check=True):
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise BadInput("git: not installed") from None
    if done.returncode and not check:
        return None
    if done.returncode:
        reason = (done.stderr.strip().splitlines() or ["failed"])[-1]
        raise BadInput(f"{Path(cwd).resolve()}: git {args[0]}: {reason}")
    return done.stdout.strip()


def visible(text):
    """What a reader sees of a page's source: no front matter, comments or line breaks."""
    if text is None:
        return None
    return " ".join(COMMENT.sub("", FRONT_MATTER.sub("", text)).split())


def changes_what_a_reader_sees(commit, page, root):
    before = git("show", f"{commit}^:{page}", cwd=root, check=False)
    after = git("show", f"{commit}:{page}", cwd=root, check=False)
    return visible(before) != visible(after)


def stale(root):
    """(zh page, en page, [English commits since the last Chinese one]) for each stale twin."""
    found = []
    for zh in sorted((root / "docs" / "zh").rglob("*")):
        if zh.suffix not in (".md", ".ipynb"):
            continue
        rel = zh.relative_to(root / "docs" / "zh").as_posix()
        zh_page, en_page = f"docs/zh/{rel}", f"docs/en/{rel}"
        last = git("log", "-1", "--format=%H", "--", zh_page, cwd=root)
        if not last or not (root / en_page).exists():
            continue
        reviewed = git("log", "-1", "--format=%H", "-F", f"--grep={TRAILER} {zh_page}", cwd=root)
        since = [f"^{c}" for c in (last, reviewed) if c]
        log = git(
            "log", "--no-merges", "--format=%H %h %as %s", "HEAD", *since, "--", en_page, cwd=root
        )
        newer = [
            line.split(" ", 1)[1]
            for line in log.splitlines()
            if changes_what_a_reader_sees(line.split(" ", 1)[0], en_page, root)
        ]
        if newer:
            found.append((zh_page, en_page, newer))
    return found


def unknown_trailers(root):
    """(commit, value) of each trailer that names no Chinese page (a path without `.md`)."""
    values = f"%(trailers:key={TRAILER[:-1]},valueonly,separator=%x20)"
    log = git("log", f"--format=%h%x00{values}%x01", cwd=root)
    return [
        (commit, value)
        for commit, named in (e.strip().split("\0") for e in log.split("\x01") if "\0" in e)
        for value in named.split()
        if not value.startswith("docs/zh/") or not (root / value).is_file()
    ]


def main(argv=None):
    try:
        root = Path(git("rev-parse", "--show-toplevel"))
        if not (root / "docs" / "zh").is_dir():
            raise BadInput(f"{root}: no docs/zh folder; run it in the site's repository")
        if not git("rev-parse", "--verify", "--quiet", "HEAD", cwd=root):
            raise BadInput(f"{root}: no commit yet")
        found = stale(root)
        shallow = git("rev-parse", "--is-shallow-repository", cwd=root) == "true"
    except BadInput as error:
        print(f"stale_translations: {error}", file=sys.stderr)
        return 2
    for zh_page, en_page, commits in found:
        print(f"{zh_page}: its English twin changed in {len(commits)} commit(s) since:")
        print("".join(f"    {commit}\n" for commit in commits), end="")
        print(f"  see the change: git show {commits[-1].split()[0]}^..HEAD -- {en_page}")
    for commit, named in unknown_trailers(root):
        print(f"warning: commit {commit}: `{TRAILER} {named}` names no page of docs/zh/")
    print(
        f"{len(found)} Chinese page(s) older than their English twin"
        + (": bring them up to date, or mark them reviewed (CONTRIBUTING.md)" if found else "")
    )
    if shallow:
        print("note: shallow clone, history cut short; `git fetch --unshallow` for a full report")
    return 0


if __name__ == "__main__":
    sys.exit(main())
