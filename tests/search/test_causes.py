"""The several-causes strategy: every cause named, scopes grouped, a stop reason, pure replay."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from typing import Any
import random

import pytest

from isolate.search.decide import decide, leading
from isolate.search.model import Observation, Problem, Query, Settings, Verdict, run_cost, runs_for, without
from isolate.search.scopes import class_of, module_of, nearest_scope
import isolate.search.simulate as simulate
from isolate.search.repeats import AUTO_K
from isolate.search.simulate import (Cause, Suite, Truth, hunt, make_problem, repeat_trial, scenario, simulate_query,
                                     trial)
from isolate.search.stop import (REACH, REACH_MOST, Executions, Found, _chase_runs, always, check_runs, executions_pay,
                                 hedging, missed, reaches, run_floor)
from isolate.search.strategies.causes import CONFIRM, MEMBER_SHARE, _member_need, _shown_alone
from isolate.search.threshold import cost_chain, infer, prefix_counts
from isolate.search.model import tally
from isolate.search.posterior import lattice, polluter_evidence


def suite(n: int, causes: list[tuple[set[int], float]], background: float = 0.0) -> Suite:
    pb = make_problem(n, tuple(0.1 + 0.01 * i for i in range(n)), 0.1, 1.0)
    truth = Truth(tuple(Cause(frozenset(c), p) for c, p in causes), background,
                  frozenset(i for c, _ in causes for i in c))
    return Suite(pb, truth)


def obs(included: set[int] | range, failed: bool, count: int = 1) -> Observation:
    return Observation(frozenset(included), failed, float(count), count)


def test_three_independent_polluters_are_all_named_with_their_own_evidence() -> None:
    s = suite(60, [({4}, 1.0), ({27}, 1.0), ({51}, 1.0)])
    v, history, _ = hunt(s, Settings(), random.Random(1))
    assert v.kind == "polluter" and v.culprits == (4, 27, 51)
    assert [c.scope for c in v.causes] == ["test", "test", "test"]
    assert [c.tests for c in v.causes] == [(4,), (27,), (51,)]
    for c in v.causes:
        assert c.confidence >= 0.99 and c.rate > 0.5
        assert c.evidence[0].startswith("fails ") and s.problem.predecessors[c.tests[0]] in c.evidence[0]
        # the counts its rate is read from (Jeffreys' mean: 2/2 reads 0.833), which the verdict shows
        assert c.held >= 2 and c.fails == c.held and c.rate == pytest.approx((c.fails + 0.5) / (c.held + 1))
        assert "alone before the victim: fails" in c.evidence[1]
    assert v.stop.startswith("no further cause: the 57 other predecessors passed")
    # its count there holds runs with the other causes too, unlike the cause lines': it says so
    assert re.search(r"as often as \S+ \(\d+/\d+ with it, other causes or not\) would have shown", v.stop), v.stop
    # pure: the same journal gives the same answer, and any cut of it the same next step
    assert decide(s.problem, list(history)) == v
    for cut in (3, len(history) // 2):
        assert decide(s.problem, history[:cut]) == decide(s.problem, list(history[:cut]))


def test_a_class_whose_every_test_pollutes_is_one_cause_of_scope_class() -> None:
    for seed in range(3):
        s = scenario("class p=1", 50, random.Random(seed))
        v, _, _ = hunt(s, Settings(), random.Random(seed))
        assert v.kind == "polluter" and frozenset(v.culprits) == s.truth.answer
        (cause,) = v.causes
        names = [s.problem.predecessors[i] for i in cause.tests]
        assert cause.scope == "class" and cause.name == class_of(names[0])
        assert {class_of(n) for n in names} == {cause.name}
        assert cause.evidence[0].startswith(f"any test of {cause.name} before it ({len(names)} tests")
        # its rate is its own runs' (any member, no other cause) against the runs without any,
        # as a test's is read, not the lowest of its members' rates from their few runs alone
        a, b, c, d = map(int, re.search(r"fails (\d+)/(\d+) with one of them, (\d+)/(\d+) without",
                                        cause.evidence[0]).groups())
        assert cause.rate == pytest.approx(polluter_evidence(lattice(Settings().rates), a, b - a, c, d - c)[1])
        assert a == b and cause.rate > 0.99
        assert (cause.fails, cause.held) == (a, b)  # the counts the rate is read from, which the verdict shows


def test_a_module_of_several_classes_is_one_cause_of_scope_module() -> None:
    s = scenario("module p=1", 50, random.Random(2))
    v, _, _ = hunt(s, Settings(), random.Random(2))
    (cause,) = v.causes
    assert cause.scope == "module" and frozenset(cause.tests) == s.truth.answer
    assert cause.name == module_of(s.problem.predecessors[cause.tests[0]])


def pytest_suite(files: list[tuple[str, int]], causes: list[tuple[set[int], float]]) -> Suite:
    """A simulated pytest suite: `files` of plain test functions (no classes), in order."""
    names = tuple(f"tests/{name}.py::test_{name}_{k}" for name, count in files for k in range(count))
    pb = Problem(names, "tests/test_victim.py::test_victim", tuple(0.1 for _ in names), 0.1, 1.0)
    return Suite(pb, Truth(tuple(Cause(frozenset(c), p) for c, p in causes), 0.0,
                           frozenset(i for c, _ in causes for i in c)))


def test_a_pytest_file_of_functions_whose_every_test_pollutes_is_one_cause_of_scope_module() -> None:
    """QA (cachetools): a module-scoped fixture leaking through a file's three test functions was
    named as three causes found one by one; a function has no class, so its file is the scope
    whose other tests are probed together, and it is reported as one cause of scope module."""
    files = [("test_a", 9), ("test_backend", 3), ("test_c", 10), ("test_d", 8)]
    backend = {9, 10, 11}  # every test of test_backend.py
    for seed in range(3):
        s = pytest_suite(files, [({i}, 1.0) for i in backend])
        v, history, _ = hunt(s, Settings(), random.Random(seed))
        assert v.kind == "polluter" and set(v.culprits) == backend, v
        (cause,) = v.causes
        assert (cause.scope, cause.name, set(cause.tests)) == ("module", "tests/test_backend.py", backend), cause
        assert cause.evidence[0].startswith("any test of tests/test_backend.py before it (3 tests; a module-scoped"
                                            " fixture, setup_module, its import or shared state of the module): fails "), cause
        # after the first cause, the file's other tests together alone before the victim
        assert any(o.included == frozenset(backend) - {first} for o in history for first in backend), history


def test_a_cause_that_is_the_only_test_of_its_class_in_the_list_says_the_class_may_act_alike() -> None:
    """QA: a setup_class polluter of which xdist gave the worker one test was named as that test,
    with nothing pointing at the class's set-up (the class cause of its serial recording)."""
    names = ("tests/test_a.py::test_a0", "tests/test_a.py::test_a1", "tests/test_g.py::TestTwoFirst::test_t1",
             "tests/test_h.py::test_h0", "tests/test_h.py::test_h1", "tests/test_h.py::TestMore::test_m0",
             "tests/test_h.py::TestMore::test_m1")
    pb = Problem(names, "tests/test_z.py::test_victim", tuple(0.1 for _ in names), 0.1, 1.0)
    s = Suite(pb, Truth((Cause(frozenset({2}), 1.0),), 0.0, frozenset({2})))
    v, _, _ = hunt(s, Settings(), random.Random(0))
    [cause] = v.causes
    assert (cause.scope, cause.tests) == ("test", (2,)), cause
    assert cause.evidence[-2] == ("the only test of tests/test_g.py::TestTwoFirst in the list: its class's set-up or"
                                  " shared state acts alike, and no other test of the class ran to tell them apart")
    assert cause.evidence[-1].startswith("rate "), cause.evidence  # last, as the report reads it
    s = Suite(pb, Truth((Cause(frozenset({5}), 1.0),), 0.0, frozenset({5})))  # a class with another test listed
    v, _, _ = hunt(s, Settings(), random.Random(0))
    assert not any("the only test of" in line for line in v.causes[0].evidence), v.causes


