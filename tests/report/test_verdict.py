"""The verdict as text: the commands it offers are ones that reproduce."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from isolate.report.verdict import as_text, stestr_keeps_order
from isolate.search.model import FoundCause, Problem, Verdict


def test_the_stestr_command_is_offered_only_for_a_list_stestr_runs_in_its_order(tmp_path: Path) -> None:
    """stestr runs a loaded list in discovery (sorted) order: a reproducer whose culprit sorts
    after the victim would not reproduce that way, so only `isolate replay` is offered."""
    assert stestr_keeps_order(["a.T.test_polluter", "b.T.test_victim"])
    assert not stestr_keeps_order(["b.T.test_polluter", "a.T.test_victim"])
    for polluter, victim, offered in (("a.T.test_p", "b.T.test_v", True), ("c.T.test_p", "b.T.test_v", False)):
        reproducer = tmp_path / f"{offered}" / "reproducer.txt"
        reproducer.parent.mkdir()
        reproducer.write_text(f"{polluter}\n{victim}\n")
        problem = Problem((polluter,), victim, (0.1,), 0.1, 0.1)
        text = as_text(problem, Verdict("polluter", (0,), 0.99, 1.0, 0.0, ("x",), 3, 1.0), tmp_path, reproducer,
                       "stestr")
        assert "reproduce: isolate replay" in text
        assert ("stestr run --serial --load-list" in text) == offered, text


def test_a_victim_that_fails_on_its_own_has_one_rate_and_no_culprit_to_speak_of(tmp_path: Path) -> None:
    problem = Problem(("a.T.test_a",), "b.T.test_v", (0.1,), 0.1, 0.1)
    alone = Verdict("fails-alone", (), 0.995, 0.3, 0.3, ("fails 3/10 alone (no predecessors)",), 20, 2.0)
    text = as_text(problem, alone, tmp_path, None, "stestr")
    assert "estimated failure rate: 0.3, whatever ran before it" in text
    assert "culprit" not in text
    # QA: with repeats on, the rate is a run's of K executions, read as one run of the suite's
    repeated = as_text(problem, alone, tmp_path, None, "stestr", executions=5)
    assert "estimated failure rate: 0.3 a run of repeats (5 executions of the victim), 0.069 an execution (a run of" \
           " the suite), whatever ran before it" in repeated, repeated
    polluted = Verdict("polluter", (0,), 0.99, 0.9, 0.01, ("x",), 20, 2.0)
    assert "estimated failure rate: 0.9 with the culprit(s), 0.01 without" in as_text(
        problem, polluted, tmp_path, None, "stestr")


def test_several_causes_give_the_range_of_their_rates_not_one_of_them(tmp_path: Path) -> None:
    """With two causes the line said "0.9 with the culprit(s)": the stronger one's rate, as if
    it held for both."""
    problem = Problem(("a.T.test_a", "a.T.test_b", "a.T.test_c"), "b.T.test_v", (0.1,) * 3, 0.1, 0.1)
    causes = (FoundCause("test", "a.T.test_a", (0,), 0.746, 0.995, ("fails 34/50 with a",)),
              FoundCause("test", "a.T.test_c", (2,), 0.9, 0.999, ("fails 4/4 with c",)))
    both = Verdict("polluter", (0, 2), 0.995, 0.9, 0.0, ("x",), 96, 3.0, causes=causes)
    text = as_text(problem, both, tmp_path, None, "stestr")
    assert "estimated failure rate: 0.746 to 0.9 with one of the causes (each as listed), 0 without any" in text
    assert "with the culprit(s)" not in text
    one = Verdict("polluter", (0,), 0.995, 0.746, 0.0, ("x",), 96, 3.0, causes=causes[:1])
    assert "estimated failure rate: 0.746 with the culprit(s), 0 without" in as_text(problem, one, tmp_path, None,
                                                                                      "stestr")


def test_a_polluter_verdict_says_what_the_scan_would_add_until_it_ran(tmp_path: Path) -> None:
    problem = Problem(("a", "b", "c"), "v", (0.1,) * 3, 0.1, 0.5)
    plain = Verdict("polluter", (1,), 0.99, 1.0, 0.0, ("fails 3/3 with b before it",), 3, 1.0)
    assert "--scan runs each of the 2 other predecessors alone before the victim" in as_text(
        problem, plain, tmp_path, None, "stestr")
    scanned = Verdict("polluter", (1,), 0.99, 1.0, 0.0, ("fails 3/3 with b before it", "scan: each of the 2 ..."), 5, 1.0)
    assert "not covered" not in as_text(problem, scanned, tmp_path, None, "stestr")
    alone = Verdict("fails-alone", (), 0.99, 0.1, 0.1, ("fails 3/30 alone",), 30, 1.0)
    assert "not covered" not in as_text(problem, alone, tmp_path, None, "stestr")
    # one left: it said "runs each of the 1 other predecessors"
    two = Problem(("a", "b"), "v", (0.1,) * 2, 0.1, 0.5)
    assert "--scan runs the 1 other predecessor alone before the victim" in as_text(two, plain, tmp_path, None, "stestr")


def test_alternatives_that_would_print_as_0_000_are_left_out(tmp_path: Path) -> None:
    """A fails-alone verdict listed "next most likely: a (0.000)" lines: nothing anyone should weigh."""
    problem = Problem(("a.T.test_a", "a.T.test_b"), "b.T.test_v", (0.1, 0.1), 0.1, 0.1)
    alone = Verdict("fails-alone", (), 0.995, 0.3, 0.3, ("fails 3/10 alone (no predecessors)",), 20, 2.0,
                    alternatives=(((0,), 0.004), ((1,), 0.0001)))
    text = as_text(problem, alone, tmp_path, None, "stestr")
    assert "next most likely: test_a (0.004)" in text or "next most likely: a.T.test_a (0.004)" in text, text
    assert "0.000" not in text, text


def test_the_stestr_command_works_from_a_subdirectory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """stestr reads .stestr.conf from where it runs: from a subdirectory the offered command
    failed. It now starts from the project's root."""
    hunt = tmp_path / "project" / ".isolate" / "T.test_v-0"
    hunt.mkdir(parents=True)
    reproducer = hunt / "reproducer.txt"
    reproducer.write_text("a.T.test_p\nb.T.test_v\n")
    problem = Problem(("a.T.test_p",), "b.T.test_v", (0.1,), 0.1, 0.1)
    verdict = Verdict("polluter", (0,), 0.99, 1.0, 0.0, ("x",), 3, 1.0)
    (tmp_path / "project" / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "project" / "sub")
    text = as_text(problem, verdict, hunt, reproducer, "stestr")
    assert (f"or: cd {tmp_path / 'project'} && stestr run --serial --load-list .isolate/T.test_v-0/reproducer.txt"
            in text), text
    monkeypatch.chdir(tmp_path / "project")
    assert "or: stestr run --serial --load-list .isolate/T.test_v-0/reproducer.txt" in as_text(
        problem, verdict, hunt, reproducer, "stestr")


