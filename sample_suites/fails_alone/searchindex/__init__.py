"""searchindex: a toy full-text search engine with background indexing."""

__version__ = "0.4.1"
