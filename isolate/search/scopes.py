"""Where a test lives: its class and its module, read from the test id alone.

unittest ids are `package.module.Class.test_method` (a scenario or parameter suffix in
parentheses may follow); pytest node ids are `path/file.py::Class::test_function[param]` or
`path/file.py::test_function`.  A class (`setUpClass`, class attributes) or a module
(`setUpModule`, import-time side effects) can pollute as a whole: any of its tests switches it
on.  Pure: strings in, strings out.
"""

from __future__ import annotations

from functools import lru_cache

IMPORT = "import:"  # a candidate that imports a module (isolate.running.child), no test


def imported(test_id: str) -> str | None:
    """The module an `import:MODULE` candidate imports; None for a test."""
    return test_id[len(IMPORT):] if test_id.startswith(IMPORT) else None


def _strip_parameters(test_id: str) -> str:
    """`a.B.test(x.y)` -> `a.B.test`, `f.py::t[1.5]` -> `f.py::t`: parameters may hold dots."""
    for open_, close in (("(", ")"), ("[", "]")):
        if test_id.endswith(close) and open_ in test_id:
            return test_id[: test_id.index(open_)]
    return test_id


@lru_cache(maxsize=1 << 16)  # asked for every predecessor at every decision: the ids repeat
def class_of(test_id: str) -> str | None:
    """The class a test belongs to, as a dotted (unittest) or `::` (pytest) name; None for a
    pytest function outside any class, an `import:MODULE` candidate (a module's import, no
    test: `import:pkg.tests` is no class of `import:pkg.tests.test_x`), or an id too short to
    hold a class."""
    if test_id.startswith(IMPORT):
        return None
    base = _strip_parameters(test_id)
    if "::" in base:
        parts = base.split("::")
        return "::".join(parts[:-1]) if len(parts) >= 3 else None
    parts = base.split(".")
    return ".".join(parts[:-1]) if len(parts) >= 3 else None


@lru_cache(maxsize=1 << 16)
def module_of(test_id: str) -> str | None:
    """The module (pytest: the file) a test belongs to; None when the id names none (an
    `import:MODULE` candidate is the module's import, of no module of tests)."""
    if test_id.startswith(IMPORT):
        return None
    base = _strip_parameters(test_id)
    if "::" in base:
        return base.split("::")[0]
    parts = base.split(".")
    return ".".join(parts[:-2]) if len(parts) >= 3 else None


def nearest_scope(test_id: str) -> str | None:
    """The smallest scope around a test that can pollute as a whole: its class, or for a pytest
    function outside any class its file (a module-scoped fixture, import-time state)."""
    return class_of(test_id) or (module_of(test_id) if "::" in test_id else None)
