"""A reader does an exercise and downloads the page's notebook (tests/browser/exercise.py)."""

from tests.browser.exercise import do_an_exercise_and_take_the_notebook


def test_reader_reveals_copies_runs_an_answer_and_runs_the_page_notebook_en(reader, tmp_path):
    do_an_exercise_and_take_the_notebook(reader, "en", tmp_path)
