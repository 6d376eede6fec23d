"""Failure signatures from real tracebacks: same failure -> same signature, other failure -> not."""

from __future__ import annotations

import subprocess
import sys
import unittest
from pathlib import Path

from testtools.content import TracebackContent

from conftest import env
from isolate.orders.stream import Record, scan
from isolate.running.judge import FAIL, PASS, Expectation
from isolate.running.signature import (chain_signatures, failure_point, function_of, line_in, normalise_message,
                                      signature_from_traceback, signatures_match)


def traceback_of(func_name: str, body: str) -> str:
    """The traceback text testtools stores for a unittest failure raised by ``body``."""
    namespace: dict[str, object] = {"unittest": unittest}
    source = f"class T(unittest.TestCase):\n    def {func_name}(self):\n" + "".join(
        f"        {line}\n" for line in body.splitlines())
    exec(compile(source, "/srv/proj/tests/test_mod.py", "exec"), namespace)
    case = namespace["T"](func_name)  # type: ignore[operator]
    try:
        getattr(case, func_name)()
    except Exception:
        return "".join(TracebackContent(sys.exc_info(), case).iter_text())
    raise AssertionError("body did not raise")


def test_assertion_failure_names_type_message_and_test_frame() -> None:
    text = traceback_of("test_total", "self.assertEqual([1, 2, 3], [1, 2, 4])")
    assert "unittest/case.py" in text  # the deepest frames are unittest's own...
    # ...but the signature names the test's frame, and the first message line only
    assert signature_from_traceback(text) == "AssertionError: Lists differ: […] != […] @ test_mod.py:test_total"


def test_varying_numbers_addresses_and_temp_names_still_match() -> None:
    one = traceback_of("test_x", "raise ValueError('object at 0x7f3a2b at /tmp/tmpa1b2c3d4/f, took 12.5s')")
    two = traceback_of("test_x", "\n\nraise ValueError('object at 0x55d0e1 at /tmp/tmpzz99yy00/f, took 3s')")
    assert signature_from_traceback(one) == signature_from_traceback(two)  # line numbers moved too
    assert signatures_match(signature_from_traceback(one), signature_from_traceback(two))


def test_different_failures_do_not_match() -> None:
    base = signature_from_traceback(traceback_of("test_x", "raise KeyError('currency')"))
    other_type = signature_from_traceback(traceback_of("test_x", "raise LookupError('currency')"))
    other_message = signature_from_traceback(traceback_of("test_x", "raise KeyError('locale')"))
    other_test = signature_from_traceback(traceback_of("test_y", "raise KeyError('currency')"))
    assert len({base, other_type, other_message, other_test}) == 4
    assert not signatures_match(base, other_type)
    assert not signatures_match(base, None)


def test_chained_exception_uses_the_last_one() -> None:
    text = traceback_of("test_chain", "try:\n    {}['k']\nexcept KeyError:\n    raise RuntimeError('wrapped 7')")
    assert "During handling" in text
    assert signature_from_traceback(text) == "RuntimeError: wrapped N @ test_mod.py:test_chain"


def test_no_text_means_no_signature_and_anything_matches_no_record() -> None:
    assert signature_from_traceback("") is None
    assert signature_from_traceback("  \n") is None
    assert signature_from_traceback(None) is None
    assert signatures_match(None, "AssertionError: x @ t.py:f")
    assert signatures_match(None, None)


def test_traceback_without_frames_and_exotic_shapes() -> None:
    assert signature_from_traceback("testtools.matchers._impl.MismatchError: 3 != 4\n") == \
        "testtools.matchers._impl.MismatchError: N != N"
    assert signature_from_traceback("SystemExit\n") == "SystemExit:"
    py311 = ('Traceback (most recent call last):\n  File "/p/test_a.py", line 5, in test_a\n'
             '    x = d["k"]\n        ~^^^^^\nKeyError: \'k\'\n')
    assert signature_from_traceback(py311) == "KeyError: 'k' @ test_a.py:test_a"