def test_mixed_rates_are_all_found_and_the_outcome_does_not_depend_on_jobs() -> None:
    s = suite(40, [({3}, 0.5), ({30}, 0.3)])
    for batch in (1, 2, 4, 8):
        right = 0
        for seed in range(3):
            # --further 0.5: the stop check then rules out causes down to half the weakest found
            # (about 0.18 here), below the second cause's 0.3.  At the default (1) a cause weaker
            # than the first one's lower bound is not promised, and 12 lucky passes of the rest
            # (1 in 70 at 0.3) end the hunt without it.
            st = Settings(further=0.5)
            v, _, _ = hunt(s, st, random.Random(seed), batch=batch)
            right += v.kind == "polluter" and v.culprits == (3, 30)
        assert right == 3, batch


def test_cumulative_leakers_the_single_cause_model_cannot_confirm_are_each_named() -> None:
    # The journal of test_search's "confirmed alone or undecided" case: leakers 1 and 2 fail the
    # victim 10% of the time each and bystander 0 always ran with one of them.
    s = suite(5, [({1}, 0.1), ({2}, 0.1)])
    v, _, _ = hunt(s, Settings(), random.Random(3))
    assert v.kind == "polluter" and v.culprits == (1, 2)


def test_further_zero_stops_at_the_first_cause_and_says_others_may_remain() -> None:
    s = suite(30, [({5}, 1.0), ({20}, 1.0)])
    v, _, _ = hunt(s, Settings(further=0.0), random.Random(0))
    assert v.kind == "polluter" and len(v.causes) == 1
    assert "others may remain" in v.stop


def test_a_budget_that_runs_out_after_a_cause_keeps_it_and_says_more_may_remain() -> None:
    s = suite(30, [({5}, 1.0), ({20}, 1.0)])
    first, history, _ = hunt(s, Settings(further=0.0), random.Random(0))
    v = decide(s.problem, history, Settings(max_runs=first.runs))
    assert isinstance(v, Verdict) and v.kind == "polluter" and len(v.causes) == 1
    assert v.stop.startswith("more may remain")


def test_fails_alone_and_not_reproduced_still_say_so() -> None:
    s = suite(20, [], background=0.3)
    v, _, _ = hunt(s, Settings(), random.Random(4))
    assert v.kind == "fails-alone" and v.culprits == () and v.causes == ()
    pb = make_problem(5, (0.1,) * 5, 0.1, 1.0)
    v2 = decide(pb, [obs(range(5), False, 30)], Settings(reproduce_runs=30))
    assert isinstance(v2, Verdict) and v2.kind == "not-reproduced"


def test_a_pair_is_named_once_each_half_alone_was_not_enough() -> None:
    s = suite(30, [({6, 22}, 1.0)])
    v, history, _ = hunt(s, Settings(), random.Random(5))
    assert v.kind == "polluter" and [(c.scope, c.tests) for c in v.causes] == [("pair", (6, 22))]
    alone = {o.included for o in history}
    assert frozenset({6}) in alone and frozenset({22}) in alone


def test_leading_lists_found_causes_then_the_round_s_leaders() -> None:
    s = suite(20, [({2}, 1.0), ({15}, 1.0)])
    v, history, _ = hunt(s, Settings(), random.Random(6))
    top = leading(s.problem, history, Settings())
    assert [a.culprits for a in top[:2]] == [(2,), (15,)]
    assert leading(s.problem, [obs(range(20), False)], Settings()) == ()


# ---------------------------------------------------------------------------
# The threshold posterior and the scopes


def test_prefix_counts_keep_exact_prefixes_of_the_chain_only() -> None:
    chain = (2, 0, 1, 3)
    t = tally([obs({2, 0}, True, 3), obs({0}, False, 5), obs(set(), False, 2), obs({2, 0, 1, 3}, True)])
    fails, runs = prefix_counts(chain, t)
    assert runs == [2, 0, 3, 0, 1] and fails == [0, 0, 3, 0, 1]  # {0} alone is not a prefix


def test_prefix_counts_agree_with_the_highest_position_rule_on_random_lists() -> None:
    """prefix_counts stops reading a list at its first test placed past its length; the counts are
    those of the plain rule (a list of k <= m tests is a prefix when its highest chain position, m
    for a test off the chain, is k - 1), lists with tests off the chain included."""
    rng = random.Random(5)
    for _ in range(300):
        m = rng.randint(1, 12)
        chain = rng.sample(range(m + 3), m)  # three indices stay off the chain
        pos = {i: k for k, i in enumerate(chain)}
        lists = [obs(set(chain[:rng.randint(0, m)]) if rng.random() < 0.5 else set(rng.sample(range(m + 3), rng.randint(0, m))),
                     rng.random() < 0.5, rng.randint(1, 3)) for _ in range(rng.randint(1, 8))]
        t = tally(lists)
        fails, runs = [0] * (m + 1), [0] * (m + 1)
        for s_, f, r in zip(t.sets, t.fails, t.runs):
            k = len(s_)
            if k and max(pos.get(i, m) for i in s_) != k - 1:
                continue
            fails[k] += f
            runs[k] += r
        assert prefix_counts(chain, t) == (fails, runs), (chain, t)


def test_threshold_posterior_finds_where_deterministic_lists_start_to_fail() -> None:
    pb = make_problem(8, (0.1,) * 8, 0.1, 1.0)
    chain = cost_chain(pb)
    assert chain == tuple(range(8))  # equal durations: recorded order
    history = [obs(range(8), True, 2), obs(range(4), True, 2), obs(range(2), False, 3),
               obs(range(3), False, 3), obs(set(), False, 3)]
    th = infer(chain, tally(history), Settings(), 0.4)
    j, mass = th.leader()
    assert j == 3 and mass > 0.9  # chain[3] completes the first cause
    assert th.beyond < 0.01


@pytest.mark.parametrize("test_id,cls,mod", [
    ("pkg.tests.test_x.XdgTest.test_home", "pkg.tests.test_x.XdgTest", "pkg.tests.test_x"),
    ("pkg.t.test_f.FormatTest.test_render(json.v2)", "pkg.t.test_f.FormatTest", "pkg.t.test_f"),
    ("tests/test_a.py::TestX::test_y[1.5]", "tests/test_a.py::TestX", "tests/test_a.py"),
    ("tests/test_a.py::test_y", None, "tests/test_a.py"),
    ("test_y", None, None),
    ("import:pkg.tests.test_semicolon_export", None, None),  # a module's import: no class 'import:pkg.tests'
])
def test_scopes_read_class_and_module_from_the_id(test_id: str, cls: str | None, mod: str | None) -> None:
    assert class_of(test_id) == cls and module_of(test_id) == mod
    # the smallest scope that pollutes as a whole: a pytest function outside a class has its file
    assert nearest_scope(test_id) == (cls or (mod if "::" in test_id else None))


def test_simulated_multi_scenarios_are_right_on_a_few_seeds() -> None:
    for name in ("multi k=3 p=1", "multi k=2 p=0.5+0.1", "class p=0.5"):
        for seed in range(2):
            rng = random.Random(f"{name}|{seed}")
            t = trial(scenario(name, 50, rng), Settings(further=0.2), rng)  # weaker causes too
            assert t.correct and t.confidence >= 0.99, (name, seed, t)


