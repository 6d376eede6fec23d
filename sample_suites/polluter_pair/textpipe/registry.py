"""Global plugin registry.  Plugins are ``str -> str`` callables."""

_PLUGINS = {}


class DuplicatePlugin(ValueError):
    pass


def register(name, func, priority=50, replace=False):
    if not callable(func):
        raise TypeError("plugin %r is not callable" % name)
    if name in _PLUGINS and not replace:
        raise DuplicatePlugin(name)
    _PLUGINS[name] = (priority, func)


def plugin(name, priority=50):
    def decorator(func):
        register(name, func, priority)
        return func

    return decorator


def unregister(name):
    return _PLUGINS.pop(name, None) is not None


def get(name):
    return _PLUGINS[name][1]


def names():
    return sorted(_PLUGINS)


def ordered():
    """Plugins in application order: by priority, then by name."""
    return [func for _, _, func in sorted((p, n, f) for n, (p, f) in _PLUGINS.items())]
