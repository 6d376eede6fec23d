"""textpipe: a configurable text-normalisation pipeline with plugins."""

__version__ = "2.1.0"


def render(text):
    """Run ``text`` through the default (process-wide) pipeline."""
    from textpipe import pipeline

    return pipeline.default_pipeline().run(text)