def test_suspects_tied_for_the_lead_are_named_alike(tmp_path: Path) -> None:
    """An undecided hunt named one of three suspects at 0.124 as "leading suspect", the two
    others tied with it only as "next most likely"."""
    problem = Problem(("a.T.test_a", "a.T.test_b", "a.T.test_c"), "b.T.test_v", (0.1,) * 3, 0.1, 0.1)
    verdict = Verdict("undecided", (0,), 0.124, 1.0, 0.0, ("x",), 30, 2.0,
                      alternatives=(((1,), 0.124), ((2,), 0.124), ((), 0.05)))
    text = as_text(problem, verdict, tmp_path, None, "stestr")
    assert "  3 suspects tied for the lead, at 0.124 each (not proven):\n    a.T.test_a\n    a.T.test_b\n    a.T.test_c\n" in text, text
    assert "leading suspect (not proven)" not in text and "test_b (0.124)" not in text
    single = Verdict("undecided", (0,), 0.6, 1.0, 0.0, ("x",), 30, 2.0, alternatives=(((1,), 0.2),))
    assert "  leading suspect (not proven):\n    a.T.test_a\n" in as_text(problem, single, tmp_path, None, "stestr")


def test_the_verdict_of_a_short_hunt_gives_its_time(tmp_path: Path) -> None:
    """A hunt of two quick runs said '2 runs in 0s, 0s of test time'."""
    problem = Problem(("a.T.test_a",), "b.T.test_v", (0.1,), 0.1, 0.1)
    verdict = Verdict("not-reproduced", (), 0.001, 0.0, 0.0, ("0/2 runs failed",), 2, 0.34)
    text = as_text(problem, verdict, tmp_path, None, "stestr", wall=0.21)
    assert "2 runs in 0.2 s, 0.3 s of test time;" in text, text