def test_beside_other_causes_a_causes_counts_say_they_leave_the_others_out() -> None:
    """QA: "fails 3/3 with B before it, 0/11 without" of a cause whose 4 runs all failed (one beside
    cause A): the counts are of runs without the other causes, and "without" was of no cause."""
    s = scenario("multi k=2 p=1", 50, random.Random(3))
    v, _, _ = hunt(s, Settings(), random.Random(3))
    assert v.kind == "polluter" and len(v.causes) == 2, v
    for cause in v.causes:
        assert re.fullmatch(r"fails \d+/\d+ with .+ before it and no other cause, \d+/\d+ with no cause",
                            cause.evidence[0]), cause.evidence
    one = suite(25, [({3}, 1.0)])
    (single,) = hunt(one, Settings(), random.Random(1))[0].causes
    assert re.fullmatch(r"fails \d+/\d+ with .+ before it, \d+/\d+ without", single.evidence[0]), single.evidence


def test_once_a_cause_is_found_the_lists_leave_it_out() -> None:
    s = suite(25, [({3}, 1.0), ({17}, 1.0)])  # durations grow with the index: 3 is found first
    history: list[Observation] = []
    rng = random.Random(7)
    steps: list[Query] = []
    while True:
        step = decide(s.problem, history, Settings())
        if isinstance(step, Verdict):
            break
        steps.append(step)
        history.extend(simulate_query(s, step, rng))
    assert step.culprits == (3, 17)
    first = next(i for i, q in enumerate(steps) if q.included == (3,))  # confirmed alone
    later = [q for q in steps[first + 1:] if len(q.included) > 1]
    assert later and all(3 not in q.included for q in later)


def test_a_module_import_candidate_is_reported_as_a_module_cause() -> None:
    pb = Problem(("import:pkg.tests.test_a", "import:pkg.tests.test_b", "import:pkg.tests.test_c"),
                 "pkg.tests.test_v.V.test_v", (0.01,) * 3, 0.01, 0.5)
    s = Suite(pb, Truth((Cause(frozenset({1}), 1.0),), 0.0, frozenset({1})))
    v, _, _ = hunt(s, Settings(), random.Random(0))
    assert [(c.scope, c.name, c.tests) for c in v.causes] == [("module", "pkg.tests.test_b", (1,))]


def test_runs_of_the_cause_alone_shorten_the_check_for_further_causes() -> None:
    # A deterministic cause of 0.01 s before a rest of 59 one-second tests: seen failing 6/6, it
    # leaves rates near 0.6 open (under the hunt's prior, P(it always fails) = 0.2, it is 0.53
    # likely to always fail) and the rest would have to pass 2 runs; 12 more runs of the cause
    # alone make it 18/18 (0.65 likely to always fail), and 1 pass of the rest does.
    pb = make_problem(60, tuple(0.01 if i == 40 else 1.0 for i in range(60)), 0.1, 0.1)
    s = Suite(pb, Truth((Cause(frozenset({40}), 1.0),), 0.0, frozenset({40})))
    rest = frozenset(range(60)) - {40}
    v, history, _ = hunt(s, Settings(), random.Random(0))
    assert v.kind == "polluter" and v.culprits == (40,)
    assert sum(o.count for o in history if o.included == {40}) == 3 + 12  # confirmation, then 12 more
    assert sum(o.count for o in history if o.included == rest) == 1
    always_prior = Settings().rates.deterministic
    assert check_runs(6, 6, 1.0, 0.99, 1e-3, always_prior) == 2 and check_runs(18, 18, 1.0, 0.99, 1e-3, always_prior) == 1
    # Jeffreys' prior alone (no weight on "always"), the check before 2026-11-25, asked for more
    assert check_runs(6, 6, 1.0, 0.99, 1e-3) == 3 and check_runs(14, 14, 1.0, 0.99, 1e-3) == 2
    # 17, not 18: the hunt opened with the quickest half (the cause among them), not the whole list
    assert f"as often as {pb.predecessors[40]} (17/17 with it) would have shown (confidence 0.99" in v.stop
    # --further 0 asks for nothing of the kind
    v0, history0, _ = hunt(s, Settings(further=0.0), random.Random(0))
    assert v0.culprits == (40,) and not any(o.included == rest for o in history0)


@pytest.mark.parametrize("fails, runs, further", [(3, 3, 1.0), (17, 36, 1.0), (17, 36, 0.5), (2, 9, 0.2), (5, 5, 0.999)])
def test_the_chance_a_further_cause_passes_averages_over_what_the_runs_say_of_the_rate(
        fails: int, runs: int, further: float) -> None:
    """missed() is (1 - further x p)^k averaged over Beta(fails + 1/2, runs - fails + 1/2): checked
    against sampling that posterior, and check_runs() is the first k where it is 0.01 or less."""
    rng = random.Random(7)
    draws = [rng.betavariate(fails + 0.5, runs - fails + 0.5) for _ in range(40_000)]
    for k in (1, 3, 9, 25):
        sampled = sum((1 - further * p) ** k for p in draws) / len(draws)
        assert missed(fails, runs, k, further, 0.0) == pytest.approx(sampled, rel=0.05, abs=1e-4)
    k = check_runs(fails, runs, further, 0.99, 1e-3)
    assert missed(fails, runs, k, further, 1e-3) <= 0.01 < missed(fails, runs, k - 1, further, 1e-3)
    # never more than a rate of p_min needs
    assert check_runs(0.5, 300, further, 0.99, 1e-3) == 4603


@pytest.mark.parametrize("fails, runs, further", [(1, 1, 1.0), (3, 3, 1.0), (6, 6, 1.0), (6, 6, 0.5), (17, 18, 1.0)])
def test_the_check_reads_a_cause_s_rate_under_the_hunt_s_prior_on_always_failing(
        fails: int, runs: int, further: float) -> None:
    """With weight w on "the cause always fails" (p = 1) and Jeffreys' Beta(1/2, 1/2) on the other
    rates, missed() is (1 - further x p)^k averaged over the posterior: checked by weighting draws
    from that prior by their likelihood, p^fails (1 - p)^(runs - fails). A run that passed rules
    p = 1 out, and the check is then the Beta one."""
    w = 0.2
    rng = random.Random(11)
    draws = [1.0 if rng.random() < w else rng.betavariate(0.5, 0.5) for _ in range(200_000)]
    weights = [p ** fails * (1 - p) ** (runs - fails) for p in draws]
    total = sum(weights)
    posterior_always = sum(x for p, x in zip(draws, weights) if p == 1.0) / total
    assert always(fails, runs, w) == pytest.approx(posterior_always, abs=0.01)
    for k in (1, 2, 4, 9):
        sampled = sum(x * (1 - further * p) ** k for p, x in zip(draws, weights)) / total
        assert missed(fails, runs, k, further, 0.0, w) == pytest.approx(sampled, rel=0.08, abs=2e-4)
    if fails < runs:
        assert always(fails, runs, w) == 0.0
        assert missed(fails, runs, 3, further, 0.0, w) == missed(fails, runs, 3, further, 0.0)
    else:  # a streak is more likely a cause that always fails: the check asks for fewer passes, never more
        assert check_runs(fails, runs, further, 0.99, 1e-3, w) <= check_runs(fails, runs, further, 0.99, 1e-3)


def test_stored_runs_of_other_orders_do_not_skip_reproducing_the_whole_list() -> None:
    """Failures only in lists that are no prefix of the chain (stored runs of random partitions)
    give the chain no failing prefix: the hunt reproduces with the whole list first, as without
    them, instead of running the victim alone under the name "full list" or prefixes expected to
    fail at the background rate. Once the whole list failed, the chain search goes on."""
    s = suite(30, [({7}, 0.3)])
    chain = cost_chain(s.problem)
    rng = random.Random(3)
    stored = []
    for _ in range(40):  # random subsets holding the polluter or not, never a prefix of the chain
        sub = {i for i in range(30) if rng.random() < 0.5} | {chain[-1]}
        sub.discard(chain[0])
        stored.append(obs(sub, 7 in sub and rng.random() < 0.3))
    assert any(o.failed for o in stored) and not any(prefix_counts(chain, tally(stored))[0])
    first = decide(s.problem, stored)
    assert isinstance(first, Query) and first.included == tuple(range(30)) and first.reason.startswith("full list")
    after = decide(s.problem, stored + [obs(range(30), True)])
    assert isinstance(after, Query) and after.included != tuple(range(30)) and after.included != ()


