"""The links of an HTML page, for examples/crawler.py.

links(page_url, text) is the href of every <a> and <link> start tag, resolved against the page's
URL (or the <base href> before it), without the fragment, each once, in document order. When a
tag has the href attribute twice, the first counts (as in browsers); `<a href>` links to the page.

The page is parsed with lxml (Debian's python3-lxml, libxml2's HTML parser) when it is installed,
else with the standard library's html.parser, about five times slower. Both give the same links
(tests/python/test_page_links.py checks every page of Debian's python3.11-doc).
"""

import html.parser
import urllib.parse

try:
    import lxml.etree
except ImportError:  # the standard library alone
    lxml = None

PARSERS = ("lxml", "html.parser") if lxml else ("html.parser",)
DEFAULT_PARSER = PARSERS[0]
LINK_TAGS = ("a", "link", "base")


def resolve(base, href):
    """href resolved against base, without its fragment; None when it cannot be parsed."""
    try:
        return urllib.parse.urldefrag(urllib.parse.urljoin(base, href.strip())).url
    except ValueError:  # e.g. a malformed IPv6 host
        return None


class _TagCollector(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = []

    def handle_starttag(self, tag, attrs):
        if tag in LINK_TAGS:
            href = next((value for name, value in attrs if name == "href"), False)
            if href is not False:
                self.tags.append((tag, href or ""))


def tags_by_html_parser(text):
    """(tag, href) of each <a>, <link> and <base> start tag with an href, in document order."""
    collector = _TagCollector()
    collector.feed(text)
    collector.close()
    return collector.tags


class _LxmlTarget:
    """libxml2 calls start() for each start tag; no tree is built (a third faster than one)."""

    def __init__(self):
        self.tags = []

    def start(self, tag, attrib):
        if tag in LINK_TAGS:
            href = attrib.get("href")
            if href is not None:
                self.tags.append((tag, href))

    def close(self):
        return self.tags


def tags_by_lxml(text):
    """The same as tags_by_html_parser, through libxml2."""
    parser = lxml.etree.HTMLParser(encoding="utf-8", target=_LxmlTarget())
    try:
        return lxml.etree.fromstring(text.encode("utf-8", "replace"), parser)
    except lxml.etree.LxmlError:  # nothing libxml2 can make a document of
        return []


# What resolve() returned, by (what of the base it depends on, href without its fragment, '#' or
# ""), shared by the pages of a process; emptied when it reaches CACHE_ENTRIES.
_resolved = {}
CACHE_ENTRIES = 100_000
# An href starting with one of these has a path (it is not empty, a query, a fragment or
# parameters, and has no leading space or control character, which urllib drops).
_PATH_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789./_-~%")


def _base_part(base, before):
    """What of `base` resolving an href (`before`: stripped, no fragment) depends on. An href that
    starts with a path keeps the base's scheme, host and folder only (RFC 3986 §5.2.2, as urljoin
    does it), which the pages of one folder share; anything else may keep the whole base."""
    if not before or before[0] not in _PATH_START:
        return base
    head = base.partition("?")[0]
    netloc = head.find("://")
    if netloc < 0 or head.find("/", netloc + 3) < 0:
        return base
    return head[:head.rfind("/") + 1]


def resolve_cached(base, href):
    """resolve(base, href), from the cache when an answer for the same key is there. Pages repeat
    hrefs (a page of the Python docs each one 6 times, its neighbours many of the same). The
    fragment does not change what resolve() returns, but an href without '#' keeps the base
    verbatim where "#x" rebuilds it from its parts, hence the '#' in the key."""
    before, hash_sign, _ = href.strip().partition("#")
    key = (_base_part(base, before), before, hash_sign)
    url = _resolved.get(key, False)
    if url is False:
        if len(_resolved) >= CACHE_ENTRIES:
            _resolved.clear()
        url = _resolved[key] = resolve(base, href)
    return url


def links_of_tags(page_url, tags, resolver=resolve_cached):
    """The links of a page's (tag, href) list, as links() describes them."""
    base = page_url
    found = {}
    for tag, href in tags:
        url = resolver(base, href)
        if url is None:
            continue
        if tag == "base":
            base = url
        else:
            found[url] = None
    return list(found)


def links(page_url, text, parser=DEFAULT_PARSER):
    """The links of the page at page_url whose HTML is text (see the top of this file)."""
    tags = tags_by_lxml(text) if parser == "lxml" else tags_by_html_parser(text)
    return links_of_tags(page_url, tags)
