"""Simple text statistics."""

from collections import Counter

from textpipe import tokenize


def word_count(text):
    return len(tokenize.words(text))


def top_words(text, n=3):
    counts = Counter(w.lower() for w in tokenize.words(text))
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:n]


def average_word_length(text):
    found = tokenize.words(text)
    if not found:
        return 0.0
    return sum(len(w) for w in found) / len(found)


def lexical_density(text):
    found = [w.lower() for w in tokenize.words(text)]
    if not found:
        return 0.0
    return len(set(found)) / len(found)
