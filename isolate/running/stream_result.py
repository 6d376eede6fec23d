"""A unittest result that writes what stestr's runner writes, with the standard library alone.

stestr runs tests under ``subunit``'s ``AutoTimingTestResultDecorator`` around testtools'
``ExtendedToStreamDecorator``; isolate.running.child did too, and importing them was about 0.1 s
of the 0.18 s a short fresh run cost. For tests that do not use testtools, this result writes the
same events (the same ids, statuses, attachments, their names, mime types and chunks; only the
timestamps differ): ``tests/test_stream_result.py`` runs one list of every kind of outcome through
both and compares what a subunit parser reads. Tests that do use testtools (its ``TestCase``
reports ``details``) keep the testtools result: :func:`isolate.running.child.run_cases` chooses.

What each call writes:

* ``startTest``: ``inprogress``;
* an outcome: its attachments (a failure's ``traceback``, one packet per line as testtools'
  ``TracebackContent`` gives them, without the leading frames of unittest itself; a skip's
  ``reason``), then the status;
* subtests that failed: after the test, one ``traceback <description>`` attachment each, then
  ``fail``; a class or module fixture's error is reported under unittest's own id for it,
  ``setUpClass (module.Class)``, with no ``inprogress`` before it.
"""

from __future__ import annotations

import datetime as dt
import traceback
import types
import unittest

from isolate.orders.stream_writer import StreamWriter

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~5 ms of every test process)
if TYPE_CHECKING:
    from typing import Optional, Tuple, Type

    ExcInfo = Tuple[Type[BaseException], BaseException, Optional[types.TracebackType]]
TRACEBACK_MIME = 'text/x-traceback; charset="utf8"; language="python"'
REASON_MIME = "text/plain; charset=utf8"


def traceback_lines(err: ExcInfo) -> list[bytes]:
    """The traceback as testtools' ``TracebackContent`` chunks it: unittest's own frames at the
    top left out, one chunk per formatted line."""
    exc_type, value, tb = err
    while tb is not None and "__unittest" in tb.tb_frame.f_globals:
        tb = tb.tb_next
    return [line.encode("utf8") for line in traceback.TracebackException(exc_type, value, tb).format()]


class StreamResult(unittest.TestResult):
    """Writes each test's events to ``out`` as they happen (see the module docstring)."""

    def __init__(self, out: StreamWriter) -> None:
        super().__init__()
        self.out = out
        self._subtest_failures: list[tuple[unittest.TestCase, ExcInfo]] = []

    @staticmethod
    def _now() -> dt.datetime:
        return dt.datetime.now(dt.timezone.utc)

    def startTest(self, test: unittest.TestCase) -> None:
        super().startTest(test)
        self.out.status(test_id=test.id(), test_status="inprogress", timestamp=self._now())
        self._subtest_failures = []

    def stopTest(self, test: unittest.TestCase) -> None:
        super().stopTest(test)
        if self._subtest_failures:
            test_id, now = test.id(), self._now()
            for subtest, err in self._subtest_failures:
                name = f"traceback {subtest._subDescription()}"  # type: ignore[attr-defined]
                self.out.file(test_id=test_id, name=name, chunks=[b"".join(traceback_lines(err))],
                              mime_type=TRACEBACK_MIME, timestamp=now)
            self.out.status(test_id=test_id, test_status="fail", timestamp=now)
        self._subtest_failures = []

    def _report(self, test: unittest.TestCase, status: str, err: ExcInfo | None = None,
                reason: str | None = None) -> None:
        test_id, now = test.id(), self._now()
        if err is not None:
            self.out.file(test_id=test_id, name="traceback", chunks=traceback_lines(err),
                          mime_type=TRACEBACK_MIME, timestamp=now)
        if reason is not None:
            self.out.file(test_id=test_id, name="reason", chunks=[reason.encode("utf8")],
                          mime_type=REASON_MIME, timestamp=now)
        self.out.status(test_id=test_id, test_status=status, timestamp=now)

    def addSuccess(self, test: unittest.TestCase) -> None:
        self._report(test, "success")

    def addError(self, test: unittest.TestCase, err: ExcInfo) -> None:  # type: ignore[override]
        self._report(test, "fail", err)

    def addFailure(self, test: unittest.TestCase, err: ExcInfo) -> None:  # type: ignore[override]
        self._report(test, "fail", err)

    def addSkip(self, test: unittest.TestCase, reason: str) -> None:
        self._report(test, "skip", reason=reason)

    def addExpectedFailure(self, test: unittest.TestCase, err: ExcInfo) -> None:  # type: ignore[override]
        self._report(test, "xfail", err)

    def addUnexpectedSuccess(self, test: unittest.TestCase) -> None:
        self._report(test, "uxsuccess")

    def addSubTest(self, test: unittest.TestCase, subtest: unittest.TestCase,
                   err: ExcInfo | None) -> None:  # type: ignore[override]
        if err is not None:
            self._subtest_failures.append((subtest, err))
