"""The hunt directory's readers against bad files, in process: each corrupt file is a UserError
naming it (or, for journal and queries lines, a skipped line with a warning), never a traceback
and never a misread value. tests/test_bad_inputs.py runs a core of these through the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from isolate.errors import UserError
from isolate.hunt.evidence import durations
from isolate.hunt.journal import OUTCOMES, Entry, append_journal, parse_entry, read_journal
from isolate.hunt.settings import settings_for
from isolate.hunt.store import Hunt, create_hunt, hunt_dir, load_settings, read_queries, source_paths
from isolate.hunt.verdict import read_verdict

GOOD = {"victim": "pkg.T.test_v", "source": {"kind": "stestr", "run": 0}, "search": {"max_runs": 3}}

BAD_SETTINGS = [
    b"", b"{", b"[]", b"null", b"5", b'"x"', b"\xff\xfe", b'{"victim": "\xff"}',
    json.dumps({}).encode(),
    json.dumps({**GOOD, "victim": None}).encode(),
    json.dumps({**GOOD, "victim": 5}).encode(),
    json.dumps({**GOOD, "victim": ""}).encode(),
    json.dumps({**GOOD, "victim": ["a"]}).encode(),
    json.dumps({**GOOD, "source": []}).encode(),
    json.dumps({**GOOD, "source": "repo"}).encode(),
    json.dumps({**GOOD, "source": {"kind": "nose"}}).encode(),
    json.dumps({**GOOD, "search": []}).encode(),
    json.dumps({**GOOD, "search": "x"}).encode(),
] + [
    json.dumps({**GOOD, "search": {key: value}}).encode()
    for key, value in [
        ("timeout", float("inf")), ("timeout", float("-inf")), ("timeout", float("nan")), ("timeout", 0),
        ("timeout", -1), ("timeout", "60"), ("timeout", True), ("timeout", [60]),
        ("confidence", float("nan")), ("confidence", 5), ("confidence", 0.1), ("confidence", 1),
        ("confidence", "0.99"), ("step_budget", float("inf")), ("step_budget", -1), ("step_budget", "20m"),
        ("time_budget", float("nan")), ("time_budget", 0), ("time_budget", "8h"),
        ("max_runs", 0), ("max_runs", -3), ("max_runs", 2.5), ("max_runs", "10"), ("max_runs", False),
        ("jobs", 0), ("jobs", "2"), ("jobs", 1.5), ("jobs", True),
        ("strategy", "random"), ("strategy", 1), ("mode", "thread"), ("mode", 1),
        ("further", -0.5), ("further", 2), ("further", "1"), ("further", float("nan")),
        ("any_failure", "yes"), ("any_failure", 1), ("pytest_args", "-x"), ("pytest_args", [1]),
        ("pytest_args", {"a": 1}),
    ]
] + [b'{"victim": "v", "search": {"timeout": Infinity}}', b'{"victim": "v", "search": {"timeout": NaN}}',
     b'{"victim": "v", "search": {"timeout": 1e999}}']


@pytest.mark.parametrize("data", BAD_SETTINGS, ids=range(len(BAD_SETTINGS)))
def test_corrupt_hunt_json_names_the_file_and_the_fix(tmp_path: Path, data: bytes) -> None:
    (tmp_path / "hunt.json").write_bytes(data)
    with pytest.raises(UserError) as info:
        load_settings(tmp_path / "hunt.json")
    message = str(info.value)
    assert str(tmp_path / "hunt.json") in message and "extract --force" in message
    assert "\n" not in message


def test_sound_hunt_json_is_read(tmp_path: Path) -> None:
    (tmp_path / "hunt.json").write_text(json.dumps({**GOOD, "search": {"timeout": 60, "unknown": "kept"}}))
    assert load_settings(tmp_path / "hunt.json")["search"] == {"timeout": 60, "unknown": "kept"}


@pytest.mark.parametrize("option,value", [
    ("timeout", math.inf), ("timeout", math.nan), ("timeout", -math.inf), ("timeout", 0.0),
    ("confidence", math.nan), ("confidence", math.inf), ("step_budget", math.inf), ("time_budget", math.nan),
    ("max_runs", 0), ("jobs", 0),
])
def test_non_finite_options_are_refused_before_anything_is_stored(tmp_path: Path, option: str,
                                                                    value: float) -> None:
    (tmp_path / "hunt.json").write_text(json.dumps(GOOD))
    hunt = Hunt(tmp_path, GOOD)
    with pytest.raises(UserError, match=f"--{option.replace('_', '-')} "):
        settings_for(hunt, {option: value})
    assert json.loads((tmp_path / "hunt.json").read_text()) == GOOD


BAD_DURATIONS = [b"{", b"[]", b"5", b"null", b'"x"', b"\xff", b'{"a": "1"}', b'{"a": NaN}', b'{"a": Infinity}',
                 b'{"a": -Infinity}', b'{"a": -1}', b'{"a": null}', b'{"a": [1]}', b'{"a": true}',
                 b'{"a": 1e999}']


@pytest.mark.parametrize("data", BAD_DURATIONS, ids=range(len(BAD_DURATIONS)))
def test_corrupt_durations_json_names_the_file(tmp_path: Path, data: bytes) -> None:
    (tmp_path / "durations.json").write_bytes(data)
    with pytest.raises(UserError, match="durations.json"):
        durations(Hunt(tmp_path, GOOD), ("a", "v"))


def test_durations_json_missing_or_sound(tmp_path: Path) -> None:
    assert durations(Hunt(tmp_path, GOOD), ("a", "v")) == [0.01, 0.01]
    (tmp_path / "durations.json").write_text('{"a": 2, "v": 0}')
    assert durations(Hunt(tmp_path, GOOD), ("a", "v", "b")) == [2.0, 0.0005, 1.0]


def test_a_missing_order_txt_names_the_hunts_file_and_the_fix(tmp_path: Path) -> None:
    """QA: a hunt whose order.txt was deleted said "list file .../order.txt does not exist; check
    the path" in status, log, report, plan, verify and bisect: a path the user never gave."""
    with pytest.raises(UserError) as info:
        Hunt(tmp_path, GOOD).order()
    assert str(info.value) == (f"{tmp_path / 'order.txt'} is missing, so the hunt has no order; restore it from a"
                               " backup, or re-create the hunt with 'isolate extract --force'")
    (tmp_path / "order.txt").write_text("a\nv\n")
    assert Hunt(tmp_path, GOOD).order() == ("a", "v")


