"""The hunt's lock, taken and given back on a real folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from isolate.errors import UserError
from isolate.hunt.lock import Lock


def test_a_lock_that_cannot_be_removed_is_a_warning_not_a_traceback(tmp_path: Path) -> None:
    """QA: the hunt folder turned read-only mid-hunt; the journal's one-line error came with a
    second traceback from removing the lock. A lock the next session can take over is no reason
    to fail: here it is made a non-empty folder, which no one, root included, can unlink."""
    said: list[str] = []
    with Lock(tmp_path, said.append) as lock:
        lock.path.unlink()
        lock.path.mkdir()
        (lock.path / "x").write_text("")
    assert len(said) == 1 and said[0].startswith(f"could not remove the lock {lock.path} (")
    assert "takes it over" in said[0]


def test_a_directory_where_the_lock_goes_is_one_line(tmp_path: Path) -> None:
    """QA: `.isolate/<hunt>/lock` made a directory ended in a traceback (IsADirectoryError)."""
    (tmp_path / "lock").mkdir()
    with pytest.raises(UserError, match=r"lock is a directory, not a lock; remove it \(rm -r "):
        with Lock(tmp_path, lambda message: None):
            pass
    assert (tmp_path / "lock").is_dir()
