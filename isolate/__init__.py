"""isolate: find which earlier tests pollute an intermittently failing test."""

__version__ = "0.1.0"