def test_a_budget_that_ends_after_the_victim_failed_alone_says_fails_alone() -> None:
    """The victim failed alone, so no earlier test is needed: when the budget ends before "no
    earlier test raises its rate" is settled, the verdict is fails-alone at the probability
    reached (below the target), with a stop line that says what is open; without a failure alone,
    or with a test leading, it stays undecided."""
    told: list[int] = []
    for seed in range(30):  # about 1 hunt in 6 ends that way
        if len(told) == 3:
            break
        s = scenario("none q=0.05", 50, random.Random(seed))
        v, history, _ = hunt(s, Settings(max_runs=60), random.Random(seed))
        assert sum(o.count for o in history) <= 60
        if not any(o.failed for o in history):  # 0.95^60: no run failed
            assert v.kind == "not-reproduced" and v.stop.startswith("the budget ran out"), v
            continue
        if v.kind == "fails-alone" and v.confidence < 0.99:
            alone = [o for o in history if not o.included]
            assert any(o.failed for o in alone)
            assert v.stop.startswith("the victim fails on its own (") and v.stop.endswith("the budget ran out")
            assert f"(probability {v.confidence:.3f})" in v.stop
            told.append(seed)
        else:
            assert v.kind in ("fails-alone", "undecided"), v
            assert v.kind == "undecided" or v.confidence >= 0.99
    assert len(told) >= 3, told
    # a polluter on top of the background leads, or the victim never failed alone: undecided
    for seed in range(4):
        s = scenario("single p=0.2 q=0.01", 50, random.Random(seed))
        v, history, _ = hunt(s, Settings(max_runs=60), random.Random(seed))
        failed_alone = any(o.failed and not o.included for o in history)
        assert v.kind == "undecided" or (v.kind == "fails-alone" and failed_alone), v


def test_a_module_of_causes_takes_fewer_runs_than_a_scan_and_a_whole_class_one_stop_check() -> None:
    """A module whose every test is a cause (import-time state): each test must be shown a cause
    alone, yet the hunt beats the one-by-one scan (N runs) because what the class or module has
    shown is each next test's prior and the rest is probed together. A class all of whose tests
    are causes is one cause for the stop check: its rate is read from every run that held one of
    them, so the check rules out a further cause at that pooled rate and stays short (a member
    seen failing 2/2 alone would leave the rest 6 runs to pass)."""
    for seed in range(4):
        s = scenario("module p=1", 50, random.Random(seed))
        v, history, _ = hunt(s, Settings(), random.Random(seed))
        assert v.kind == "polluter" and set(v.culprits) == s.truth.answer
        assert [c.scope for c in v.causes] == ["module"]
        assert sum(o.count for o in history) < 50
        c = scenario("class p=1", 300, random.Random(seed))
        w, _, _ = hunt(c, Settings(), random.Random(seed))
        assert set(w.culprits) == c.truth.answer and [x.scope for x in w.causes] == ["class"]
        # the class's rate is read from every run that held one of its tests: many runs, so the
        # check needs few passes of the rest
        assert f"as often as any test of class {w.causes[0].name} (" in w.stop, w.stop
        fails, runs = map(int, w.stop.split(f"{w.causes[0].name} (")[1].split()[0].split("/"))
        assert runs >= 12 and check_runs(fails, runs, 1.0, 0.99, 1e-3) <= 2, w.stop


def test_the_posterior_check_never_asks_for_more_passes_than_the_95_percent_bound_did() -> None:
    """Before 2026-11-23 the check asked for 0.99 at the cause's Wilson lower bound (one-sided 95%),
    capped by its Jeffreys mean. Averaging over the posterior asks for no more passes for any
    counts up to 60 runs, and for fewer after short streaks (3/3: 4 passes, not 7)."""
    def wilson_low(f: int, n: int, z: float = 1.645) -> float:
        p, z2 = f / n, z * z
        centre, spread = p + z2 / (2 * n), z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
        return max(0.0, (centre - spread) / (1 + z2 / n))

    fewer = 0
    for n in range(1, 61):
        for f in range(1, n + 1):
            for further in (1.0, 0.5, 0.2):
                old = runs_for(0.99, max(1e-3, min((f + 0.5) / (n + 1), wilson_low(f, n)) * further))
                new = check_runs(f, n, further, 0.99, 1e-3)
                assert new <= old, (f, n, further, old, new)
                fewer += new < old
    assert fewer > 1000
    assert runs_for(0.99, wilson_low(3, 3)) == 7 and check_runs(3, 3, 1.0, 0.99, 1e-3) == 4


def test_other_tests_passing_alone_show_the_background_a_cause_alone_is_weighed_against() -> None:
    # Test 5 failed the victim 2/2 alone before it; the victim alone passed 3/3.  Against those
    # three runs alone that is not yet a cause at 0.99.  Four other tests that passed alone before
    # the victim are four more runs of its own rate, and with them 2/2 is.  A test that failed
    # alone is not counted as the background (nor are runs of 5 itself).
    pb = make_problem(8, tuple(0.1 for _ in range(8)), 0.1, 1.0)
    first = [obs(range(8), True), obs(set(), False, 3), obs({5}, True, 2)]
    passes = [obs({i}, False) for i in (0, 1, 2, 3)]
    assert _shown_alone(pb, tally(first), Settings()) is None
    tests, rate, confidence = _shown_alone(pb, tally(first + passes), Settings()) or ((), 0.0, 0.0)
    assert tests == (5,) and confidence >= 0.99 and rate > 0.5
    assert _shown_alone(pb, tally(first + [obs({6}, True), obs({6}, False, 3)]), Settings()) is None


def test_stored_runs_that_passed_without_a_test_are_runs_of_the_victims_own_rate() -> None:
    # As above, test 5 failed 2/2 alone and the victim alone passed 3/3: not yet 0.99. Stored runs
    # in other orders that passed without test 5 are runs of the victim's own rate too (a cause
    # only adds failures), so with them 2/2 is; stored runs holding 5, or failing without it
    # (another cause's, perhaps), are not. A hunt whose runs repeat the victim leaves them out
    # (a stored run executed it once) and reads this through its rates per execution instead.
    pb = make_problem(8, tuple(0.1 for _ in range(8)), 0.1, 1.0)
    first = [obs(range(8), True), obs(set(), False, 3), obs({5}, True, 2)]

    def stored(included: set[int], failed: bool, count: int) -> Observation:
        return Observation(frozenset(included), failed, 0.0, count, stored=True)

    without = [stored({0, 1, 2}, False, 4)]
    useless = [stored({0, 5}, False, 20), stored({1, 2}, True, 20)]
    new = tally(first)
    assert _shown_alone(pb, new, Settings(), tally(useless)) is None
    tests, rate, confidence = _shown_alone(pb, new, Settings(), tally(without + useless)) or ((), 0.0, 0.0)
    assert tests == (5,) and confidence >= 0.99 and rate > 0.5
    # through decide(): with them, 5 is a cause and the next round probes its classmates
    step = decide(pb, first + without + useless)
    assert isinstance(step, Query) and step.reason.startswith("do the other 7 tests of"), step
    assert 5 not in step.included
    before = decide(pb, first + useless)
    assert not (isinstance(before, Query) and before.reason.startswith("do the other")), before


