"""`isolate plan`: predict the cost of a hunt before starting it.

Two parts.  Closed forms (design.md §5): the Fano lower bound on runs, and the pass-only
confirmation table n = ln(1-c)/ln(1-p).  And a simulation of the hunt itself on a suite of
the given shape (isolate's search and the manual recipe, both through isolate.search.decide), which
gives medians and 95th percentiles of runs and wall time.  Pure apart from its seeded RNG.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from dataclasses import asdict, dataclass
from typing import Sequence

from isolate.errors import UserError
from isolate.search.information import h2, kl
from isolate.search.model import Settings, runs_for
from isolate.search.simulate import Cause, Suite, Truth, make_problem, trial
from isolate.words import counted, seconds

CONFIDENCES = (0.9, 0.95, 0.99, 0.999)


# ---------------------------------------------------------------------------
# Information-theoretic bounds


def capacity(p: float, q: float = 0.0) -> float:
    """Bits per run of the channel "culprit in the set or not" -> "victim fails or not":
    P(fail) = p when the culprit ran, q otherwise.  For q = 0 this is the Z-channel,
    log2(1 + p(1-p)^((1-p)/p)) ~ 0.53 p bits for small p."""
    if p <= q:
        return 0.0
    if q == 0.0:
        if p >= 1.0:
            return 1.0
        return math.log2(1.0 + p * (1.0 - p) ** ((1.0 - p) / p))

    def info(m: float) -> float:
        return h2(m * p + (1 - m) * q) - m * h2(p) - (1 - m) * h2(q)

    lo, hi = 0.0, 1.0
    for _ in range(100):  # I(m) is concave: golden-section search
        a = lo + (hi - lo) * 0.382
        b = lo + (hi - lo) * 0.618
        if info(a) < info(b):
            lo = a
        else:
            hi = b
    return info((lo + hi) / 2)


def fano_runs(hypotheses: float, confidence: float, p: float, q: float = 0.0) -> float:
    """Fano: expected runs >= ((1-d) log2 H - h(d)) / C to name the answer among H
    hypotheses with error probability d = 1 - confidence."""
    d = 1.0 - confidence
    c = capacity(p, q)
    if c <= 0 or hypotheses <= 1:
        return 0.0
    return max(0.0, ((1 - d) * math.log2(hypotheses) - h2(d)) / c)


def _kl_nats(a: float, b: float) -> float:
    return kl(a, b) * math.log(2.0)


def none_runs(q: float, confidence: float, min_ratio: float = 2.0) -> float:
    """Lower bound on runs to tell "fails alone at q" from "some predecessor multiplies
    the rate by min_ratio" (what the engine's "none" verdict claims) with error
    d = 1 - confidence, the rates being unknown: Wald's bound E[n] >= ((1-d) ln((1-d)/d)
    - d ln((1-d)/d)) / D, where D is the best split of runs between the full list and
    the victim alone of the smallest divergence to any such alternative."""
    d = 1.0 - confidence
    need = (1 - 2 * d) * math.log((1 - d) / d)
    best = 0.0
    for i in range(1, 100):
        alpha = i / 100  # share of runs with all predecessors

        def div(r: float) -> float:  # alternative: alone fails at r, full list at k*r
            return alpha * _kl_nats(q, min(0.999999, min_ratio * r)) + (1 - alpha) * _kl_nats(q, r)

        lo, hi = q / min_ratio / 10, min(q, 0.999999 / min_ratio)
        for _ in range(80):
            a = lo + (hi - lo) * 0.382
            b = lo + (hi - lo) * 0.618
            if div(a) > div(b):
                lo = a
            else:
                hi = b
        best = max(best, div((lo + hi) / 2))
    return need / best if best > 0 else math.inf


def confirmation_table(p: float, confidences: Sequence[float] = CONFIDENCES) -> tuple[tuple[float, int], ...]:
    """Passing runs that show, with confidence c, that a failure of rate p is gone
    (MXNet's n = ln(1-c)/ln(1-p), for any p and c)."""
    return tuple((c, runs_for(c, p)) for c in confidences)


def halving_success(n: int, step_confidence: float) -> float:
    """Chance the manual recipe ends on the right test (design.md §5): each of the
    ceil(log2 n) steps goes wrong only when the culprit's half passed n times, which
    happens with probability (1 - c) when that half was the one tested (half the time)."""
    steps = max(1, math.ceil(math.log2(max(2, n))))
    return (1 - (1 - step_confidence) / 2) ** steps


def tuned_step_confidence(n: int, overall: float) -> float:
    """Per-step confidence that makes halving_success reach `overall`."""
    steps = max(1, math.ceil(math.log2(max(2, n))))
    return 1.0 - 2.0 * (1.0 - overall ** (1.0 / steps))


# ---------------------------------------------------------------------------
# Simulated prediction


@dataclass(frozen=True)
class StrategyPlan:
    """Predicted cost of one strategy (by simulation)."""

    trials: int
    accuracy: float
    runs_median: float
    runs_p95: float
    seconds_median: float
    seconds_p95: float


@dataclass(frozen=True)
class PlanResult:
    tests: int
    rate: float
    duration: float
    startup: float
    confidence: float
    lower_bound_runs: float
    lower_bound_seconds: float
    strategies: dict[str, StrategyPlan]
    confirmation: tuple[tuple[float, int, float], ...]  # (confidence, runs, seconds)
    halving: tuple[tuple[float, float], ...]  # (per-step confidence, overall success)
    manual_step_confidence: float


def _percentile(xs: Sequence[float], q: float) -> float:
    ys = sorted(xs)
    k = min(len(ys) - 1, max(0, math.ceil(q * len(ys)) - 1))
    return ys[k]


def _trials_isolate(tests: int, rate: float, budget: float = 2.5) -> int:
    """Trials that fit about `budget` seconds of CPU, from measured costs of a simulated
    hunt (~0.03 s + 0.012 s x sqrt(N) x (1 + 0.3 log10(0.2/p)) on the reference machine)."""
    per_trial = 0.03 + 0.012 * math.sqrt(tests) * (1 + 0.3 * max(0.0, math.log10(0.2 / rate)))
    return int(min(60, max(4, budget / per_trial)))


def _simulate(strategy: str, settings: Settings, tests: int, rate: float, duration: float,
              startup: float, trials: int, seed: int) -> StrategyPlan:
    runs: list[float] = []
    secs: list[float] = []
    right = 0
    for i in range(trials):
        rng = random.Random(f"plan|{strategy}|{tests}|{rate}|{seed}|{i}")
        culprit = rng.randrange(tests)
        problem = make_problem(tests, (duration,) * tests, duration, startup)
        truth = Truth((Cause(frozenset({culprit}), rate),), 0.0, frozenset({culprit}))
        t = trial(Suite(problem, truth), settings, rng)
        runs.append(float(t.runs))
        secs.append(t.seconds)
        right += t.correct
    return StrategyPlan(trials, right / trials, statistics.median(runs), _percentile(runs, 0.95),
                        statistics.median(secs), _percentile(secs, 0.95))


MOST_TESTS = 5_000  # predecessors plan simulates (3 s of CPU at 2,000, 15 s at 5,000, about 50 s at 10,000)
MIN_RATE = 1e-6  # the rarest failure plan takes (rarer ones give run counts no hunt could make)
MOST_SECONDS = 86_400.0  # a test's or a start-up's seconds (a day)


def plan(
    tests: int,
    rate: float,
    duration: float = 0.2,
    startup: float = 1.0,
    confidence: float = 0.99,
    seed: int = 0,
) -> PlanResult:
    """Predict a hunt for one polluter among `tests` predecessors that makes the victim
    fail with probability `rate` (and never without it), every test taking `duration`
    seconds plus `startup` per run.  Runs isolate's search and the manual recipe (tuned
    to the same overall confidence, told the true rate) on simulated suites."""
    if tests < 1:
        raise UserError("--tests must be at least 1; give the number of predecessors")
    if tests > MOST_TESTS:  # it simulates whole hunts: 10,000 tests took 51 s, a million ran out of memory
        raise UserError(f"--tests {tests} is more than plan simulates ({MOST_TESTS}); give {MOST_TESTS} or fewer:"
                        " the runs a hunt needs grow with the logarithm of the count, so that is a fair guide")
    if not MIN_RATE <= rate <= 1:
        raise UserError(f"--rate {rate} is not in [{MIN_RATE:g}, 1]; give e.g. 0.033 for 1 failure in 30 runs")
    if not 0.5 <= confidence < 1:
        raise UserError(f"--confidence {confidence} is not in [0.5, 1); give e.g. 0.99")
    for name, value in (("--duration", duration), ("--startup", startup)):
        if not (math.isfinite(value) and 0 <= value <= MOST_SECONDS):
            raise UserError(f"{name} {value} is not a number of seconds in [0, {MOST_SECONDS:g}]; give e.g. 0.2")
    if startup + duration <= 0:
        raise UserError("--duration and --startup are both 0, so a run would take no time; give either a"
                        " positive number of seconds")
    lb = fano_runs(tests, confidence, rate)
    per_run = startup + duration
    full_run = startup + duration * (tests + 1)
    n_iso = _trials_isolate(tests, rate)
    iso = _simulate("isolate", Settings(confidence=confidence), tests, rate, duration,
                    startup, n_iso, seed)
    step_c = tuned_step_confidence(tests, confidence)
    man = _simulate("manual", Settings(strategy="manual", overall_confidence=confidence,
                                       rate_hint=rate), tests, rate, duration, startup, 100, seed)
    confirm = tuple((c, n, n * full_run) for c, n in confirmation_table(rate))
    halving = tuple((c, halving_success(tests, c)) for c in CONFIDENCES)
    return PlanResult(tests, rate, duration, startup, confidence, lb, lb * per_run,
                      {"isolate": iso, "manual": man}, confirm, halving, step_c)


def format_text(r: PlanResult) -> str:
    """The human report of `isolate plan`."""
    out = [
        f"Hunt for one polluter among {counted(r.tests, 'test')}, failure rate {r.rate:g} with it "
        f"(0 without), {r.duration:.3g} s per test, {r.startup:.3g} s start-up per run, "
        f"target confidence {r.confidence:g}.",
        "",
        f"Lower bound (Fano): {r.lower_bound_runs:,.0f} runs on average for any method "
        f"(at least {seconds(r.lower_bound_seconds)} of start-up and victim).",
        "",
        "Predicted by simulation (median / 95th percentile):",
        f"  {'strategy':<10} {'runs':>17} {'wall time (1 job)':>22} {'right':>7} {'trials':>7}",
    ]
    labels = {"isolate": "isolate", "manual": "manual"}
    for name, s in r.strategies.items():
        out.append(
            f"  {labels[name]:<10} {s.runs_median:>8,.0f} / {s.runs_p95:<8,.0f}"
            f"{seconds(s.seconds_median):>11} / {seconds(s.seconds_p95):<9} {s.accuracy:>6.0%} {s.trials:>7}"
        )
    out += [
        f"  manual = halving, until failure up to n runs per step, per-step confidence "
        f"{r.manual_step_confidence:.4f} (tuned so that the whole hunt is right "
        f"{r.confidence:g} of the time) and told the true rate.",
        "  The simulated suites hold one polluter and no failure without it, which manual assumes; isolate"
        " assumes neither (a background rate, a pair, several causes), runs its culprit alone and the rest"
        " without it to confirm, and its extra runs pay for that. On a suite where manual's assumptions are"
        " wrong it names the wrong test or stops at one of several causes (docs/search.md).",
        "  Trial counts are kept small so that plan answers in seconds (up to about 15 s at 5,000 "
        "tests); the 95th percentiles of few trials are rough.",
        "",
        "Pass-only confirmation (e.g. that a fix worked): runs in a row without a failure "
        f"that rule out a rate of {r.rate:g}, n = ln(1-c)/ln(1-p):",
        f"  {'confidence':>10} {'runs':>8} {'full-list time':>15} {'halving: whole hunt right':>27}",
    ]
    for (c, n, secs), (_, ok) in zip(r.confirmation, r.halving):
        out.append(f"  {c:>10g} {n:>8,} {seconds(secs):>15} {ok:>27.1%}")
    out.append("  (last column: the manual recipe with that confidence per step: "
               "(1 - (1-c)/2)^ceil(log2 N))")
    return "\n".join(out)


def to_json(r: PlanResult) -> str:
    """The `--json` form: lower_bound_runs and per-strategy medians/p95 at the top level."""
    doc = {
        "tests": r.tests,
        "rate": r.rate,
        "duration": r.duration,
        "startup": r.startup,
        "confidence": r.confidence,
        "lower_bound_runs": round(r.lower_bound_runs, 1),
        "lower_bound_seconds": round(r.lower_bound_seconds, 1),
        "strategies": {name: asdict(s) for name, s in r.strategies.items()},
        "manual_step_confidence": r.manual_step_confidence,
        "confirmation": [{"confidence": c, "runs": n, "seconds": round(s, 1)}
                         for c, n, s in r.confirmation],
        "halving_success": [{"step_confidence": c, "overall": round(ok, 4)}
                            for c, ok in r.halving],
    }
    return json.dumps(doc, indent=2)