def test_normalise_message() -> None:
    assert normalise_message("id 550e8400-e29b-41d4-a716-446655440000   at 0xDEAD") == "id <uuid> at <addr>"
    assert len(normalise_message("x" * 1000)) == 200


def test_container_reprs_are_state_and_collapse() -> None:
    """pytest dumps `sys.modules` into an assertion message, and a set's order follows the
    process's hash seed: the same failure must match across processes (seen on six 1.17.0's
    test_lazy, where 392 of 393 failing replays had counted as failing another way)."""
    recorded = ("assert 'html.parser' not in {'sys': <module 'sys' (built-in)>, 'builtins': <module "
                "'six.moves.builtins' (<six._SixMetaPathImporter object at 0x7f627f850550>)>, '_frozen")
    replayed = ("assert 'html.parser' not in {'sys': <module 'sys' (built-in)>, 'builtins': <module 'builtins'"
                " (built-in)>, '_frozen_importlib': <module '_frozen_importlib' (frozen)>, ...}")
    assert normalise_message(recorded) == normalise_message(replayed) == "assert 'html.parser' not in {…}"
    assert normalise_message("{'b', 'a'} != set()") == normalise_message("{'a', 'b'} != set()")
    assert normalise_message("'EUR' != 'USD'") == "'EUR' != 'USD'"  # plain values stay
    assert normalise_message("x < 3 and y > 2") == "x < N and y > N"  # comparisons are no reprs
    assert normalise_message("<Foo object at 0x1> is not <Bar>") == "<…> is not <…>"
    assert normalise_message("missing key [1, [2, 3]") == "missing key […]"  # cut inside: closed



TWO_ASSERTS_TB = """Traceback (most recent call last):
  File "/p/tests/test_c.py", line {line}, in test_victim
    check(state)
  File "/p/tests/helpers.py", line 40, in check
    raise AssertionError("bad")
AssertionError: bad
"""
TWO_ASSERTS_PYTEST = """def test_victim():
        assert not Conf.debug
>       assert getattr(Conf, "level", 0) == 0
E       AssertionError: assert 3 == 0

tests/test_c.py:{line}: AssertionError"""


def test_the_point_of_the_test_s_own_function_a_failure_left() -> None:
    assert failure_point(TWO_ASSERTS_TB.format(line=12), "test_victim") == ("test_c.py", 12)  # not the helper's 40
    assert failure_point(TWO_ASSERTS_PYTEST.format(line=30), "test_victim") == ("test_c.py", 30)
    assert failure_point(TWO_ASSERTS_TB.format(line=12), "test_other") is None
    assert failure_point("", "test_victim") is None and failure_point(None, "test_victim") is None
    assert [function_of(i) for i in ("a.b.C.test_x(s.1)", "t/f.py::C::test_y[1.5]", "t/f.py::test_z")] == [
        "test_x", "test_y", "test_z"]


INHERITED_TB = """Traceback (most recent call last):
  File "/p/tests/test_z_victim.py", line 5, in test_victim
    super().test_victim()
  File "/p/tests/base.py", line 26, in test_victim
    assert state.B == "b", "B leaked"
AssertionError: B leaked
"""
CHAINED_TB = """Traceback (most recent call last):
  File "/p/tests/test_c.py", line 29, in test_victim
    self.assertIn("c", state.REGISTRY)
AssertionError: 'c' not found

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/p/tests/test_c.py", line 31, in test_victim
    state.release()
RuntimeError: hook failed
"""


