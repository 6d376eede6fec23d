"""Scoring: TF-IDF and BM25."""

import math

from searchindex.analysis import analyze


def idf(index, term):
    n = index.doc_count
    df = index.document_frequency(term)
    return math.log((n + 1) / (df + 1)) + 1.0


def tfidf(index, doc_id, query):
    return sum(index.postings(t).get(doc_id, 0) * idf(index, t) for t in analyze(query))


def bm25(index, doc_id, query, k1=1.2, b=0.75):
    avg = index.average_length() or 1.0
    length = index.doc_length(doc_id)
    score = 0.0
    for term in analyze(query):
        tf = index.postings(term).get(doc_id, 0)
        if tf:
            norm = tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avg))
            score += idf(index, term) * norm
    return score


def rank(index, query, scorer=bm25, limit=10):
    hits = index.search_any(query)
    scored = sorted(((-scorer(index, d, query), d) for d in hits))
    return [doc_id for _, doc_id in scored[:limit]]
