"""files.py: atomic writes survive `kill -9` without leaving temp files behind for ever."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from isolate.errors import UserError
from isolate.files import remove_tree, write_atomic

HANG_IN_REPLACE = """
import os, sys, time
from pathlib import Path
from isolate.files import write_atomic

def hang(src, dst):
    print("writing", flush=True)
    time.sleep(600)

os.replace = hang
write_atomic(Path(sys.argv[1]), '{"verdict": "half"}')
"""


def test_a_temp_left_by_kill_9_mid_write_is_removed_by_the_next_write(tmp_path: Path) -> None:
    verdict = tmp_path / "verdict.json"
    verdict.write_text('{"verdict": "old"}\n')
    child = subprocess.Popen([sys.executable, "-c", HANG_IN_REPLACE, str(verdict)], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "writing\n"  # temp written, not renamed
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    left = [p.name for p in tmp_path.iterdir() if p.name.startswith(".verdict.json.")]
    assert len(left) == 1 and f".{child.pid}." in left[0]
    assert verdict.read_text() == '{"verdict": "old"}\n'  # the old file is whole
    write_atomic(verdict, '{"verdict": "new"}\n')
    assert sorted(p.name for p in tmp_path.iterdir()) == ["verdict.json"]
    assert verdict.read_text() == '{"verdict": "new"}\n'


def test_temps_of_live_writers_and_young_legacy_temps_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "hunt.json"
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        live = tmp_path / f".hunt.json.{sleeper.pid}.abc123"
        young = tmp_path / ".hunt.json.k2j3h4"  # written by an isolate that did not put its pid in
        old = tmp_path / ".hunt.json.zz9y8x"
        other = tmp_path / ".order.txt.1.abc"  # another file's temp
        for path in (live, young, old, other):
            path.write_text("partial")
        os.utime(old, (time.time() - 7200, time.time() - 7200))
        write_atomic(target, "{}\n")
        assert live.exists() and young.exists() and other.exists()
        assert not old.exists()
    finally:
        sleeper.kill()
        sleeper.wait()


@pytest.mark.parametrize("where", ["dir", "missing/x.txt", "file/x.txt"])
def test_writing_where_no_file_can_be_is_a_user_error(tmp_path: Path, where: str) -> None:
    (tmp_path / "dir").mkdir()
    (tmp_path / "file").write_text("")
    with pytest.raises(UserError, match="directory"):
        write_atomic(tmp_path / where, "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir", "file"]


def test_a_folder_that_takes_no_new_files_is_named_as_such() -> None:
    """QA: `--html /proc/version` said "No such file or directory; check the folder's permissions"."""
    with pytest.raises(UserError) as info:
        write_atomic(Path("/proc/version"), "x")
    assert str(info.value).endswith("; that folder takes no new files; give a path in another folder")
    assert "permissions" not in str(info.value)


@pytest.mark.parametrize("inside", [False, True], ids=["top", "subfolder"])
def test_ctrl_c_while_a_tree_is_removed_stays_ctrl_c(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    inside: bool) -> None:
    """CI: Ctrl-C landed inside shutil.rmtree right after it closed a directory and before it noted
    that; its `finally` closed it again, and the EBADF replaced the KeyboardInterrupt: a hunt
    stopped by Ctrl-C exited 1 with a traceback. A signal cannot be timed to land there, so the
    first close raises KeyboardInterrupt once it has closed, as the signal's handler then does."""
    tree = tmp_path / "run"
    (tree / "tmp" if inside else tree).mkdir(parents=True)
    (tree / "output.txt").write_text("x")
    real_close = os.close

    def close(fd: int) -> None:
        real_close(fd)
        monkeypatch.setattr(os, "close", real_close)
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "close", close)
    with pytest.raises(KeyboardInterrupt):
        remove_tree(tree)
    assert os.close is real_close  # the close that raised was rmtree's
    remove_tree(tree)  # what was left is removed by the next call, as the runner's next clean-up does
    assert not tree.exists()


def test_written_files_follow_the_umask_not_mkstemps_0600(tmp_path: Path) -> None:
    """Step lists, verdicts and reproducers came out -rw------- whatever the umask, so a teammate
    or a CI artifact reader could not `cat` them."""
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "shared.txt", "a\n")
        os.umask(0o077)
        write_atomic(tmp_path / "private.txt", "b\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "shared.txt").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "private.txt").stat().st_mode) == 0o600
