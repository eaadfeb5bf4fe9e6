"""The search index as Material's search reads it: the words a reader types are whole in it."""

import json

from tests.sitetools import ROOT


def test_chinese_search_never_splits_the_word_tensor(site):
    """jieba cut 把张量变大 as 把 / 张 / 量变 / 大, so that 叶子张量 found that heading first;
    data/jieba_user_dict.txt (search.jieba_dict_user in mkdocs.yml) keeps 张量 whole."""
    index = json.loads((site / "zh" / "search" / "search_index.json").read_text("utf-8"))
    split = [doc["location"] for doc in index["docs"] if "张\u200b量" in doc["title"] + doc["text"]]
    assert not split, f"the zh search index splits 张量 in {split}: see data/jieba_user_dict.txt"
    words = (ROOT / "data" / "jieba_user_dict.txt").read_text("utf-8").split()
    assert "张量" in words
