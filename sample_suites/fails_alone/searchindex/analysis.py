"""Text analysis: tokenising, stop words and a very light stemmer."""

import re

STOPWORDS = frozenset("a an and are as at be but by for if in into is it no not of on or such "
                      "that the their then there these they this to was will with".split())
_TOKEN = re.compile(r"[a-z0-9]+")


def tokenize(text):
    return _TOKEN.findall(text.lower())


def stem(word):
    for suffix in ("ing", "edly", "ed", "ies", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            return base + "y" if suffix == "ies" else base
    return word


def analyze(text):
    return [stem(t) for t in tokenize(text) if t not in STOPWORDS]
