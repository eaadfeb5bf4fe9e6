"""Drop the `<link rel="alternate" hreflang>` tags from page heads.

mkdocs-static-i18n points them at the page in each language; Material's JavaScript then
fetches `<that page>/sitemap.xml` for each one, which does not exist: two 404s, logged as
console errors, on every page. The language switcher links (in the header) and the
hreflang pairs in `sitemap.xml` are unaffected, so readers and search engines still find
the other language.
"""

import re

ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="[^"]*">\s*')


def on_post_page(output, page, config):
    head, sep, body = output.partition("</head>")
    return ALTERNATE.sub("", head) + sep + body
