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
    # 0.996 is no certainty: not "1.00" (words.probability)
    assert "leading: test_a > 0.99, test_b 0.90\n" in out.getvalue(), out.getvalue()
    alone = io.StringIO()
    Display(alone).step(1, 0, 2, "why", problem, (), (Answer((), 0.001, 0.1, 0.1),))
    assert "leading: fails alone < 0.01\n" in alone.getvalue(), alone.getvalue()  # the first is always said


def test_a_leading_pair_names_both_tests_and_a_pytest_id_its_own_name() -> None:
    """A pair led as 'test_register_shout_plugin 1.00' (its second test only), and a pytest node id
    as 'py::test_shelf_price_during_2020_vat_cut' (cut at the last dot, that of '.py')."""
    problem = Problem(("tests/test_catalog.py::test_vat_cut", "tests/test_units.py::test_kg[1.5]", "a.M.test_mode",
                       "a.P.test_plugin"), "tests/test_invoices.py::test_v", (0.1,) * 4, 0.1, 0.1)
    leaders = (Answer((2, 3), 0.9, 0.9, 0.0), Answer((0,), 0.05, 0.9, 0.0), Answer((1,), 0.03, 0.9, 0.0))
    out = io.StringIO()
    Display(out).step(4, 2, 2, "why", problem, (), leaders)
    assert "leading: test_mode + test_plugin 0.90, test_vat_cut 0.05, test_kg[1.5] 0.03\n" in out.getvalue(), out.getvalue()


def test_a_parameter_holding_the_separator_stays_whole_in_the_short_name() -> None:
    """A pytest parameter holding '::' led as 'q [r]]' (the id cut inside its brackets), a
    unittest scenario holding a dot as 'v2)'."""
    problem = Problem(("tests/test_odd.py::test_ids[p::q [r]]", "a.T.test_render(json.v2)",
                       "tests/test_odd.py::TestK::test_k[x.y]"), "tests/test_odd.py::test_v", (0.1,) * 3, 0.1, 0.1)
    leaders = (Answer((0,), 0.6, 0.9, 0.0), Answer((1,), 0.2, 0.9, 0.0), Answer((2,), 0.1, 0.9, 0.0))
    out = io.StringIO()
    Display(out).step(4, 1, 2, "why", problem, (), leaders)
    assert "leading: test_ids[p::q [r]] 0.60, test_render(json.v2) 0.20, test_k[x.y] 0.10\n" in out.getvalue(), \
        out.getvalue()


def test_a_list_run_again_keeps_its_step_number_and_says_so() -> None:
    """QA: 'step 4' began twice in one hunt's progress, minutes apart, as if the hunt went back:
    a step names a list file (step-004.txt), and the list was chosen again."""
    problem = Problem(("m.T.test_a", "m.T.test_b"), "m.T.test_v", (0.1, 0.1), 0.1, 0.1)
    out = io.StringIO()
    display = Display(out)
    display.step(4, 1, 2, "why", problem, ())
    display.step(5, 2, 2, "why", problem, ())
    display.step(4, 1, 2, "why", problem, ())
    lines = [line.split("] ", 1)[1].split(",")[0] for line in out.getvalue().splitlines()]
    assert lines == ["step 4: 1 predecessor + victim", "step 5: 2 predecessors + victim",
                     "step 4 again: 1 predecessor + victim"], lines
