"""Result snippets with highlighted matches."""

import re

from searchindex.analysis import analyze, stem

_WORD = re.compile(r"[A-Za-z0-9]+")


def matching_spans(text, query):
    wanted = set(analyze(query))
    return [m.span() for m in _WORD.finditer(text) if stem(m.group().lower()) in wanted]


def highlight(text, query, before="[", after="]"):
    out, last = [], 0
    for start, end in matching_spans(text, query):
        out.append(text[last:start])
        out.append(before + text[start:end] + after)
        last = end
    out.append(text[last:])
    return "".join(out)


def snippet(text, query, width=40, ellipsis="..."):
    spans = matching_spans(text, query)
    if len(text) <= width:
        return text
    if not spans:
        return text[:width].rstrip() + ellipsis
    start = max(0, spans[0][0] - width // 4)
    end = min(len(text), start + width)
    piece = text[start:end].strip()
    prefix = ellipsis if start > 0 else ""
    suffix = ellipsis if end < len(text) else ""
    return prefix + piece + suffix


def match_count(text, query):
    return len(matching_spans(text, query))
