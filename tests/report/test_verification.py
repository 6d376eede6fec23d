"""`isolate verify`'s text: the conclusion and the confidence it was reached at."""

from __future__ import annotations

from pathlib import Path

from isolate.hunt.store import Hunt
from isolate.hunt.verify import Count, Target, Verification
from isolate.report.verification import as_text


def test_a_confidence_close_to_1_is_not_rounded_to_1(tmp_path: Path) -> None:
    """':g' printed 0.99999999 as "1": "rate < 0.536 at 1", a certainty no run gives."""
    target = Target("reproducer", tmp_path / "reproducer.txt", ("a", "victim"))
    for confidence, shown in ((0.99, "0.99"), (0.99999999, "0.99999999")):
        v = Verification(Hunt(tmp_path, {"victim": "victim"}), "fixed", 0.5, confidence, 27,
                         (Count(target, runs=27, passes=27),), 1, 27)
        text = as_text(v)
        assert text.splitlines()[0] == f"fixed: 0/27, rate < {v.bound:.3g} at {shown}", text
        assert f"27 passes of each list rule it out at {shown} (n = " in text, text
