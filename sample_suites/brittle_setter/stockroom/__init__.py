"""stockroom: a small stock-keeping library (isolate sample suite: a brittle test)."""