def test_a_failure_of_another_way_at_a_later_line_went_past_the_recorded_one() -> None:
    """The recorded failure left the test at line 29; a failure of another way at line 30 ran past
    it (a pass of it), one at line 28 or 29 may have hidden it (no evidence either way)."""
    recorded = TWO_ASSERTS_PYTEST.format(line=29).replace("level", "debug")
    expect = Expectation(signature_from_traceback(recorded), point=failure_point(recorded, "test_victim"))
    victim = "tests/test_c.py::test_victim"
    later, earlier = TWO_ASSERTS_TB.format(line=30), TWO_ASSERTS_TB.format(line=28)
    assert expect.went_past(FAIL, signature_from_traceback(later), later, victim)
    assert not expect.went_past(FAIL, signature_from_traceback(earlier), earlier, victim)
    same_line = TWO_ASSERTS_TB.format(line=29)
    assert not expect.went_past(FAIL, signature_from_traceback(same_line), same_line, victim)
    assert not expect.went_past(PASS, None, "", victim)
    assert not expect.went_past(FAIL, expect.signature, recorded.replace(":29:", ":31:"), victim)  # a reproduction
    assert not Expectation(expect.signature).went_past(FAIL, None, later, victim)  # no recorded point
    # QA: a `finally` that raised after the recorded failure (line 31, its chain holding line 29's)
    assert line_in(CHAINED_TB, "test_victim", "test_c.py") is None
    assert not expect.went_past(FAIL, signature_from_traceback(CHAINED_TB), CHAINED_TB, victim)


def test_an_inherited_test_of_the_same_name_in_another_file_is_not_the_recorded_point() -> None:
    """QA: the deepest frame named test_victim was the base class's (base.py:26), compared with
    the recorded line 6 of test_z_victim.py; the subclass's own frame was at line 5, before it."""
    expect = Expectation("AssertionError: A leaked @ test_z_victim.py:test_victim", point=("test_z_victim.py", 6))
    assert line_in(INHERITED_TB, "test_victim", "test_z_victim.py") == 5
    assert not expect.went_past(FAIL, signature_from_traceback(INHERITED_TB), INHERITED_TB,
                                "tests/test_z_victim.py::TestVictim::test_victim")
    assert expect.went_past(FAIL, "RuntimeError: x", INHERITED_TB.replace("line 5,", "line 7,"),
                            "tests/test_z_victim.py::TestVictim::test_victim")


def test_a_chain_that_holds_the_recorded_failure_reproduces_it() -> None:
    """QA: the recorded assert failed, then a `finally` raised: the run's signature (the last
    exception's) was another way, and the run read as a pass of the very failure it showed."""
    first, last = chain_signatures(CHAINED_TB)
    assert first.startswith("AssertionError: 'c' not found @ test_c.py:test_victim") and last.startswith("RuntimeError")
    assert chain_signatures(TWO_ASSERTS_TB.format(line=3)) == [signature_from_traceback(TWO_ASSERTS_TB.format(line=3))]
    expect = Expectation(first, point=("test_c.py", 29))
    assert expect.reproduces(FAIL, last, CHAINED_TB) and not expect.reproduces(FAIL, last, "")
    other = Expectation("KeyError: 'x' @ test_c.py:test_victim", point=("test_c.py", 29))
    assert not other.reproduces(FAIL, last, CHAINED_TB)


DOCTEST = '''
import os


def f():
    """
    >>> 1 + 1
    2
    >>> os.environ.get("QA_X")
    >>> os.environ.get("QA_Y")
    """
'''


def test_a_doctest_failure_signs_its_failing_example(tmp_path: Path) -> None:
    """QA (toolz, --doctest-modules): a doctest's failure signed "DocTestFailure: @ utils.py",
    whichever example failed, so a failure of another example counted as the recorded one (the
    victim "failed 8/22 alone" where the recorded failure never happens alone). A real pytest
    session records each failure; its signature names the failing example's source."""
    (tmp_path / "mod.py").write_text(DOCTEST)
    signs = []
    for variable in ("QA_X", "QA_Y"):
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--doctest-modules", "mod.py",
                        "--isolate-record", variable], cwd=tmp_path, env=env(**{variable: "1"}), capture_output=True,
                       timeout=120)
        records: list[Record] = []
        with (tmp_path / variable / "main.subunit").open("rb") as fp:
            scan(fp, records.append, lambda _: None)
        [failed] = [r for r in records if r.status == "fail"]
        signs.append(signature_from_traceback(failed.details))
    assert signs == ['DocTestFailure: os.environ.get("QA_X") @ mod.py',
                     'DocTestFailure: os.environ.get("QA_Y") @ mod.py'], signs
