"""The hunt directory's journal and step files, on real files."""

from __future__ import annotations

from pathlib import Path

from isolate.hunt.journal import Entry, Position, append_journal, journal_since, read_journal
from isolate.hunt.store import Hunt, read_steps


def entry(step: int, reproduced: bool = False) -> Entry:
    return Entry(step, "fail" if reproduced else "pass", reproduced, 0.5)


def test_an_entry_appended_after_a_cut_line_is_kept(tmp_path: Path) -> None:
    hunt = Hunt(tmp_path, {})
    (tmp_path / "journal.jsonl").write_text('{"step": 0, "outcome": "pass", "reproduced": false, "seconds": 1}\n'
                                           '{"step": 0, "outc')  # a crash cut the last write
    append_journal(hunt, [entry(1, True), entry(2)])
    entries, warnings = read_journal(hunt)
    assert [e.step for e in entries] == [0, 1, 2]
    assert entries[1].reproduced
    assert len(warnings) == 1 and warnings[0].startswith(f"skipped corrupt line 2 of {tmp_path / 'journal.jsonl'} (not JSON); the other entries are kept"), warnings


def test_reading_since_a_position_sees_each_entry_once(tmp_path: Path) -> None:
    hunt = Hunt(tmp_path, {})
    append_journal(hunt, [entry(0), entry(0, True)])
    first, warnings, pos = journal_since(hunt, Position())
    assert [e.reproduced for e in first] == [False, True] and not warnings
    same, _, pos2 = journal_since(hunt, pos)
    assert same == [] and pos2 == pos
    with open(tmp_path / "journal.jsonl", "a") as fp:
        fp.write('{"step": 1, "outc')  # cut: read as corrupt line 3, then ended by the next append
    cut, warnings, pos = journal_since(hunt, pos)
    assert cut == [] and warnings[0].startswith("skipped corrupt line 3 ")
    append_journal(hunt, [entry(2)])
    later, warnings, pos = journal_since(hunt, pos)
    assert [e.step for e in later] == [2] and warnings == []
    append_journal(hunt, [entry(3)])
    with open(tmp_path / "journal.jsonl", "a") as fp:
        fp.write("not json\n")
    last, warnings, _ = journal_since(hunt, pos)
    assert [e.step for e in last] == [3]
    assert warnings[0].startswith("skipped corrupt line 6 ")  # numbered as a full read numbers it
    assert read_journal(hunt)[1][1].startswith("skipped corrupt line 6 ")


def test_step_files_already_known_are_not_read_again(tmp_path: Path) -> None:
    hunt = Hunt(tmp_path, {})
    hunt.step_path(0).write_text("a\nv\n")
    steps = read_steps(hunt)
    assert steps == {0: ("a", "v")}
    hunt.step_path(0).write_text("changed\n")  # step files never change; a known one is kept
    hunt.step_path(1).write_text("b\nv\n")
    assert read_steps(hunt, steps) == {0: ("a", "v"), 1: ("b", "v")}
    assert read_steps(hunt)[0] == ("changed",)


def test_where_a_run_ran_is_kept_and_old_entries_ran_here(tmp_path: Path) -> None:
    hunt = Hunt(tmp_path, {})
    (tmp_path / "journal.jsonl").write_text('{"step": 0, "outcome": "pass", "reproduced": false, "seconds": 1}\n')
    append_journal(hunt, [Entry(1, "pass", False, 0.5, executor="tcp://10.0.0.7:40123"), entry(2)])
    lines = (tmp_path / "journal.jsonl").read_text().splitlines()
    assert '"executor"' in lines[1] and '"executor"' not in lines[2]  # local runs add nothing
    entries, _ = read_journal(hunt)
    assert [e.executor for e in entries] == [None, "tcp://10.0.0.7:40123", None]


def test_a_k_fold_run_judged_on_its_first_executions() -> None:
    """Lowering --repeat-victim's K (or turning it off) re-judges every run on its first
    executions, exactly as if it had run that many."""
    from isolate.hunt.journal import Entry, judged_for

    run = Entry(3, "fail", True, 1.0, "AssertionError @ t.py:f", executions="pprf")
    assert judged_for(run, 4) == run
    assert judged_for(run, 3) == Entry(3, "fail", True, 1.0, "AssertionError @ t.py:f", executions="ppr")
    assert judged_for(run, 2) == Entry(3, "pass", False, 1.0, None, executions="pp")
    assert judged_for(run, 1) == Entry(3, "pass", False, 1.0, None)
    other = Entry(3, "fail", True, 1.0, "sig", executions="pfr")
    assert judged_for(other, 2) == Entry(3, "fail", False, 1.0, None, executions="pf")
    # failing another way at every execution: the signature of that failure stays (status and the
    # verdict's note named it '?' once repeats were off)
    another = Entry(3, "fail", False, 1.0, "AssertionError: polluted by 'N' @ t.py:f", executions="ffff")
    assert judged_for(another, 1) == Entry(3, "fail", False, 1.0, "AssertionError: polluted by 'N' @ t.py:f")
    crashed = Entry(3, "crash", False, 1.0)  # no execution finished: as it is
    assert judged_for(crashed, 1) == crashed


def test_a_run_judged_again_as_any_failure_judges_it() -> None:
    """Runs made before --any-failure was given to the hunt count as it would have counted them:
    failing another way reproduces, at every execution of a K-fold run too; passes, crashes and
    timeouts are as they were."""
    from isolate.hunt.journal import Entry, judged_any

    assert judged_any(Entry(3, "fail", False, 1.0, "other")) == Entry(3, "fail", True, 1.0, "other")
    assert judged_any(Entry(3, "fail", True, 1.0, "sig", executions="pfr")) == Entry(3, "fail", True, 1.0, "sig",
                                                                                   executions="prr")
    assert judged_any(Entry(3, "fail", False, 1.0, "other", executions="pfp")).executions == "prp"
    for kept in (Entry(3, "pass", False, 1.0, executions="ppp"), Entry(3, "crash", False, 1.0),
                 Entry(3, "timeout", False, 1.0, hung="t"), Entry(3, "fail", True, 1.0, "sig", executions="prp")):
        assert judged_any(kept) == kept


def test_lines_a_full_disk_cut_are_taken_back(tmp_path: Path) -> None:
    """QA: a full disk left `{"` and `{"at": "20` in the journal, and every later status, log and
    bisect warned of them. A file size limit (RLIMIT_FSIZE) fails a write part-way as a full disk
    does: the append raises, and the journal is as it was, its lines whole."""
    import subprocess
    import sys
    import textwrap

    journal = tmp_path / "journal.jsonl"
    journal.write_text('{"a": 1}\n')
    script = textwrap.dedent(f"""
        import resource, signal
        from pathlib import Path
        from isolate.hunt.journal import append_lines
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (30, 30))
        try:
            append_lines(Path({str(journal)!r}), [{{"b": "x" * 40}}, {{"c": 2}}])
        except OSError as exc:
            print(exc.strerror)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == "File too large", proc
    assert journal.read_text() == '{"a": 1}\n'
