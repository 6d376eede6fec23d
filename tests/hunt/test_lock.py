"""The hunt's lock, taken and given back on a real folder."""

from __future__ import annotations

from pathlib import Path

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