def _k_fold(included: Iterable[int], reproduced: int, k: int = 10, executions: int = 0) -> Observation:
    """A run of `executions` (or `k`) executions of the victim, `reproduced` of them reproducing
    the failure, judged on its first `k` (failed when the first reproduction is among them)."""
    every = executions or k
    first = reproduced > every - k  # the reproductions are taken to be the last executions
    return Observation(frozenset(included), first, 1.0, executions=every, reproductions=reproduced)


def _hunt_until_stop(cause_runs: list[int], alone: int = 0, batch: int = 1,
                     rest: Callable[[int], int] = lambda executions: 0,
                     run_seconds: float | None = None, victim: float = 0.02) -> tuple[Verdict, list[Query]]:
    """decide() on a K-fold hunt (10 executions a run) of 12 predecessors whose cause is test 3,
    seen in `cause_runs` runs of it alone (each its reproductions), the victim alone reproducing in
    `alone` of its first executions and never later; each list run reproduces in 5 executions when
    it holds test 3, and in `rest(executions)` otherwise. The verdict and every query that ran the
    rest. The victim takes `victim` seconds (quick by default)."""
    pb = make_problem(12, tuple(0.1 + 0.01 * i for i in range(12)), victim, 1.0)
    hist = [_k_fold((), alone), _k_fold((), 0), _k_fold((), 0), _k_fold((), 0),
            _k_fold(range(12), 5), _k_fold({0, 1, 2}, 0), _k_fold({0, 1, 2, 3}, 4)]
    hist += [_k_fold({3}, r) for r in cause_runs]
    asked = []
    for _ in range(40):
        step = decide(pb, hist, Settings(executions=10, run_seconds=run_seconds), batch=batch)
        if isinstance(step, Verdict):
            return step, asked
        if step.included == tuple(i for i in range(12) if i != 3):
            asked.append(step)
        for included, runs in step.lists():
            every = max(10, step.executions)
            hist += [_k_fold(included, 5 if 3 in included else rest(every) if included else 0, 10, every)] * runs
    raise AssertionError("no verdict")


