"""XDG base directories, resolved from an environment mapping.

Portable mode (``--portable DIR`` on the command line) keeps the configuration next to the
program instead of in the user's home: it is a process-wide setting that wins over
XDG_CONFIG_HOME and HOME for the config directory only.
"""

import posixpath

_portable_root = None


def enable_portable(root):
    """Keep configuration under ROOT (an absolute path) for the rest of the process."""
    global _portable_root
    if not root or not posixpath.isabs(root):
        raise ValueError("portable root must be an absolute path: %r" % (root,))
    _portable_root = posixpath.normpath(root)


def disable_portable():
    global _portable_root
    _portable_root = None


def portable_root():
    return _portable_root


def _absolute(environ, name):
    """An XDG variable's value, or None when unset, empty or relative (the spec says ignore it)."""
    value = environ.get(name, "")
    return value if value and posixpath.isabs(value) else None


def _home(environ):
    home = environ.get("HOME", "")
    if not home:
        raise KeyError("HOME is not set")
    return home


def config_home(environ):
    if _portable_root is not None:
        return posixpath.join(_portable_root, "config")
    return _absolute(environ, "XDG_CONFIG_HOME") or posixpath.join(_home(environ), ".config")


def data_home(environ):
    return _absolute(environ, "XDG_DATA_HOME") or posixpath.join(_home(environ), ".local", "share")


def cache_home(environ):
    return _absolute(environ, "XDG_CACHE_HOME") or posixpath.join(_home(environ), ".cache")


def state_home(environ):
    return _absolute(environ, "XDG_STATE_HOME") or posixpath.join(_home(environ), ".local", "state")


def _dir_list(environ, name, default):
    value = environ.get(name, "")
    dirs = [d for d in value.split(":") if d and posixpath.isabs(d)]
    return dirs or list(default)


def config_dirs(environ):
    """System-wide config directories, most important first (never the user's own)."""
    return _dir_list(environ, "XDG_CONFIG_DIRS", ["/etc/xdg"])


def data_dirs(environ):
    return _dir_list(environ, "XDG_DATA_DIRS", ["/usr/local/share", "/usr/share"])


def config_file(app, name, environ):
    """Where the user's own copy of APP's config file NAME lives."""
    return posixpath.join(config_home(environ), app, name)


def system_config_files(app, name, environ):
    """Candidate system-wide copies of APP's config file NAME, most important first."""
    return [posixpath.join(d, app, name) for d in config_dirs(environ)]
