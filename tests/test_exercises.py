"""Every teaching page ends with exercises whose answers are checked snippets, the same in
both languages (markup: CONTRIBUTING.md, "Exercises").

A teaching page is any Markdown page of docs/<lang>/ except the reference pages named in
torch_verified/notebooks.py (REFERENCE_PAGES), so a new page needs exercises from the start.
"""

import re
import sys

import pytest

from torch_verified.examples import parse
from torch_verified.markdown import INCLUDE, without_fences
from torch_verified.notebooks import is_teaching
from torch_verified.project import DOCS, LANGUAGES, SNIPPETS, markdown_pages
from torch_verified.strings import STRINGS

EN, ZH = LANGUAGES
PAGES = [p for p in markdown_pages(EN) if is_teaching(p)]
EACH = [(page, lang) for page in PAGES for lang in LANGUAGES]
SECTION = {lang: STRINGS[lang]["exercises"] for lang in LANGUAGES}
ANSWER = {lang: STRINGS[lang]["answer"] for lang in LANGUAGES}
HINT = {lang: STRINGS[lang]["hint"] for lang in LANGUAGES}
CHALLENGE = {lang: STRINGS[lang]["challenge"] for lang in LANGUAGES}
HOW = "see CONTRIBUTING.md, 'Exercises'"

H2 = re.compile(r"^## (.*?)\s*(?:\{\s*#([\w-]+)\s*\})?\s*$")
H3 = re.compile(r"^### (.*?)\s*(?:\{\s*#([\w-]+)\s*\})?\s*$")
DETAILS = re.compile(r'^\?\?\?(\+?)\s+(\w+)\s+"([^"]*)"\s*$')


def exercises(page, lang):
    """[{anchor, title, question: [includes], answers: [includes], details: [...],
    reason: text}] of the exercise section of a page; AssertionError naming the file if
    the section is missing or misplaced."""
    name = f"docs/{lang}/{page}"
    lines = (DOCS / lang / page).read_text(encoding="utf-8").splitlines()
    bare = without_fences("\n".join(lines)).splitlines()  # headings outside code blocks
    h2 = [(n, H2.match(line)) for n, line in enumerate(bare) if H2.match(line)]
    at = [n for n, m in h2 if m.group(2) == "exercises"]
    assert at, (
        f"{name}: a teaching page ends with `## {SECTION[lang]} {{ #exercises }}` "
        f"and 2-4 exercises; {HOW}"
    )
    assert h2[-1][0] == at[0], (
        f"{name}: `## ... {{ #exercises }}` must be the last `##` section of the page "
        f"(found `{h2[-1][1].group(0)}` after it)"
    )
    title = h2[-1][1].group(1)
    assert title == SECTION[lang], f"{name}: the section is titled {title!r}, not {SECTION[lang]!r}"
    found, current, in_answer = [], None, False
    for n in range(at[0] + 1, len(lines)):
        line = lines[n]
        heading = H3.match(bare[n])
        if heading:
            current = {
                "anchor": heading.group(2),
                "title": heading.group(1),
                "line": n + 1,
                "question": [],
                "answers": [],
                "details": [],
                "reason": [],
            }
            found.append(current)
            in_answer = False
            continue
        details = DETAILS.match(line)
        if details and current is not None:
            current["details"].append(details.groups())
            in_answer = True
            continue
        if in_answer and line.strip() and not line.startswith("    "):
            in_answer = False
        include = INCLUDE.match(line)
        if current is None:
            assert not line.strip(), f"{name}, line {n + 1}: text before the first exercise"
        elif include:
            current["answers" if in_answer else "question"].append(include["name"])
        elif in_answer and line.strip() and not re.match(r"\s*(```|~~~)", line):
            current["reason"].append(line.strip())
    return found


