"""Every string the site's own code shows a reader, in each language: one dict per language,
the same keys in each (tests/test_one_place.py holds both, and fails when one of them is
typed again in a hook, a tool, a template or a test).

Hooks format them; templates get the build's language as `strings` and every language as
`all_strings` (hooks/footer.py). Not here: Material's own interface (its language packs),
mkdocs.yml's navigation and colour-toggle names, and the words of the benchmark tables and
plots (data/bench_labels.yml, shared with matplotlib).
"""

STRINGS = {
    "en": {
        # the footer of every page (hooks/footer.py) and the GPU record in the pages
        "verified": 'Verified by <a href="{run}">a CI run</a> on {date}: the examples of commit '
        "<code>{commit}</code>, run on the CPU with PyTorch {torch}.",
        "local": "A local build with PyTorch {torch}, not the published site: the published "
        "site names the CI run that checked its examples.",
        "gpu_label": "Examples that need a GPU: {gpu_check}.",
        "gpu_none": "not yet checked on a GPU",
        "gpu_done": "last checked on a GPU on {date} ({gpu}, PyTorch {torch}, commit {commit})",
        "gpu_other_release": "; not yet with the pinned PyTorch {pin}",
        # under an example (hooks/release_notes.py)
        "and": " and ",
        "release_note": "**{label}** {verb} for `{example}`: {code}",
        "print": "print",
        "prints": "prints",
        "gpu_note": "**Examples that need a GPU: {text}.** The machines that check this site on "
        "every change have none; the GPU job runs this one.",
        "gpu_changed": "**This example changed after the last GPU run ({date}): its output is not "
        "yet checked on a GPU.** The machines that check this site on every change have none; "
        "the GPU job runs it.",
        # the error table (torch_verified/errors.py)
        "error_columns": ("Message, as PyTorch prints it", "Cause, fix and example"),
        "error_cause": "Cause.",
        "error_fix": "Fix.",
        "error_printed": "Printed by {releases}",
        "error_gpu_only": "checked on the GPU job only",
        # a teaching page's notebook (torch_verified/notebooks.py), a lab page's (main.html)
        "notebook_link": "Download this page as a Jupyter notebook",
        "notebook_try": "Try it in the empty cell below, then compare with [the answer](#{anchor}).",
        "notebook_answers": "Answers",
        "notebook_back": "Back to [the exercise](#{anchor}).",
        "notebook_file": "{link} ({name})",
        "colab_link": "open it in Google Colab",
        "colab_separator": ", or ",
        "notebook_from": "This notebook is the page [{title}]({url}) with its code as cells.",
        "notebook_from_local": "This notebook is the page *{title}* of a local build of the "
        "site, which has no web address, with its code as cells.",
        "notebook_outputs": "Every output the page shows is what these cells print with torch "
        "{torch}.",
        "notebook_repr": "The first cell makes Jupyter show values as the Python prompt does "
        "(`repr`), as on the page.",
        "notebook_magic": "The next cell defines `%%needs_cuda`, which the cells that need a "
        "CUDA GPU start with: where there is none, it skips them and says so, and Run All goes "
        "on to the end.",
        "notebook_cuda": "**Needs a CUDA GPU.** The next cells run only where "
        "`torch.cuda.is_available()` is `True`; elsewhere `%%needs_cuda` skips them.",
        "notebook_skipped": "Skipped: this cell needs a CUDA GPU, and torch.cuda.is_available() "
        "is False here.",
        "notebook_nocuda": "The next cells show what a machine **without** a GPU prints; on a "
        "machine with one, their output differs.",
        # the reader's check, torch-verified-check.py (torch_verified/check_script.py), and
        # its link in the footer of every page (hooks/footer.py)
        "check_link": "Check these pages on your machine",
        "check_description": "Run every example of the site against the torch installed here, "
        "as the site's tests run them.",
        "check_docstring": "torch-verified-check.py: every example of {site}, run against the "
        "torch installed here, as the site's tests run them ({page} says more).",
        "check_summary": "{examples} examples on torch {torch} ({machine}): {same} as the pages "
        "show",
        "check_machine": "{machine}, {gpu}",
        "check_no_gpu": "no CUDA GPU",
        "check_documented": ", {count} as the pages say {release} prints",
        "check_different": ", {count} different",
        "check_not_run": ", {count} not run (they need {needs})",
        "check_at": "Different from the page: {url}",
        "check_where": "snippets/{snippet}, line {line}",
        "check_expected": "The page shows:",
        "check_received": "This machine printed:",
        "check_report": "To send this result to the project, open this address. It opens a new "
        "GitHub issue, filled in; nothing is sent until you submit it there.\n{url}",
        "check_no_repository": "This copy of the file was built without the address of the "
        "project's repository (a local build), so it gives no link to report this result.",
        "check_more": "... and {count} more differences: run the file with --json FILE and "
        "attach FILE.",
        "check_json": "The whole report: {path}",
        "check_no_torch": "this Python cannot import torch ({error}); install PyTorch first "
        "(pip install torch)",
        "check_no_page": "--page {page}: no page with examples has this path or address. Pages "
        "with examples: {known}",
        # the home page's reading path (hooks/shortcodes.py)
        "path_chapter": "**[{name}]({page})** (about {minutes} min)",
        "path_page": "[{title}]({page}) ({minutes} min)",
        "path_pages": "Pages: {pages}",
        "path_separator": " · ",
        "path_hours": "about {hours} hours",
        "path_deeper": "- **{name}**: {pages}",
        # the glossary page (hooks/shortcodes.py)
        "glossary_taught": " Taught in [{title}]({link}).",
        "glossary_avoid": " Not used in Chinese: {terms}.",
        # after a code block's caption: its snippet in the repository (hooks/captions.py)
        "source_link": "source",
        "source_title": "This example's file in the project's repository: {path}",
        # interface strings no configuration translates (hooks/ui_strings.py)
        "permalink": "Permanent link",
        "copy_cell": "Copy to clipboard",
        "copied": "Copied!",
        # the exercise markup (CONTRIBUTING.md, tests/test_exercises.py)
        "exercises": "Exercises",
        "answer": "Answer",
        "hint": "Hint",
        "challenge": "Challenge: ",
        # the page for a missing path (overrides/404.html)
        "not_found": "Page not found",
        "not_found_text": "There is no page at this address. It may have moved: start again "
        "from the",
        "not_found_home": "home page",
        "not_found_space": " ",
        "not_found_end": ".",
    },
    "zh": {
        "verified": '由 <a href="{run}">CI 运行</a>于 {date} 核对：提交 <code>{commit}</code> '
        "的示例在 CPU 上用 PyTorch {torch} 运行通过。",
        "local": "这是用 PyTorch {torch} 在本地构建的网站，不是正式发布的网站；正式网站会注明核对其示例的 "
        "CI 运行。",
        "gpu_label": "需要 GPU 的示例：{gpu_check}。",
        "gpu_none": "尚未在 GPU 上核对",
        "gpu_done": "最近一次于 {date} 在 GPU 上核对（{gpu}，PyTorch {torch}，提交 {commit}）",
        "gpu_other_release": "；尚未用本站固定的 PyTorch {pin} 核对",
        "and": " 和 ",
        "release_note": "**{label}** 对 `{example}` 的输出：{code}",
        "print": "输出",
        "prints": "输出",
        "gpu_note": "**需要 GPU 的示例：{text}。**每次改动时核对本站的机器没有 GPU；这个例子由 GPU "
        "任务运行。",
        "gpu_changed": "**这个例子在最近一次 GPU 运行（{date}）之后改过，它的输出尚未在 GPU 上核对。**"
        "每次改动时核对本站的机器没有 GPU；这个例子由 GPU 任务运行。",
        "error_columns": ("报错信息（PyTorch 原文）", "原因、解决办法与示例"),
        "error_cause": "原因：",
        "error_fix": "解决办法：",
        "error_printed": "{releases} 的输出",
        "error_gpu_only": "仅在 GPU 任务中核对",
        "notebook_link": "下载本页的 Jupyter Notebook",
        "notebook_try": "先在下面的空单元格里自己试一试，再对照[答案](#{anchor})。",
        "notebook_answers": "答案",
        "notebook_back": "回到[题目](#{anchor})。",
        "notebook_file": "{link}（{name}）",
        "colab_link": "在 Google Colab 中打开",
        "colab_separator": "，或",
        "notebook_from": "这个 Notebook 就是页面“[{title}]({url})”，代码拆成了单元格。",
        "notebook_from_local": "这个 Notebook 就是本站本地构建中的页面《{title}》（本地构建没有网址），"
        "代码拆成了单元格。",
        "notebook_outputs": "页面上的每个输出，都是这些单元格在 torch {torch} 下实际打印的结果。",
        "notebook_repr": "第一个单元格让 Jupyter 像 Python 提示符一样显示值（`repr`），与页面上"
        "一致。",
        "notebook_magic": "下一个单元格定义 `%%needs_cuda`，需要 CUDA GPU 的单元格都以它开头：没有 "
        "GPU 时它跳过这些单元格并说明原因，“全部运行”可以一直运行到最后。",
        "notebook_cuda": "**需要 CUDA GPU。**下面的单元格只有在 `torch.cuda.is_available()` 为 "
        "`True` 时才运行；否则 `%%needs_cuda` 会跳过它们。",
        "notebook_skipped": "已跳过：这个单元格需要 CUDA GPU，而这里 torch.cuda.is_available() 为 "
        "False。",
        "notebook_nocuda": "下面的单元格展示的是**没有** GPU 的机器打印的结果；在有 GPU 的机器上"
        "输出会不同。",
        "check_link": "在你的机器上核对这些页面",
        "check_description": "用这台机器上安装的 torch 运行本站的每一个示例，方式与本站的测试相同。",
        "check_docstring": "torch-verified-check.py：用这台机器上安装的 torch 运行 {site} 的每一个"
        "示例，方式与本站的测试相同（详见 {page}）。",
        "check_summary": "torch {torch}（{machine}）上的 {examples} 个示例：{same} 个与页面一致",
        "check_machine": "{machine}，{gpu}",
        "check_no_gpu": "无 CUDA GPU",
        "check_documented": "，{count} 个与页面注明的 {release} 输出一致",
        "check_different": "，{count} 个不同",
        "check_not_run": "，{count} 个未运行（需要 {needs}）",
        "check_at": "与页面不同：{url}",
        "check_where": "snippets/{snippet} 第 {line} 行",
        "check_expected": "页面上的输出：",
        "check_received": "这台机器的输出：",
        "check_report": "要把结果告诉本项目，请打开下面的地址。它会在 GitHub 上打开一个已经填好的"
        "新 issue，你提交之前不会发送任何内容。\n{url}",
        "check_no_repository": "这份文件构建时不知道项目仓库的地址（本地构建），所以无法给出报告"
        "结果的链接。",
        "check_more": "……还有 {count} 处不同：用 --json FILE 运行这个文件，并附上 FILE。",
        "check_json": "完整报告：{path}",
        "check_no_torch": "这个 Python 无法导入 torch（{error}），请先安装 PyTorch（pip install torch）",
        "check_no_page": "--page {page}：没有哪个含示例的页面是这个路径或地址。含示例的页面："
        "{known}",
        "path_chapter": "**[{name}]({page})**（约 {minutes} 分钟）",
        "path_page": "[{title}]({page})（{minutes} 分钟）",
        "path_pages": "本章页面：{pages}",
        "path_separator": "；",
        "path_hours": "约 {hours} 小时",
        "path_deeper": "- **{name}**：{pages}",
        # the glossary page (hooks/shortcodes.py)
        "glossary_taught": "讲解见[{title}]({link})。",
        "glossary_avoid": "不使用的译法：{terms}。",
        "source_link": "源文件",
        "source_title": "这个示例在项目仓库中的文件：{path}",
        "permalink": "永久链接",
        "copy_cell": "复制到剪贴板",
        "copied": "已复制",
        "exercises": "练习",
        "answer": "答案",
        "hint": "提示",
        "challenge": "挑战：",
        "not_found": "页面不存在",
        "not_found_text": "这个地址上没有页面，它可能已经移到别处。请从这里重新开始：",
        "not_found_home": "中文版首页",
        "not_found_space": "",
        "not_found_end": "。",
    },
}
