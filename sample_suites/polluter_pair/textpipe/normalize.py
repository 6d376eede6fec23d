"""Built-in normalisation stages."""

import re
import unicodedata

_WS = re.compile(r"\s+")


def collapse_whitespace(text):
    return _WS.sub(" ", text).strip()


def lowercase(text):
    return text.casefold()


def strip_accents(text):
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def fix_quotes(text):
    return (text.replace("\u2018", "'").replace("\u2019", "'")
            .replace("\u201c", '"').replace("\u201d", '"'))


BUILTIN_STAGES = (collapse_whitespace, fix_quotes, strip_accents, lowercase)