def test_an_order_txt_edited_by_hand_is_refused_not_hunted(tmp_path: Path) -> None:
    """QA: order.txt cut by hand hid the runs of every list holding a test it no longer held, and
    `status` and `bisect` kept a verdict naming a test that was not in it."""
    (tmp_path / "order.txt").write_text("a\nb\nv\n")
    (tmp_path / "step-000.txt").write_text("# the extracted order\na\nb\n\nv\n")
    assert Hunt(tmp_path, GOOD).order() == ("a", "b", "v")  # the same list, written another way
    (tmp_path / "order.txt").write_text("b\nv\n")
    with pytest.raises(UserError) as info:
        Hunt(tmp_path, GOOD).order()
    assert str(info.value) == (f"{tmp_path / 'order.txt'} and step-000.txt differ, though extract wrote the hunt's"
                               " order to both and its runs were chosen from it: one was edited; copy the other back"
                               " over it, or start a new hunt with 'isolate extract --force'")


BAD_VERDICTS = [b"", b"{", b"{}", b"[]", b"null", b"\xff", b'{"verdict": 5}', b'{"verdict": ""}',
                b'{"verdict": "polluter"}', b'{"verdict": "polluter", "confidence": "high", "culprits": []}',
                b'{"verdict": "polluter", "confidence": NaN, "culprits": []}',
                b'{"verdict": "polluter", "confidence": 2, "culprits": []}',
                b'{"verdict": "polluter", "confidence": 0.99, "culprits": "a"}',
                b'{"verdict": "polluter", "confidence": 0.99, "culprits": [1]}',
                b'{"verdict": "polluter", "confidence": 0.99}']


@pytest.mark.parametrize("data", BAD_VERDICTS, ids=range(len(BAD_VERDICTS)))
def test_corrupt_verdict_json_names_the_file(tmp_path: Path, data: bytes) -> None:
    (tmp_path / "verdict.json").write_bytes(data)
    with pytest.raises(UserError, match="verdict.json"):
        read_verdict(Hunt(tmp_path, GOOD))


def test_a_sound_verdict_is_read(tmp_path: Path) -> None:
    (tmp_path / "verdict.json").write_text('{"verdict": "fails-alone", "confidence": 0.995, "culprits": []}')
    assert read_verdict(Hunt(tmp_path, GOOD)) == {"verdict": "fails-alone", "confidence": 0.995, "culprits": []}


