"""Extractive summaries built from tokenize/stats."""

from textpipe import stats, tokenize

STOPWORDS = frozenset("a an and are as at be by for from in is it of on or the to was with".split())


def first_sentence(text):
    found = tokenize.sentences(text)
    return found[0] if found else ""


def truncate_words(text, limit, marker="\u2026"):
    found = text.split()
    if limit < 0:
        raise ValueError("limit must be >= 0")
    if len(found) <= limit:
        return " ".join(found)
    return " ".join(found[:limit]) + marker


def keywords(text, n=3):
    content = " ".join(w for w in tokenize.words(text) if w.lower() not in STOPWORDS)
    return [word for word, _ in stats.top_words(content, n)]


def headline(text, limit=8):
    return truncate_words(first_sentence(text), limit).rstrip(".!?")


def reading_time_seconds(text, words_per_minute=200):
    if words_per_minute <= 0:
        raise ValueError("words_per_minute must be positive")
    count = stats.word_count(text)
    return (count * 60 + words_per_minute - 1) // words_per_minute
