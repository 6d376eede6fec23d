"""Tokenisation helpers."""

import re

_WORD = re.compile(r"[\w']+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def words(text):
    return _WORD.findall(text)


def sentences(text):
    text = text.strip()
    if not text:
        return []
    return _SENTENCE_END.split(text)


def ngrams(tokens, n):
    if n < 1:
        raise ValueError("n must be >= 1")
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]