@pytest.mark.parametrize(("page", "lang"), EACH)
def test_teaching_page_ends_with_two_to_four_exercises_and_a_challenge(page, lang):
    found = exercises(page, lang)
    anchors = [e["anchor"] for e in found]
    n = len(found) - 1
    assert 2 <= n <= 4 and anchors == [f"exercise-{i}" for i in range(1, n + 1)] + ["challenge"], (
        f"docs/{lang}/{page}: want 2 to 4 exercises anchored {{ #exercise-1 }}, "
        f"{{ #exercise-2 }}, ... in order, then one `### {CHALLENGE[lang]}... {{ #challenge }}`; "
        f"got {anchors}"
    )
    title = found[-1]["title"]
    assert title.startswith(CHALLENGE[lang]), (
        f"docs/{lang}/{page}: the last exercise is titled {title!r}; it starts with "
        f"{CHALLENGE[lang]!r}"
    )


@pytest.mark.parametrize(("page", "lang"), EACH)
def test_every_exercise_has_a_checked_answer(page, lang):
    # the page's chapter folder, or one named after the page (errors/debugging.md: debugging/)
    folders = {page.split("/")[0], page.rsplit("/", 1)[-1].removesuffix(".md")}
    problems = []
    for ex in exercises(page, lang):
        where = f"docs/{lang}/{page}, line {ex['line']} ({ex['anchor']})"
        details = ex["details"]
        if ex["anchor"] == "challenge":
            if len(details) != 2 or details[0] != ("", "tip", HINT[lang]):
                problems.append(
                    f'{where}: the challenge has a collapsed `??? tip "{HINT[lang]}"`, then '
                    f'`??? success "{ANSWER[lang]}"`'
                )
                continue
            details = details[1:]
        if len(details) != 1:
            problems.append(f'{where}: needs exactly one `??? success "{ANSWER[lang]}"` block')
            continue
        opened, kind, summary = details[0]
        if opened or kind != "success" or summary != ANSWER[lang]:
            problems.append(
                f'{where}: the answer block must be `??? success "{ANSWER[lang]}"` '
                f"(collapsed, so the answer stays hidden until opened)"
            )
        answers = [a for a in ex["answers"] if not a.endswith("_question.pycon")]
        if not answers:
            problems.append(f"{where}: the answer block includes no answer snippet")
        for answer in answers:
            folder, _, stem = answer.rpartition("/")
            if folder not in folders or not stem.startswith("exercise_"):
                problems.append(
                    f"{where}: answer snippet {answer} must be "
                    f"{' or '.join(sorted(folders))}/exercise_*.pycon"
                )
            elif not (SNIPPETS / answer).is_file():
                problems.append(f"{where}: answer snippet snippets/{answer} does not exist")
        for question in ex["question"]:
            if (SNIPPETS / question).is_file() and question.endswith("_question.pycon"):
                continue
            if not (SNIPPETS / question).is_file():
                problems.append(f"{where}: question snippet snippets/{question} does not exist")
        if not ex["reason"]:
            problems.append(f"{where}: say in a sentence, inside the answer block, why")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("page", "lang"), EACH)
def test_at_least_half_of_the_exercises_ask_to_predict_the_output(page, lang):
    found = [e for e in exercises(page, lang) if e["anchor"] != "challenge"]  # may be "write"
    predict = [e for e in found if any(q.endswith("_question.pycon") for q in e["question"])]
    assert 2 * len(predict) >= len(found), (
        f"docs/{lang}/{page}: {len(predict)} of {len(found)} exercises ask to predict an "
        "output (include an exercise_*_question.pycon before the answer); at least half must"
    )


@pytest.mark.parametrize(("page", "lang"), EACH)
def test_answers_are_closed_details_on_the_built_page(built, page, lang):
    """The answer is a <details> element: hidden until opened, without JavaScript, and
    opened with the keyboard (its <summary> is focusable)."""
    html = built(lang, page)
    section = html.split('<h2 id="exercises">', 1)
    assert len(section) == 2, f"docs/{lang}/{page}: no <h2 id=exercises> on the built page"
    blocks = re.findall(
        r'<details class="success"[^>]*>\s*<summary>(.*?)</summary>(.*?)</details>',
        section[1],
        re.DOTALL,
    )
    count = len(exercises(page, lang))
    assert len(blocks) == count, f"docs/{lang}/{page}: {len(blocks)} answer blocks for {count}"
    for summary, body in blocks:
        assert summary == ANSWER[lang] and "language-pycon" in body, (
            f"docs/{lang}/{page}: an answer block is not <summary>{ANSWER[lang]}</summary> "
            "with a code block"
        )


