"""Failure signatures from real tracebacks: same failure -> same signature, other failure -> not."""

from __future__ import annotations

import sys
import unittest

from testtools.content import TracebackContent

from isolate.running.signature import normalise_message, signature_from_traceback, signatures_match


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