def test_the_stop_check_runs_the_victim_many_times_after_the_rest_once_a_cause_shows_its_rate_per_execution() -> None:
    """With K-fold runs whose executions show the cause's rate per execution (20/40 alone) and a
    victim that never reproduced alone, the stop check asks for one run of the rest with as many
    executions of the victim after it as rule out a further cause failing an execution 0.2x as
    often (0.1 or so): dozens of executions, one start-up, where runs of 10 would take several."""
    verdict, asked = _hunt_until_stop([5, 5, 4, 6])
    assert verdict.kind == "polluter" and verdict.culprits == (3,)
    [check] = asked
    assert check.runs == 1 and check.executions > 30 and not check.until_failure
    assert check.executions == check_runs(29, 60, REACH, 0.99, 1e-3, Settings().rates.deterministic)
    assert (f"no further cause: {check.executions} executions of the victim after the 11 other predecessors (1 run)"
            " all passed, so a cause failing an execution 0.2x as often as") in verdict.stop
    assert "(29/60 of the executions after it)" in verdict.stop
    # the cause's rate per execution, beside its rate per run of 10 (and in its last evidence line)
    [cause] = verdict.causes
    assert cause.per_execution == pytest.approx(29.5 / 61) and cause.per_execution < cause.rate
    assert cause.evidence[-1].startswith(f"rate {cause.rate:.3g} (0.48 per execution), confidence")
    # two places: two runs at once, each half of the executions
    verdict2, asked2 = _hunt_until_stop([5, 5, 4, 6], batch=2)
    assert verdict2.kind == "polluter" and asked2[0].runs == 2
    assert asked2[0].executions == max(10, -(-check.executions // 2))
    # a run may take 3.2 s (the hunt's timeout, halved), and one of the rest takes 2.8 s: the
    # executions (0.02 s each) are shared over runs that stay under it
    pb = make_problem(12, tuple(0.1 + 0.01 * i for i in range(12)), 0.02, 1.0)
    rest_run = run_cost(pb, tuple(i for i in range(12) if i != 3))
    verdict3, asked3 = _hunt_until_stop([5, 5, 4, 6], run_seconds=3.2)
    assert verdict3.kind == "polluter" and asked3[0].runs > 1
    assert rest_run + (asked3[0].executions - 10) * 0.02 <= 3.2 < rest_run + (check.executions - 10) * 0.02
    assert asked3[0].runs * asked3[0].executions >= check.executions


def test_a_reproduction_in_a_later_execution_after_the_rest_means_a_further_cause() -> None:
    """The victim alone never reproduced: a reproduction among the extra executions after the rest
    is a further cause the first K missed, so the rest runs K-fold until a run fails on its first
    K (the next round then looks for the cause there), not a "no further cause" verdict."""
    verdict, asked = _hunt_until_stop([5, 5, 4, 6], rest=lambda executions: 1 if executions > 10 else 0)
    assert asked[0].executions > 10
    assert asked[1].executions == 0 and asked[1].until_failure and "until a run does" in asked[1].reason
    assert verdict.kind != "polluter" or "more may remain" in verdict.stop
    # runs of many executions shared over several (a short timeout) are no K-fold runs of the chase:
    # every execution after the first 10 reproduced, and the chase still runs the rest K-fold
    verdict, asked = _hunt_until_stop([5, 5, 4, 6], rest=lambda executions: executions - 10, run_seconds=3.2)
    assert asked[0].runs > 1 and asked[0].executions > 10
    assert asked[1].executions == 0 and asked[1].until_failure and "until a run does" in asked[1].reason


def test_a_reproduction_after_the_rest_first_runs_the_victim_alone_as_many_times() -> None:
    """The victim alone passed its 40 executions, but a rate of 0.01 would often pass them: when
    executions after the rest reproduce, the victim alone first runs as many; should it reproduce
    too (its own rate), the check falls back to runs of the rest (no more executions after it)."""
    pb = make_problem(12, tuple(0.1 + 0.01 * i for i in range(12)), 0.02, 1.0)
    rest = tuple(i for i in range(12) if i != 3)
    hist = [_k_fold((), 0)] * 4 + [_k_fold(range(12), 5), _k_fold({0, 1, 2}, 0), _k_fold({0, 1, 2, 3}, 4)]
    hist += [_k_fold({3}, r) for r in [5, 5, 4, 6]] + [_k_fold({0, 1, 2, 4, 5, 6, 7}, 0)]  # its classmates
    hist += [_k_fold(rest, 1, 10, 48)]  # the rest: one of its 38 later executions reproduced
    step = decide(pb, hist, Settings(executions=10))
    assert isinstance(step, Query) and step.included == () and step.executions == 48 and "alone 48 times" in step.reason
    quiet = decide(pb, hist + [_k_fold((), 0, 10, 48)], Settings(executions=10))
    assert isinstance(quiet, Query) and quiet.included == rest and quiet.until_failure and quiet.executions == 0
    assert quiet.runs == _chase_runs(1, 48, 10, 0.99) == 99  # (at the rate's estimate, 1.5/49: 15)
    loud = decide(pb, hist + [_k_fold((), 1, 10, 48)], Settings(executions=10))
    assert not (isinstance(loud, Query) and loud.executions > 10)


@pytest.mark.parametrize("cause_runs, alone", [([10, 0, 10, 0], 0), ([5, 5, 4, 6], 1)])
def test_the_stop_check_counts_runs_when_executions_are_no_independent_samples(cause_runs: list[int],
                                                                               alone: int) -> None:
    """Per run, as before, when the cause's runs pass whole far more often than independent
    executions at its rate allow (all or none of 10: a cause drawn once per process), or when the
    victim alone reproduced the failure (a reproduction after the rest could be its background)."""
    verdict, asked = _hunt_until_stop(cause_runs, alone=alone)
    assert verdict.kind == "polluter" and all(q.executions == 0 for q in asked) and len(asked) >= 1
    assert "executions of the victim after" not in verdict.stop


def test_the_check_in_executions_reaches_the_weakest_cause_or_a_fifth_of_the_strongest() -> None:
    """How strong a further cause the stop check in executions rules out, as a multiple of each
    cause's rate per execution: one cause, a fifth of it (0.1 of the executions at most); causes at 0.5 and 0.09, the weak one's
    rate (not a fifth of it: five times the executions for a cause weaker than any seen); causes
    at 0.5 and 0.3, a fifth of the strong one; x --further."""
    def cause(test: int, reproduced: int) -> Found:  # its rate per execution: (reproduced + 1/2) / 201
        return Found((test,), 0.9, 0.99, 1, 1, alone=Executions(20, 0, 200, reproduced))

    strong, weak, middle = cause(1, 100), cause(2, 18), cause(3, 60)
    assert reaches([strong], 1.0) == {strong: REACH}
    reach = reaches([strong, weak], 1.0)
    assert reach[weak] == 1.0 and reach[strong] == pytest.approx(18.5 / 100.5)
    reach = reaches([strong, middle], 0.5)
    assert reach[strong] == pytest.approx(0.5 * REACH) and reach[middle] == pytest.approx(0.5 * REACH * 100.5 / 60.5)
    # a cause failing every execution: not a fifth of it (a third cause at 0.1 would pass the
    # check one time in ten) but REACH_MOST, beside it or alone
    always_fails = cause(4, 200)
    assert reaches([always_fails], 1.0)[always_fails] == pytest.approx(REACH_MOST * 201 / 200.5)
    reach = reaches([always_fails, strong], 1.0)
    assert reach[strong] == pytest.approx(REACH_MOST * 201 / 100.5)


def test_the_stop_check_runs_in_executions_only_where_they_cost_less_than_runs_of_the_rest() -> None:
    """A cause seen in 29 of its 60 executions is ruled out, and a fifth of it, by 48 executions:
    one run of the rest (2.8 s) and 38 more victims (0.05 s each), cheaper than the 2 runs the
    per-run check asks. One seen in 2 of 20 (a false one drawn from a background is like that)
    leaves weak causes open: 517 executions, dearer than its per-run check's 5 runs, which it keeps."""
    pb = make_problem(12, tuple(0.1 + 0.01 * i for i in range(12)), 0.05, 1.0)
    strong = Found((3,), 0.9, 0.99, 6, 6, alone=Executions(6, 0, 60, 29))
    weak = Found((3,), 0.7, 0.99, 2, 2, alone=Executions(2, 0, 20, 2))
    sub = without(pb, (3,))
    settings = Settings(executions=10)
    assert executions_pay(sub, (), settings, [strong], 1.0)
    assert not executions_pay(sub, (), settings, [weak], 1.0)
    begun = (Observation(frozenset(range(11)), False, 1.0, executions=200),)  # once begun, it goes on
    assert executions_pay(sub, begun, settings, [weak], 1.0)


def test_the_per_run_stop_check_of_k_fold_runs_promises_what_the_check_in_executions_would() -> None:
    """A slow victim (0.5 s, a run of the rest 2.8 s) makes the check in executions dearer than
    runs of the rest, so the per-run check stays. A cause seen in 20/40 executions is 0.999 of
    its runs of 10, and two passes of the rest ruled out another as strong per run; a further
    cause failing 0.1 of the executions (0.65 of the runs) passes both one time in eight. The
    check now rules that one out too, as the check in executions would have: 5 passes (before, 2)."""
    verdict, asked = _hunt_until_stop([5, 5, 4, 6], victim=0.5)
    assert verdict.kind == "polluter" and verdict.culprits == (3,)
    assert all(q.executions == 0 for q in asked)  # runs of the rest, no extra executions
    assert sum(q.runs for q in asked) == runs_for(0.99, 1 - 0.9 ** 10) == 5
    # their 50 executions are what the check in executions needs: the verdict says so
    assert verdict.stop.startswith("no further cause: 50 executions of the victim after the 11 other predecessors"
                                   " (5 runs) all passed"), verdict.stop
    # a cause at 0.2 per execution (8/40): the check in executions would rule out a fifth of it
    # (115 executions); the per-run check's 5 passes rule out 0.1, and its verdict says so
    verdict, asked = _hunt_until_stop([2, 2, 2, 2], victim=0.5)
    assert verdict.kind == "polluter" and verdict.culprits == (3,) and sum(q.runs for q in asked) == 5
    assert verdict.stop.startswith("no further cause: the 11 other predecessors passed 5/5 runs, so a cause failing the"
                                   " victim 0.651 of the time or more (in runs of 10 executions, as a cause failing 0.1"
                                   " of the executions does) would have shown"), verdict.stop
    # one cause at 0.05 per execution: as strong per execution as it (not 0.1)
    weak = Found((3,), 0.4, 0.99, 4, 10, alone=Executions(10, 6, 100, 5))
    assert run_floor([weak], Settings(executions=10)) == pytest.approx(1 - (1 - 5.5 / 101) ** 10)
    strong = Found((3,), 0.99, 0.99, 4, 4, alone=Executions(4, 0, 40, 20))
    assert run_floor([strong, weak], Settings(executions=10)) == pytest.approx(1 - (1 - 5.5 / 101) ** 10)
    assert run_floor([strong], Settings(executions=10, further=0.5)) == pytest.approx((1 - 0.95 ** 10) / 0.5)


def test_the_chase_runs_the_rest_as_long_as_the_whole_rate_of_its_executions_asks() -> None:
    """Executions after the rest reproduced; runs of the rest until one fails, as many as fail at
    least once with the target confidence averaged over what the executions say of the rate (not
    at its estimate: 5/10 read as 0.5 asked for 7 single runs, which a cause at 0.45 passes 1.5%
    of the time, and the hunt then named one cause of three)."""
    assert _chase_runs(5, 10, 1, 0.99) == 10 > runs_for(0.99, 5.5 / 11)
    assert _chase_runs(12, 46, 10, 0.99) == 2 and _chase_runs(7, 47, 10, 0.99) == 4
    assert _chase_runs(1, 10, 1, 0.99) > _chase_runs(3, 10, 1, 0.99) > _chase_runs(5, 10, 1, 0.99)
    a, b = 5.5, 5.5  # the chance that 10 single runs all pass, over Beta(5.5, 5.5)
    assert math.exp(math.lgamma(a + b) + math.lgamma(b + 10) - math.lgamma(b) - math.lgamma(a + b + 10)) <= 0.01


def _hunt_beside_a_deterministic_cause(hedge: int) -> tuple[Verdict, list[Query]]:
    """decide() on single runs of 12 predecessors: test 3 fails the victim every time; test 8
    fails only executions after a run's first (every second one), so no single run shows it and
    the per-run stop check (two passes of the rest rule out another cause as strong as test 3)
    cannot. The verdict and every query, with `hedge` executions for the check's runs."""
    pb = make_problem(12, tuple(0.1 + 0.01 * i for i in range(12)), 0.02, 1.0)

    def run(included: Iterable[int], every: int) -> Observation:
        s = frozenset(included)
        later = every // 2 if 8 in s and 3 not in s and every > 1 else 0  # executions 2, 4, ...
        return Observation(s, 3 in s, 1.0, executions=every if every > 1 else 0,
                           reproductions=(every if 3 in s else later) if every > 1 else 0)

    hist = [run((), 1)] * 4 + [run(range(12), 1), run({0, 1, 2}, 1), run({0, 1, 2, 3}, 1)] + [run({3}, 1)] * 6
    asked = []
    for _ in range(60):
        step = decide(pb, hist, Settings(hedge=hedge), batch=1)
        if isinstance(step, Verdict):
            return step, asked
        asked.append(step)
        for included, runs in step.lists():
            hist += [run(included, max(1, step.executions))] * runs
    raise AssertionError("no verdict")


def test_the_per_run_stop_check_executes_the_victim_again_beside_a_deterministic_cause() -> None:
    """While the runs are single, the per-run stop check's runs execute the victim `hedge` times
    (judged on the first): a later execution that reproduces runs the victim alone as many times,
    then the rest until a run fails on its first execution; here none ever does, so the hunt says
    more may remain instead of naming test 3 alone as all there is. With --repeat-victim 1 (hedge
    1) the same hunt stops on two passes of the rest."""
    rest = tuple(i for i in range(12) if i != 3)
    verdict, asked = _hunt_beside_a_deterministic_cause(10)
    assert verdict.kind == "polluter" and verdict.culprits == (3,)
    checks = [q for q in asked if q.included == rest]
    assert checks[0].executions == 10 and "without the causes found" in checks[0].reason
    assert "each executing the victim 10 times (judged on the first" in checks[0].reason
    alone = [q for q in asked if q.included == () and q.executions > 1]
    assert alone and alone[0].executions == 10 * checks[0].runs and "the victim alone" in alone[0].reason
    assert asked.index(alone[0]) > asked.index(checks[0])
    chased = [q for q in checks if "until a run does" in q.reason]
    assert chased and all(q.executions <= 1 for q in chased)  # single runs: a failure on the first execution
    assert "none in a run's first execution" in chased[0].reason
    assert verdict.stop.startswith("more may remain: executions of the victim after the 11 other predecessors"
                                   " reproduced the failure"), verdict.stop

    verdict, asked = _hunt_beside_a_deterministic_cause(1)
    assert verdict.kind == "polluter" and verdict.culprits == (3,)
    assert verdict.causes[0].per_execution is None  # single runs: a run is an execution
    assert all(q.executions <= 1 for q in asked)
    assert verdict.stop.startswith("no further cause: the 11 other predecessors passed 2/2 runs"), verdict.stop


def test_the_hedge_stays_off_once_the_victim_alone_reproduced_in_any_execution() -> None:
    """A victim whose later executions alone reproduce (it pollutes itself, or its own rate) makes
    the rest's later executions tell nothing: the per-run check goes back to single runs."""
    quiet = [Observation(frozenset(), False, 1.0, executions=10, reproductions=0)]
    assert hedging(quiet, Settings(hedge=10))
    assert not hedging(quiet, Settings(hedge=1)) and not hedging(quiet, Settings(hedge=10, executions=10))
    assert not hedging(quiet + [Observation(frozenset(), False, 1.0, executions=10, reproductions=1)],
                        Settings(hedge=10))
    assert not hedging(quiet + [Observation(frozenset(), True, 1.0)], Settings(hedge=10))
    assert hedging(quiet + [Observation(frozenset(), True, 1.0, stored=True)], Settings(hedge=10))  # stored: another order


def test_two_causes_that_each_fail_every_run_alone_are_compared_with_the_victim_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On 8 workers a wave of runs of one test alone comes back whole (8 runs): two deterministic
    causes in one failing prefix each failed 8/8 alone, and the single-cause search there weighed
    them against each other without end, since nothing ran the victim alone that `_shown_alone`
    weighs them against. The victim alone now runs to compare, and the hunt ends, right."""
    s = scenario("multi k=3 p=1", 300, random.Random("multi k=3 p=1|300|62"))
    r = repeat_trial(s, Settings(confidence=0.99, max_runs=400), random.Random("run|multi k=3 p=1|300|62|8"), AUTO_K,
                     auto=True, batch=8)
    assert r.trial.kind == "polluter" and r.trial.correct and r.trial.runs < 200, r.trial
    # the same on a class fixture: its tests are confirmed by their probes, not each by a round
    # of the chain search of its own
    reasons: list[str] = []

    def recording(*args: Any, **kwargs: Any) -> Query | Verdict:
        step = decide(*args, **kwargs)
        if isinstance(step, Query):
            reasons.append(step.reason)
        return step

    monkeypatch.setattr(simulate, "decide", recording)
    s = scenario("class p=1", 300, random.Random("class p=1|300|7"))
    r = repeat_trial(s, Settings(confidence=0.99, max_runs=400), random.Random("run|class p=1|300|7|8"), AUTO_K,
                     auto=True, batch=8)
    assert r.trial.correct
    first = next(i for i, x in enumerate(reasons) if "like another test of its class" in x)
    end = next(i for i, x in enumerate(reasons) if x.startswith("without the causes found"))
    assert first < end and not any("where do the lists start to fail" in x for x in reasons[first:end]), reasons


@pytest.mark.parametrize("seed", range(3))
def test_a_test_that_needs_any_of_several_partners_is_named_with_one_of_them(seed: int) -> None:
    """eppy: the victim fails after test_IDF when any of 89 other tests ran before it, never after
    either alone (simulated, the hunt names one such pair; the state a real hunt reached, below)."""
    rng = random.Random(seed)
    needy = rng.randrange(60)
    partners = rng.sample([i for i in range(60) if i != needy], 20)
    s = suite(60, [({needy, x}, 1.0) for x in partners])
    v, history, _ = hunt(s, Settings(max_runs=400), random.Random(seed))
    assert v.kind == "polluter", (v.kind, v.stop)
    [cause] = v.causes
    assert cause.scope == "pair" and needy in cause.tests and set(cause.tests) - {needy} <= set(partners)
    alone = {o.included: o.failed for o in history if len(o.included) == 1}
    assert all(alone.get(frozenset({t})) is False for t in cause.tests)  # each member alone passed


def test_two_failing_pairs_sharing_a_test_that_passes_alone_name_one_pair_by_intervention() -> None:
    """The state an eppy hunt ended in, undecided after 96 runs: [A, IDF] failed 17/17, [B, IDF]
    16/16, IDF alone passed 5/5; each pair list counts against the other pair, and the search went
    on weighing them. Now A alone runs, then IDF alone, until both are shown not to be enough."""
    pb = make_problem(49, tuple(0.1 + 0.001 * i for i in range(49)), 0.1, 1.0)
    a, b, idf = 3, 7, 30
    state = [obs(range(49), True, 14), obs(set(), False, 10), obs({idf}, False, 5),
             obs({a, idf}, True, 17), obs({b, idf}, True, 16), obs({a, b, idf}, True, 19)]
    step = decide(pb, state)
    assert isinstance(step, Query) and step.included == (a,) and step.reason.startswith("both needed?"), step
    step = decide(pb, state + [obs({a}, False, 25)])
    assert isinstance(step, Query) and step.included == (idf,), step
    step = decide(pb, state + [obs({a}, False, 25), obs({idf}, False, 20)])
    assert isinstance(step, Query) and a not in step.included and idf not in step.included  # the next round
    found = leading(pb, state + [obs({a}, False, 25), obs({idf}, False, 20)])[0]
    assert found.culprits == (a, idf) and found.probability >= 0.99


def _eppy_state() -> tuple[Problem, int, int, list[Observation]]:
    """Two pairs sharing one test (eppy's IDF), each failing every run; IDF alone passed 5/5."""
    pb = make_problem(49, tuple(0.1 + 0.001 * i for i in range(49)), 0.1, 1.0)
    a, b, idf = 3, 7, 30
    return pb, a, idf, [obs(range(49), True, 14), obs(set(), False, 10), obs({idf}, False, 5),
                        obs({a, idf}, True, 17), obs({b, idf}, True, 16), obs({a, b, idf}, True, 19)]


def test_a_pair_that_failed_every_one_of_many_runs_needs_fewer_runs_of_each_member_alone() -> None:
    """Each member alone must rule out failing half as often as the pair. The rate read at half of
    at most 0.5 asked 25 runs of each even after the pair failed 50 of 50; averaged over what those
    runs say of it, 11 show it as surely, and the pair is named after them."""
    pb, a, idf, state = _eppy_state()
    capped = runs_for(CONFIRM, 0.5 * MEMBER_SHARE)
    step = decide(pb, state)
    assert isinstance(step, Query) and step.included == (a,), step
    need = step.runs
    assert need == check_runs(50, 50, MEMBER_SHARE, CONFIRM, 1e-3, 0.2) < capped, (need, capped)
    state.append(obs({a}, False, need))
    step = decide(pb, state)
    assert isinstance(step, Query) and step.included == (idf,) and step.runs == need - 5, step
    state.append(obs({idf}, False, need - 5))
    found = leading(pb, state)[0]
    assert found.culprits == (a, idf) and found.probability >= 0.99


def test_a_pair_seen_in_few_or_mixed_runs_still_needs_the_capped_runs_of_each_member() -> None:
    """Where the pair's runs say little of its rate, averaging over it would ask more runs than the
    rate capped at 0.5 and halved: the fewer of the two is asked, as before."""
    capped = runs_for(CONFIRM, 0.5 * MEMBER_SHARE)
    assert _member_need(0.5, 3, 6, Settings()) == capped < check_runs(3, 6, MEMBER_SHARE, CONFIRM, 1e-3, 0.2)
    assert _member_need(0.3, 3, 10, Settings()) == runs_for(CONFIRM, 0.3 * MEMBER_SHARE)
    assert _member_need(1.0, 20, 20, Settings()) < capped


def test_on_several_workers_the_classmates_of_both_members_of_a_pair_are_probed_in_one_wave() -> None:
    """Once a pair is named, the other tests of each member's class are tried alone before the
    victim. One worker asks one class, then the other; with W at once both share one wave."""
    pb, a, idf, state = _eppy_state()
    state += [obs({a}, False, 25), obs({idf}, False, 20)]
    one = decide(pb, state, Settings(), batch=1)
    assert isinstance(one, Query) and one.alongside == () and one.included == (0, 1, 2), one
    four = decide(pb, state, Settings(), batch=4)
    assert isinstance(four, Query) and four.lists() == (((0, 1, 2), 2), ((28, 29, 31, 32), 2)), four
    assert four.reason.startswith("2 lists at once: do the other 3 tests of") and "each alone" in four.reason


@pytest.mark.parametrize("batch", [2, 3])
def test_a_query_reason_gives_no_count_of_runs_of_its_own(batch: int) -> None:
    """With 2 runs at once the progress read 'up to 26 runs — both needed? ... alone should not be
    enough (up to 25 runs)', and 26 ran: the reason gave the runs wanted, not the query's (rounded
    to the batch); then (QA) 'up to 4 runs — ... (up to 3 runs)', a wave running more beside the
    list. The progress line says how many; the reason no longer does."""
    rng = random.Random(0)
    pb = make_problem(20, tuple(0.1 for _ in range(20)), 0.1, 0.5)
    suite = Suite(pb, Truth((Cause(frozenset({4, 11}), 1.0),), 0.0, frozenset({4, 11})))
    obs: list[Observation] = []
    said = 0
    while not isinstance(step := decide(pb, obs, Settings(), batch=batch), Verdict):
        assert not re.search(r"\(up to \d+ runs?\)", step.reason), step.reason
        said += "both needed?" in step.reason
        obs.extend(simulate.simulate_batch(suite, step, rng, batch)[0])
    assert step.culprits == (4, 11) and said >= 1


def test_the_stop_check_names_one_other_predecessor_in_the_singular() -> None:
    """Two predecessors, the first a cause: the rest is one test ("do the other 1 predecessors"
    was what the stop check said)."""
    s = suite(2, [({0}, 1.0)])
    v, _, _ = hunt(s, Settings(), random.Random(1))
    assert v.kind == "polluter" and v.culprits == (0,)
    assert "no further cause: the other predecessor passed" in v.stop, v.stop


def test_a_weak_polluter_is_ruled_out_by_runs_under_weak_polluters_not_by_the_prior() -> None:
    """QA (a pytest race made likelier by a leaked setting: 0.2 alone, 0.5 after the polluter): 6
    of 11 hunts said "fails on its own" at 0.99 on evidence like this, 2/10 alone and 0/6 with
    the polluter. The default prior holds a polluter within 10x of the background 10 times less
    likely, so the claim says so; --weak-polluters weighs it evenly and asks for more runs."""
    from isolate.search.posterior import WEAK_POLLUTERS
    names = tuple(f"t.T.test_{i}" for i in range(6))
    problem = Problem(names, "t.T.test_victim", (0.01,) * 6, 0.01, 0.01)
    observations = ([Observation(frozenset(), i < 2, 0.02) for i in range(10)]
                    + [Observation(frozenset({1, 2, 3, 4}), False, 0.05), Observation(frozenset({1, 2}), False, 0.03)]
                    + [Observation(frozenset(range(6)), False, 0.07)] * 4)
    default = decide(problem, observations, Settings())
    assert isinstance(default, Verdict) and default.kind == "fails-alone", default
    assert "--weak-polluters weighs it evenly" in default.stop, default.stop
    weak = decide(problem, observations, Settings(rates=WEAK_POLLUTERS))
    assert isinstance(weak, Query), weak  # not settled: more runs before any claim


def test_after_a_cause_the_leaders_name_no_fails_on_its_own() -> None:
    """Once a cause is confirmed, a round's empty answer is "no further cause"; progress printed it
    as "fails alone 0.97" beside the cause at 0.99 (QA), and the report's chart drew it as "fails on
    its own". Before any cause, the empty answer is still the rival of the tests."""
    rng = random.Random(3)
    pb = make_problem(12, tuple(0.1 for _ in range(12)), 0.1, 0.5)
    suite = Suite(pb, Truth((Cause(frozenset({4}), 1.0),), 0.2, frozenset({4})))
    obs: list[Observation] = []
    seen_alone_before = False
    while not isinstance(step := decide(pb, obs, Settings()), Verdict):
        top = leading(pb, obs, Settings())
        if top and top[0].culprits == (4,) and top[0].probability >= 0.99:
            assert all(a.culprits for a in top), top
        seen_alone_before |= any(not a.culprits for a in top)
        obs.extend(simulate.simulate_batch(suite, step, rng, 1)[0])
    assert step.culprits == (4,), step
    assert all(a.culprits for a in leading(pb, obs, Settings())), leading(pb, obs, Settings())
    assert seen_alone_before  # the rival is there while no cause is confirmed


def test_the_leaders_follow_the_runs_of_subsets_not_only_of_prefixes() -> None:
    """QA: "leading: test_zero_discount 0.59" stood for 230 runs while the search, inside the
    leading prefix, ran subsets: test_zero_discount's passed 7/7 and test_full_promo's failed.
    The chain's posterior reads prefixes only; the leaders shown now read every run."""
    n = 8
    problem = Problem(tuple(f"m.T.test_{i}" for i in range(n)), "m.T.test_v", (0.1,) * n, 0.1, 0.1)
    prefixes = [Observation(frozenset(range(n)), True, 1.0, count=3), Observation(frozenset(range(n)), False, 1.0, count=3),
                Observation(frozenset(range(6)), True, 1.0, count=2), Observation(frozenset(range(6)), False, 1.0, count=2),
                Observation(frozenset(range(3)), False, 1.0, count=4)]
    before = [(a.culprits, round(a.probability, 3)) for a in leading(problem, prefixes, Settings())]
    assert [c for c, _ in before] == [(3,), (4,), (5,)] and len({p for _, p in before}) == 1, before  # told apart by nothing
    subsets = [Observation(frozenset({4}), True, 1.0, count=2), Observation(frozenset({4}), False, 1.0),
               Observation(frozenset({3}), False, 1.0, count=7)]
    after = leading(problem, prefixes + subsets, Settings())
    assert after[0].culprits == (4,) and after[0].probability > 0.9, after
    assert all(a.culprits != (3,) for a in after), after
