"""Application names as directory names: lower case, dashes, nothing that escapes a directory."""

import re

_ALLOWED = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


def normalise(name):
    """'My Editor' -> 'my-editor'."""
    slug = re.sub(r"[\s_]+", "-", name.strip().lower())
    slug = re.sub(r"-{2,}", "-", slug)
    return slug.strip("-")


def validate(name):
    if name in (".", "..") or not _ALLOWED.match(name):
        raise ValueError("not a valid application directory name: %r" % (name,))
    return name


def reverse_domain(name):
    """'org.example.Editor' -> 'editor' (the last label, normalised)."""
    return normalise(name.rsplit(".", 1)[-1])