BAD_QUERIES = [b"{", b"[]", b"5", b"\xff", b'{"from": "3", "step": 1}', b'{"from": -1, "step": 1}',
               b'{"from": 1.5, "step": 1}', b'{"from": true, "step": 1}', b'{"from": 1}', b'{"from": 1, "step": "x"}',
               b'{"from": 1, "step": 1, "reason": 5}']


@pytest.mark.parametrize("line", BAD_QUERIES, ids=range(len(BAD_QUERIES)))
def test_corrupt_queries_lines_are_skipped_with_a_warning(tmp_path: Path, line: bytes) -> None:
    good = b'{"from": 0, "step": 0, "reason": "full list", "runs": 2}'
    (tmp_path / "queries.jsonl").write_bytes(good + b"\n" + line + b"\n" + good + b"\n")
    warnings: list[str] = []
    assert len(read_queries(Hunt(tmp_path, GOOD), warnings)) == 2
    assert warnings == [f"skipped corrupt line 2 of {tmp_path / 'queries.jsonl'}"]


GOOD_ENTRY = {"step": 0, "outcome": "fail", "reproduced": True, "seconds": 0.5, "signature": "E", "at": "t"}
BAD_ENTRIES = [b"", b"{", b"[]", b"null", b"5", b'"x"', b"\xff\xfe", b"{}"] + [
    json.dumps({**GOOD_ENTRY, **change}).encode()
    for change in [
        {"step": True}, {"step": False}, {"step": "0"}, {"step": 0.0}, {"step": -1}, {"step": None},
        {"reproduced": "false"}, {"reproduced": "true"}, {"reproduced": 0}, {"reproduced": 1}, {"reproduced": None},
        {"seconds": "0.5"}, {"seconds": -0.1}, {"seconds": True}, {"seconds": None}, {"seconds": [1]},
        {"outcome": "exploded"}, {"outcome": 1}, {"outcome": None}, {"outcome": "PASS"},
        {"outcome": "pass", "reproduced": True}, {"outcome": "skip", "reproduced": True}, {"signature": 5}, {"signature": ["x"]}, {"at": 5},
        # `past` is true of a failure of another way only (a pass of the recorded one: running.judge)
        {"past": False}, {"past": "true"}, {"past": 1}, {"past": True},
        {"past": True, "outcome": "pass", "reproduced": False}, {"past": True, "outcome": "timeout", "reproduced": False},
    ]
] + [json.dumps({k: v for k, v in GOOD_ENTRY.items() if k != key}).encode()
     for key in ("step", "outcome", "reproduced", "seconds")] + [
    b'{"step": 0, "outcome": "fail", "reproduced": true, "seconds": NaN}',
    b'{"step": 0, "outcome": "fail", "reproduced": true, "seconds": Infinity}',
    b'{"step": 0, "outcome": "fail", "reproduced": true, "seconds": -Infinity}',
    b'{"step": 0, "outcome": "fail", "reproduced": true, "seconds": 1e999}',
    b'{"step": 0, "outcome": "fail", "reproduced": true, "seconds": 0.5, "signature": "\xff"}',
]


@pytest.mark.parametrize("line", BAD_ENTRIES, ids=range(len(BAD_ENTRIES)))
def test_journal_entries_of_the_wrong_type_are_skipped_never_misread(tmp_path: Path, line: bytes) -> None:
    entry, why = parse_entry(line)
    assert entry is None and why
    hunt = Hunt(tmp_path, GOOD)
    append_journal(hunt, [Entry(0, "pass", False, 1.0)])
    with open(tmp_path / "journal.jsonl", "ab") as fp:
        fp.write(line + b"\n")
    append_journal(hunt, [Entry(1, "fail", True, 2.0)])
    entries, warnings = read_journal(hunt)
    assert [(e.step, e.reproduced) for e in entries] == [(0, False), (1, True)]
    assert len(warnings) == 1 and warnings[0].startswith("skipped corrupt line 2 of ")


def test_every_outcome_the_runner_writes_is_read_back(tmp_path: Path) -> None:
    hunt = Hunt(tmp_path, GOOD)
    written = [Entry(3, outcome, outcome == "fail", 0.25, "sig" if outcome == "fail" else None, "now")
               for outcome in sorted(OUTCOMES)]
    append_journal(hunt, written)
    assert read_journal(hunt) == (written, [])
    from isolate.running.judge import KINDS  # every outcome the judge gives (a skip too) is one a journal holds
    assert set(KINDS) == OUTCOMES


