"""isolate.running.stream_result writes what stestr's testtools/subunit result writes, for every
kind of outcome unittest reports, and the child uses it only when the tests do not use testtools."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
import unittest
from pathlib import Path
from typing import Any

import pytest
import subunit
from subunit.test_results import AutoTimingTestResultDecorator
from testtools import ExtendedToStreamDecorator

from isolate.orders.stream_writer import StreamWriter
from isolate.running import child
from isolate.running.judge import read_stream
from isolate.running.runner_args import parse_runner_args
from isolate.running.stream_result import StreamResult

KINDS = '''
import sys
import unittest


class Kinds(unittest.TestCase):
    def test_pass(self):
        print("out")
        print("err", file=sys.stderr)

    def test_fail(self):
        self.assertEqual({"a": 1}, {"a": 2}, "naïve ✓")

    def test_error(self):
        raise KeyError("x" * 100)

    @unittest.skip("not today é")
    def test_skip(self):
        pass

    def test_skip_inside(self):
        self.skipTest("")

    @unittest.expectedFailure
    def test_xfail(self):
        raise ValueError("expected")

    @unittest.expectedFailure
    def test_uxsuccess(self):
        pass

    def test_subtests(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertLess(i, 1)

    def test_subtests_pass(self):
        for i in range(2):
            with self.subTest(i=i):
                pass

    def test_cleanup_fails(self):
        self.addCleanup(lambda: 1 / 0)

    def test_chained(self):
        try:
            {}["k"]
        except KeyError as e:
            raise RuntimeError("wrapped") from e

    def test_long(self):
        raise AssertionError("\\n".join("line %d" % i for i in range(3000)))


class BadSetup(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        raise RuntimeError("class setup broke")

    def test_never(self):
        pass


class SkipClass(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        raise unittest.SkipTest("whole class skipped")

    def test_never(self):
        pass


class BadTeardown(unittest.TestCase):
    @classmethod
    def tearDownClass(cls):
        raise OSError("class teardown broke")

    def test_ok(self):
        pass


class BadClassCleanup(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.addClassCleanup(lambda: 1 / 0)

    def test_ok(self):
        pass
'''

BAD_MODULE = '''
import unittest


def setUpModule():
    raise ValueError("module setup broke")


class T(unittest.TestCase):
    def test_a(self):
        pass
'''

IDS = ["kinds_pkg.test_bad_module.T.test_a"] + [
    "kinds_pkg.test_kinds." + name for name in (
        "Kinds.test_pass", "Kinds.test_fail", "Kinds.test_error", "Kinds.test_skip", "Kinds.test_skip_inside",
        "Kinds.test_xfail", "Kinds.test_uxsuccess", "Kinds.test_subtests", "Kinds.test_subtests_pass",
        "Kinds.test_cleanup_fails", "Kinds.test_chained", "Kinds.test_long", "BadSetup.test_never",
        "SkipClass.test_never", "BadTeardown.test_ok", "BadClassCleanup.test_ok", "Kinds.test_pass",
        "Kinds.test_fail")
]


@pytest.fixture
def kinds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    package = tmp_path / "kinds_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "test_kinds.py").write_text(textwrap.dedent(KINDS))
    (package / "test_bad_module.py").write_text(textwrap.dedent(BAD_MODULE))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith("kinds_pkg")]:
        del sys.modules[name]


def events(data: bytes) -> list[dict[str, Any]]:
    """What a subunit parser reads, without the timestamps."""
    seen: list[dict[str, Any]] = []

    class Recorder:
        def status(self, **kw: Any) -> None:
            kw.pop("timestamp")
            if kw.get("file_bytes") is not None:
                kw["file_bytes"] = bytes(kw["file_bytes"])
            seen.append(kw)

    subunit.ByteStreamToStreamResult(io.BytesIO(data), non_subunit_name="stdout").run(Recorder())
    return seen


def run(result: Any, root: Path) -> None:
    cases = child.TestIndex(parse_runner_args(["discover", "-t", str(root), str(root)])).resolve(IDS)
    result.startTestRun()
    unittest.TestSuite(cases)(result)
    result.stopTestRun()


def test_every_kind_of_outcome_reads_as_under_testtools(kinds: Path) -> None:
    ours, theirs = io.BytesIO(), io.BytesIO()
    run(StreamResult(StreamWriter(ours)), kinds)
    run(AutoTimingTestResultDecorator(ExtendedToStreamDecorator(subunit.StreamResultToBytes(theirs))), kinds)
    expected = events(theirs.getvalue())
    assert events(ours.getvalue()) == expected
    # the comparison covers what it claims to: every status, fixture errors, subtests, chunks
    statuses = {e["test_status"] for e in expected if e["test_status"]}
    assert statuses == {"inprogress", "success", "fail", "skip", "xfail", "uxsuccess"}
    ids = {e["test_id"] for e in expected}
    assert {"setUpModule (kinds_pkg.test_bad_module)", "setUpClass (kinds_pkg.test_kinds.BadSetup)",
            "setUpClass (kinds_pkg.test_kinds.SkipClass)", "tearDownClass (kinds_pkg.test_kinds.BadTeardown)"} <= ids
    names = {e["file_name"] for e in expected if e["file_name"]}
    assert names == {"traceback", "reason", "traceback (i=1)", "traceback (i=2)"}
    assert sum(1 for e in expected if e["file_name"] == "traceback" and not e["eof"]) > 10


CHECKS = '''
import sys
import unittest
{imports}

class Checks({base}):
    def test_modules(self):
        print("subunit" in sys.modules, "testtools" in sys.modules)
        self.assertIn("subunit", sys.modules)
'''


@pytest.mark.parametrize("uses_testtools", [False, True])
def test_the_child_imports_subunit_only_for_tests_that_use_testtools(tmp_path: Path, uses_testtools: bool) -> None:
    base = "testtools.TestCase" if uses_testtools else "unittest.TestCase"
    (tmp_path / "test_checks.py").write_text(
        CHECKS.format(imports="import testtools" if uses_testtools else "", base=base))
    (tmp_path / "list.txt").write_text("test_checks.Checks.test_modules\n")
    stream, error = tmp_path / "stream.subunit", tmp_path / "error.txt"
    proc = subprocess.run(
        [sys.executable, "-m", "isolate.running.child", "--list", str(tmp_path / "list.txt"),
         "--stream", str(stream), "--error-file", str(error), "discover", "-t", ".", "."],
        cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    [occurrence] = read_stream(stream)
    # the test asks whether subunit is loaded while it runs: only the testtools path loads it
    assert occurrence.status == ("success" if uses_testtools else "fail")
    if not uses_testtools:
        assert "AssertionError: 'subunit' not found in" in occurrence.text("traceback")
    assert proc.stdout.split() == ([str(uses_testtools)] * 2 if uses_testtools else ["False", "False"])