QUESTIONS = sorted(SNIPPETS.rglob("exercise_*_question.pycon"))


@pytest.mark.parametrize("path", QUESTIONS, ids=lambda p: p.relative_to(SNIPPETS).as_posix())
def test_a_question_snippet_gives_no_answer_away(path):
    """A question stops before the line to predict: none of its examples prints anything."""
    examples = parse(path)[1]
    printing = [e.lineno + 1 for e in examples if e.want or e.exc_msg]
    assert examples and not printing, (
        f"snippets/{path.relative_to(SNIPPETS)}: a question snippet must print nothing "
        f"(move the lines that print, at lines {printing}, to the answer snippet)"
    )


# The checks can fail: a page without exercises, an answer without snippet, each named by
# file. (Both languages have the same exercises: tests/test_structure.py, the same includes
# in the same order and the same heading anchors.)

GOOD = """# T {{ #t }}

## {section} {{ #exercises }}

### {title} 1 {{ #exercise-1 }}

```pycon title="q.pycon"
--8<-- "autograd/exercise_graph_micro_batches_question.pycon"
```

??? success "{answer}"

    ```pycon title="a.pycon"
    --8<-- "{answer_snippet}"
    ```

    Because.

### {title} 2 {{ #exercise-2 }}

??? success "{answer}"

    ```pycon title="a.pycon"
    --8<-- "autograd/exercise_graph_by_hand.pycon"
    ```

    Because.

### {challenge}C {{ #challenge }}

??? tip "{hint}"

    Look again.

??? success "{answer}"

    ```pycon title="a.pycon"
    --8<-- "autograd/exercise_graph_by_hand.pycon"
    ```

    Because.
"""


def write_pages(tmp_path, monkeypatch, en, zh):
    for lang, text in ((EN, en), (ZH, zh)):
        (tmp_path / lang / "autograd").mkdir(parents=True, exist_ok=True)
        (tmp_path / lang / "autograd" / "x.md").write_text(text, encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "DOCS", tmp_path)


def page_text(lang, answer_snippet="autograd/exercise_graph_micro_batches.pycon"):
    return GOOD.format(
        section=SECTION[lang],
        title="Exercise" if lang == EN else "练习",
        answer=ANSWER[lang],
        hint=HINT[lang],
        challenge=CHALLENGE[lang],
        answer_snippet=answer_snippet,
    )


def test_a_good_pair_of_pages_passes(tmp_path, monkeypatch):
    write_pages(tmp_path, monkeypatch, page_text(EN), page_text(ZH))
    for lang in LANGUAGES:
        test_teaching_page_ends_with_two_to_four_exercises_and_a_challenge("autograd/x.md", lang)
        test_every_exercise_has_a_checked_answer("autograd/x.md", lang)
        test_at_least_half_of_the_exercises_ask_to_predict_the_output("autograd/x.md", lang)


def test_a_challenge_without_its_hint_fails_naming_it(tmp_path, monkeypatch):
    text = page_text(EN).replace('??? tip "Hint"\n\n    Look again.\n\n', "")
    write_pages(tmp_path, monkeypatch, text, page_text(ZH))
    with pytest.raises(AssertionError, match=r"docs/en/autograd/x\.md, line \d+ \(challenge\)"):
        test_every_exercise_has_a_checked_answer("autograd/x.md", EN)


def test_a_page_without_exercises_fails_naming_it(tmp_path, monkeypatch):
    write_pages(tmp_path, monkeypatch, "# T { #t }\n\n## A { #a }\n", page_text(ZH))
    with pytest.raises(AssertionError, match=r"docs/en/autograd/x\.md: a teaching page ends"):
        test_teaching_page_ends_with_two_to_four_exercises_and_a_challenge("autograd/x.md", EN)


def test_an_answer_without_snippet_fails_naming_it(tmp_path, monkeypatch):
    text = page_text(EN, answer_snippet="autograd/exercise_missing.pycon")
    write_pages(tmp_path, monkeypatch, text, page_text(ZH))
    with pytest.raises(AssertionError, match=r"docs/en/autograd/x\.md, line \d+ \(exercise-1\)"):
        test_every_exercise_has_a_checked_answer("autograd/x.md", EN)
