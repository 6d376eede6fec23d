"""Pipelines: built-in stages, then (in extended mode) the registered plugins."""

from textpipe import normalize, registry, settings


class Pipeline:
    def __init__(self, mode="strict", stages=normalize.BUILTIN_STAGES, plugins=None):
        if mode not in settings.MODES:
            raise ValueError("unknown mode %r" % mode)
        self.mode = mode
        self.stages = tuple(stages)
        self.plugins = plugins

    def _plugins(self):
        return registry.ordered() if self.plugins is None else list(self.plugins)

    def steps(self):
        if self.mode == "raw":
            return []
        steps = list(self.stages)
        if self.mode == "extended":
            steps += self._plugins()
        return steps

    def run(self, text):
        for step in self.steps():
            text = step(text)
        return text

    def run_many(self, texts):
        return [self.run(t) for t in texts]

    def describe(self):
        return "%s: %s" % (self.mode, " -> ".join(getattr(s, "__name__", "?") for s in self.steps()))


def default_pipeline():
    """The pipeline configured for this process (mode + global registry)."""
    return Pipeline(mode=settings.current_mode())