# -- property: random truncation and corruption of a journal --------------------------------

def _journal(entries: list[Entry]) -> bytes:
    return b"".join(json.dumps({k: v for k, v in vars(e).items() if v is not None}, sort_keys=True).encode()
                    + b"\n" for e in entries)


entries_strategy = st.lists(st.builds(
    Entry, step=st.integers(0, 50), outcome=st.sampled_from(sorted(OUTCOMES)), reproduced=st.just(False),
    seconds=st.floats(0, 1e6, allow_nan=False), signature=st.one_of(st.none(), st.text(max_size=20)),
    at=st.text(max_size=10),
), max_size=12)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=entries_strategy, cut=st.integers(0, 10_000), flips=st.lists(
    st.tuples(st.integers(0, 10_000), st.integers(0, 255).filter(lambda b: b != 10)), max_size=4))
def test_journal_reader_survives_truncation_and_corruption(tmp_path: Path, entries: list[Entry], cut: int,
                                                           flips: list[tuple[int, int]]) -> None:
    """Whatever happens to the bytes, the reader raises nothing but UserError; every entry
    wholly before the damage is read back exactly; it never returns more entries than were
    written; and a journal that was only cut yields exactly a prefix of what was written."""
    data = bytearray(_journal(entries)[:cut])
    damaged_from = len(data)
    for position, value in flips:
        if data:
            i = position % len(data)
            data[i] = value
            damaged_from = min(damaged_from, i)
    (tmp_path / "journal.jsonl").write_bytes(bytes(data))
    try:
        read, warnings = read_journal(Hunt(tmp_path, GOOD))
    except UserError:
        return
    intact = offset = 0
    for e in entries:
        offset += len(_journal([e]))
        if offset <= damaged_from:
            intact += 1
    assert read[:intact] == entries[:intact]
    assert len(read) <= len(entries)
    if not flips or not data:
        assert read == entries[:len(read)], "a cut journal yields a prefix of what was written"
    assert all(isinstance(e.seconds, float) and math.isfinite(e.seconds) for e in read)


@pytest.mark.parametrize("source", [None, [], "repo", {"kind": "stestr", "repository": "/elsewhere/.stestr", "run": 0}])
def test_an_existing_hunt_of_another_or_no_source_is_named_not_replaced(tmp_path: Path, source: object) -> None:
    """Extracting over a hunt without runs compares sources: a hunt.json without a source object
    (hand-edited) stopped with a TypeError once sources were compared as relative paths."""
    given = {"kind": "stestr", "repository": str(tmp_path / ".stestr"), "run": 0}
    hunt = create_hunt(tmp_path, "pkg.T.test_v", ("pkg.T.test_a", "pkg.T.test_v"), "boom", given, False)
    assert hunt.settings["source"]["repository"] == str(tmp_path / ".stestr")  # the caller makes it relative
    settings = {"victim": "pkg.T.test_v"} | ({} if source is None else {"source": source})
    (hunt_dir(tmp_path, "pkg.T.test_v") / "hunt.json").write_text(json.dumps(settings))
    with pytest.raises(UserError, match="extracted with a source other than these"):
        create_hunt(tmp_path, "pkg.T.test_v", ("pkg.T.test_a", "pkg.T.test_v"), "boom", {"kind": "stestr",
                    "repository": ".stestr", "run": 0}, False)


def test_an_older_hunt_json_s_absolute_repository_reads_as_the_relative_one(tmp_path: Path) -> None:
    """Extracting the same run again over a hunt an older isolate wrote (absolute paths) is no change."""
    old = {"kind": "stestr", "repository": str(tmp_path / ".stestr"), "run": 0}
    create_hunt(tmp_path, "pkg.T.test_v", ("pkg.T.test_v",), "boom", old, False)
    new = source_paths(old, tmp_path)
    assert new["repository"] == ".stestr"
    hunt = create_hunt(tmp_path, "pkg.T.test_v", ("pkg.T.test_v",), "boom", new, False)
    assert hunt.source_path("repository") == tmp_path / ".stestr"
    assert source_paths({"stream": "-", "repository": "/elsewhere/.stestr"}, tmp_path) == {
        "stream": "-", "repository": "/elsewhere/.stestr"}
