"""An in-memory inverted index."""

from collections import defaultdict

from searchindex.analysis import analyze


class InvertedIndex:
    def __init__(self):
        self._postings = defaultdict(dict)  # term -> {doc_id: count}
        self._docs = {}

    def add(self, doc_id, text):
        if doc_id in self._docs:
            self.remove(doc_id)
        terms = analyze(text)
        self._docs[doc_id] = len(terms)
        for term in terms:
            self._postings[term][doc_id] = self._postings[term].get(doc_id, 0) + 1

    def remove(self, doc_id):
        if doc_id not in self._docs:
            raise KeyError(doc_id)
        del self._docs[doc_id]
        for term in list(self._postings):
            self._postings[term].pop(doc_id, None)
            if not self._postings[term]:
                del self._postings[term]

    @property
    def doc_count(self):
        return len(self._docs)

    def doc_length(self, doc_id):
        return self._docs[doc_id]

    def average_length(self):
        return sum(self._docs.values()) / len(self._docs) if self._docs else 0.0

    def postings(self, term):
        return dict(self._postings.get(term, {}))

    def document_frequency(self, term):
        return len(self._postings.get(term, {}))

    def vocabulary(self):
        return sorted(self._postings)

    def search_all(self, text):
        terms = analyze(text)
        if not terms:
            return set()
        result = set(self._postings.get(terms[0], {}))
        for term in terms[1:]:
            result &= set(self._postings.get(term, {}))
        return result

    def search_any(self, text):
        result = set()
        for term in analyze(text):
            result |= set(self._postings.get(term, {}))
        return result

    def __contains__(self, doc_id):
        return doc_id in self._docs
