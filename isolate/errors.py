"""Errors a user can cause. The CLI prints their one-line message and exits 2, no traceback."""

from __future__ import annotations


class UserError(Exception):
    """A problem with the user's input or environment, stated as cause and fix in one line."""