def test_the_verdict_words_a_long_hunt_as_everything_else_does(tmp_path: Path) -> None:
    """The verdict had its own formatter ("3m05s", "2h10m") beside words.seconds ("0.5 s per run"
    in the same output): one format now."""
    problem = Problem(("a.T.test_a",), "b.T.test_v", (0.1,), 0.1, 0.1)
    verdict = Verdict("not-reproduced", (), 0.001, 0.0, 0.0, ("0/200 runs failed",), 200, 7800.0)
    text = as_text(problem, verdict, tmp_path, None, "stestr", wall=185.0)
    assert "200 runs in 3 min 5 s, 2 h 10 min of test time;" in text, text


def test_a_rate_just_below_1_is_not_said_to_be_1(tmp_path: Path) -> None:
    """A class cause failing 68/68 runs, rate 0.999988, read "rate 1" and "estimated failure
    rate: 1 with the culprit(s)": certainty, which 68 runs do not give."""
    problem = Problem(("a.T.test_a", "a.T.test_b"), "b.T.test_v", (0.1,) * 2, 0.1, 0.1)
    causes = (FoundCause("class", "a.T", (0, 1), 0.999988, 0.9996, ("fails 68/68 with one of them", "rate ..."),
                         per_execution=0.996),)
    verdict = Verdict("polluter", (0, 1), 0.9996, 0.999988, 0.0, ("x",), 78, 3.0, causes=causes)
    text = as_text(problem, verdict, tmp_path, None, "stestr")
    assert "[class: any of its tests; rate > 0.999 a run of repeats, > 0.99 an execution, confidence > 0.999]" in text, text
    assert "polluted by an earlier test — confidence > 0.999" in text, text
    assert "estimated failure rate: > 0.999 with the culprit(s), 0 without" in text, text


def test_a_causes_rate_says_the_runs_it_is_read_from(tmp_path: Path) -> None:
    """QA read "rate 0.833" of a cause that failed 2 of 2 runs as a flaky one: the estimate
    (Jeffreys' mean) is cautious, and the counts say the cause failed every run."""
    problem = Problem(("a.T.test_a", "a.U.test_b"), "b.T.test_v", (0.1,) * 2, 0.1, 0.1)
    causes = (FoundCause("test", "a.T.test_a", (0,), 0.8333, 0.999, ("fails 2/2 with a.T.test_a before it", "rate ..."),
                         fails=2, held=2),
              FoundCause("test", "a.U.test_b", (1,), 0.5, 0.99, ("x", "rate ..."), per_execution=0.1, fails=4, held=8))
    verdict = Verdict("polluter", (0, 1), 0.99, 0.8333, 0.0, ("x",), 12, 3.0, causes=causes)
    text = as_text(problem, verdict, tmp_path, None, "stestr")
    assert "a.T.test_a  [test; rate 0.833 (2/2 runs), confidence 0.999]" in text, text
    assert "a.U.test_b  [test; rate 0.5 (4/8 runs) a run of repeats, 0.1 an execution, confidence 0.990]" in text, text
    # a verdict stored before the counts were kept reads as before
    old = replace(verdict, causes=tuple(replace(c, fails=0, held=0) for c in causes))
    assert "a.T.test_a  [test; rate 0.833, confidence 0.999]" in as_text(problem, old, tmp_path, None, "stestr")


