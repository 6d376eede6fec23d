"""Search strategies, one module each, all behind one interface (isolate.search.model.Strategy):
given the problem, the observations so far and the settings, the next query or the verdict.
isolate.search.decide holds the registry that maps a strategy's name to its function."""
