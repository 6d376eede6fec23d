"""The progress lines of a hunt away from a terminal."""

from __future__ import annotations

import io

from isolate.report.progress import Display
from isolate.search.model import Problem
from isolate.search.posterior import Answer


def test_a_leading_answer_that_would_print_as_0_00_is_left_out() -> None:
    """A step's 'leading:' line named 'test_set_unknown_locale_rejected 0.00' third."""
    problem = Problem(("m.T.test_a", "m.T.test_b", "m.T.test_c"), "m.T.test_v", (0.1, 0.1, 0.1), 0.1, 0.1)
    leaders = (Answer((0,), 0.996, 0.9, 0.0), Answer((1,), 0.9, 0.9, 0.0), Answer((2,), 0.004, 0.9, 0.0))
    out = io.StringIO()
    Display(out).step(4, 1, 2, "why", problem, (), leaders)
    assert "leading: test_a 1.00, test_b 0.90\n" in out.getvalue(), out.getvalue()
    alone = io.StringIO()
    Display(alone).step(1, 0, 2, "why", problem, (), (Answer((), 0.001, 0.1, 0.1),))
    assert "leading: fails alone < 0.01\n" in alone.getvalue(), alone.getvalue()  # the first is always said