def test_a_polluter_verdict_says_the_victim_also_fails_on_its_own(tmp_path: Path) -> None:
    """QA: a victim polluted by a test and failing 1 time in 30 on its own was named polluted, and
    only status and the JSON said it fails alone too: the user would fix the polluter and keep
    the flake."""
    problem = Problem(("a.T.test_a",), "b.T.test_v", (0.1,), 0.1, 0.1)
    causes = (FoundCause("test", "a.T.test_a", (0,), 0.6, 0.99, ("fails 9/15 with a.T.test_a before it", "rate ..."),
                         fails=9, held=15),)
    verdict = Verdict("polluter", (0,), 0.99, 0.6, 0.03, ("x",), 90, 3.0, causes=causes)
    finding = "fails on its own: 3/73 alone on a first execution"
    text = as_text(problem, verdict, tmp_path, None, "stestr", findings=(finding,))
    assert (f"  finding: {finding}; the victim fails on its own as well, so fixing the cause(s) leaves that failure"
            in text), text
    assert "finding" not in as_text(problem, verdict, tmp_path, None, "stestr")
    alone = Verdict("fails-alone", (), 0.99, 0.03, 0.03, ("x",), 90, 3.0)  # its headline says it already
    assert "finding" not in as_text(problem, alone, tmp_path, None, "stestr", findings=(finding,))


def test_runs_that_were_no_evidence_are_counted_and_said_to_be(tmp_path: Path) -> None:
    """A hunt ended by 100 runs in a row that told nothing said "0 runs in 7s, 13s of test time"."""
    problem = Problem(("a.T.test_a",), "b.T.test_v", (0.1,), 0.1, 0.1)
    none = Verdict("not-reproduced", (), 0.0, 0.0, 0.0, ("the last 100 runs were no evidence",), 0, 13.4)
    text = as_text(problem, none, tmp_path, None, "stestr", wall=7.4, ignored={"fail": 100})
    assert "\n  100 runs (none of them evidence: 100 failed another way) in 7.4 s, 13.4 s of test time;" in text, text
    some = Verdict("polluter", (0,), 0.99, 1.0, 0.0, ("x",), 23, 3.0)
    text = as_text(problem, some, tmp_path, None, "stestr", wall=2.0, history_runs=5, ignored={"timeout": 2, "crash": 1})
    assert "\n  21 runs (3 of them no evidence: 2 timed out, 1 crashed) in 2.0 s (and 5 earlier stored runs)," in text, text
    assert "\n  18 runs in 2.0 s (and 5 earlier stored runs)," in as_text(problem, some, tmp_path, None, "stestr",
                                                                          wall=2.0, history_runs=5, ignored={})


def test_an_undecided_verdict_blames_the_budget_only_when_the_budget_ended_it(tmp_path: Path) -> None:
    """QA: a hunt ended by 100 runs in a row that were no evidence opened with "the budget ran
    out", while its stop line gave the true reason."""
    problem = Problem(("a.T.test_a",), "b.T.test_v", (0.5,), 0.1, 0.1)
    for stop, blamed in (("the last 100 runs were no evidence, and more would only ask the same again", False),
                         ("not confirmed: the victim alone passed 9 runs in a row", False),
                         ("the budget ran out (--max-runs 30 reached: give a larger one to go on)", True),
                         ("", True)):
        verdict = Verdict("undecided", (0,), 0.6, 0.5, 0.0, (stop,) if stop else (), 30, 2.0, stop=stop)
        head = as_text(problem, verdict, tmp_path, None, "stestr").splitlines()[1]
        assert ("budget ran out" in head) == blamed, head
        assert head.startswith("  undecided: "), head


def test_an_undecided_verdict_led_by_fails_alone_says_so() -> None:
    """QA: "undecided: the budget ran out before the target confidence — confidence 0.310" named
    no answer: the one it was the probability of was "fails on its own", said only by status."""
    problem = Problem(("a.T.test_a", "a.T.test_b"), "b.T.test_v", (0.5, 0.5), 0.1, 0.1)
    stop = "the budget ran out (--max-runs 60 reached: give a larger one to go on)"
    led = Verdict("undecided", (), 0.31, 0.1, 0.1, (stop,), 60, 2.0, (((1,), 0.013),), stop=stop)
    text = as_text(problem, led, Path("."), None, "stestr")
    assert "  leading answer (not proven): fails on its own, no earlier test needed\n" in text, text
    named = Verdict("undecided", (0,), 0.6, 0.5, 0.0, (stop,), 60, 2.0, stop=stop)
    text = as_text(problem, named, Path("."), None, "stestr")
    assert "leading suspect (not proven):\n    a.T.test_a" in text and "fails on its own" not in text, text
