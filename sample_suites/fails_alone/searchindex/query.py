"""A tiny query language: words are ANDed, OR between groups, -word excludes."""

from searchindex.analysis import analyze


class QueryError(ValueError):
    pass


def parse(text):
    """Return a list of (required_terms, excluded_terms) alternatives."""
    if not text.strip():
        raise QueryError("empty query")
    alternatives = []
    for part in text.split(" OR "):
        required, excluded = [], []
        for word in part.split():
            if word.startswith("-"):
                excluded += analyze(word[1:])
            else:
                required += analyze(word)
        if not required:
            raise QueryError("alternative %r has no positive terms" % part.strip())
        alternatives.append((required, excluded))
    return alternatives


def execute(index, text):
    result = set()
    for required, excluded in parse(text):
        hits = index.search_all(" ".join(required))
        for term in excluded:
            hits -= set(index.postings(term))
        result |= hits
    return result
