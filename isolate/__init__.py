"""isolate: find which earlier tests pollute an intermittently failing test.

PYTEST_DONT_REWRITE: a pytest fork server (isolate.running.forkserver) has imported this package
before each child's pytest marks isolate's modules for rewriting (isolate has a pytest plugin);
this says pytest need not warn that it cannot rewrite it (there is nothing to rewrite).
"""

__version__ = "0.1.0"
