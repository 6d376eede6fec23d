"""`isolate verify` end to end: a real hunt, then the real suite fixed, re-run until shown fixed."""

from __future__ import annotations

import json
import math
import os
import shlex
import signal
import socket
import subprocess
from pathlib import Path

import pytest

from conftest import assert_user_error, env, isolate, recording, stestr_run, tool, wait_for_lines
from isolate.hunt.store import hunt_name
from test_loop import finished

VICTIM = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_uses_default_currency"
CULPRIT = "reportgen.tests.core.test_config.ConfigDefaultsTest.test_set_default_currency"
POLLUTES = '        config.set_default("currency", "EUR")\n'


def hunted(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the suite with a finished default hunt that named CULPRIT (made once per session
    and copied: test_loop.finished), and the hunt."""
    suite = finished(tmp_path)
    return suite, suite / ".isolate" / hunt_name(VICTIM)


def fix(suite: Path) -> None:
    """What the user's fix does: the polluter puts the default back when it is done."""
    test = suite / "reportgen" / "tests" / "core" / "test_config.py"
    text = test.read_text()
    assert text.count(POLLUTES) == 1
    test.write_text(text.replace(POLLUTES, '        self.addCleanup(config.set_default, "currency",'
                                           ' config.get("currency"))\n' + POLLUTES))


def needed(hunt: Path, confidence: float) -> int:
    rate = json.loads((hunt / "verdict.json").read_text())["rates"]["with_culprits"]
    return max(1, math.ceil(math.log(1 - confidence) / math.log(1 - rate)))


def test_still_fails_then_fixed(tmp_path: Path) -> None:
    suite, hunt = hunted(tmp_path)
    before = isolate(suite, "verify", "test_header_uses_default_currency")
    assert before.returncode == 1, before.stderr
    journal = [json.loads(line) for line in (hunt / "verify.jsonl").read_text().splitlines()]
    k = len(journal)  # the runs at once that finished before the first failure stopped the others
    assert 1 <= k <= 2 and [(j["attempt"], j["list"]) for j in journal] == [(1, "reproducer")] * k
    fails = sum(j["reproduced"] for j in journal)
    assert fails >= 1 and before.stdout.startswith(f"still fails: {fails}/{k}\n"), before.stdout
    assert f"the reproducer: {fails}/{k} failed the recorded way" in before.stdout
    assert "the original list (step-000): not run" in before.stdout
    assert not (hunt / "lock").exists()
    # QA: what verify found appeared nowhere else; status, log and the report now say it
    said = f"still fails: {fails}/{k} (attempt 1, last run "
    assert f"  verified: {said}" in isolate(suite, "status").stdout
    assert f"\nverified: {said}" in isolate(suite, "log", VICTIM).stdout
    good = (hunt / "verify.jsonl").read_bytes()
    (hunt / "verify.jsonl").write_bytes(good + b'{"attempt": 1, "li\n')  # QA: only verify itself warned of it
    for shown, prefix in ((isolate(suite, "status").stdout, "\n  warning: "),
                          (isolate(suite, "log", VICTIM).stdout, "\nwarning: ")):
        assert f"{prefix}skipped corrupt line {k + 1} of " in shown and "verify.jsonl (not JSON)" in shown, shown
        assert said in shown
    (hunt / "verify.jsonl").write_bytes(good)

    fix(suite)
    n = needed(hunt, 0.99)
    after = isolate(suite, "verify", VICTIM, "--json", "--jobs", "2")
    assert after.returncode == 0, after.stderr
    data = json.loads(after.stdout)
    assert data["verdict"] == "fixed" and data["runs_needed"] == n and data["attempt"] == 2
    assert [(x["name"], x["runs"], x["passes"], x["fails"]) for x in data["lists"]] == [
        ("reproducer", n, n, 0), ("original", n, n, 0)]
    assert data["lists"][1]["path"].endswith("step-000.txt")
    assert abs(data["rate_below"] - (1 - 0.01 ** (1 / n))) < 1e-6 and data["rate_below"] <= data["rate"]
    journal = [json.loads(line) for line in (hunt / "verify.jsonl").read_text().splitlines()]
    assert len(journal) == k + 2 * n and all(j["outcome"] == "pass" for j in journal[k:])
    fixed = f"fixed: 0/{n}, rate < {data['rate_below']:.3g} at 0.99 (attempt 2, last run "
    assert f"  verified: {fixed}" in isolate(suite, "status").stdout
    page = isolate(suite, "report", VICTIM, "--html", "-").stdout
    assert '<p id="verified"><b>Verified after a fix</b>' in page and fixed.replace("<", "&lt;") in page

    text = isolate(suite, "verify", VICTIM, "--confidence", "0.999")
    assert text.returncode == 0, text.stderr
    n3 = needed(hunt, 0.999)
    assert text.stdout.startswith(f"fixed: 0/{n3}, rate < {1 - 0.001 ** (1 / n3):.3g} at 0.999\n"), text.stdout
    # attempt 2 is concluded at 0.999 too when it already has n3 passes: then a new attempt starts;
    # otherwise the passes it lacks are added to it (the estimated rate decides which)
    assert (f"attempt 3, {2 * n3} runs this time" if n3 <= n else f"attempt 2, {2 * (n3 - n)} runs this time") in text.stdout

    victim = suite / "reportgen" / "tests" / "core" / "test_report.py"  # now it fails another way
    victim.write_text(victim.read_text().replace('        report = Report("Q3 expenses")\n',
                                                 '        raise RuntimeError("broken differently")\n', 1))
    other = isolate(suite, "verify", VICTIM, "--jobs", "1")
    assert other.returncode == 1, other.stderr
    assert other.stdout.startswith("inconclusive: ") and "3 fail" in other.stdout, other.stdout
    assert f"attempt {4 if n3 <= n else 3}" in other.stdout  # a new attempt each time one concluded


def test_status_says_when_a_stored_run_failed_again_after_verify_said_fixed(tmp_path: Path) -> None:
    suite, hunt = hunted(tmp_path)
    test = suite / "reportgen" / "tests" / "core" / "test_config.py"
    unfixed = test.read_text()
    fix(suite)
    assert isolate(suite, "verify", VICTIM, "--jobs", "2").returncode == 0
    assert stestr_run(suite, "--serial").returncode == 0  # the fix holds in this stored run
    shown = isolate(suite, "status").stdout
    assert "  verified: fixed: 0/" in shown and "failed the recorded way since" not in shown, shown
    test.write_text(unfixed)  # QA: "verified: fixed" stayed after stored runs failed again
    stestr_run(suite, "--serial")
    run = max(int(p.name) for p in (suite / ".stestr").iterdir() if p.name.isdigit())
    shown = isolate(suite, "status").stdout
    assert (f"; but the victim failed the recorded way since, in stored run {run}: the fix does not hold there"
            f" (check again: 'isolate verify {VICTIM}')") in shown, shown


def test_ctrl_c_then_the_same_command_continues_the_count(tmp_path: Path) -> None:
    suite, hunt = hunted(tmp_path)
    fix(suite)
    confidence = "0.999999999999"  # about 7 passes of each list at the estimated rate of ~0.98
    n = needed(hunt, float(confidence))
    assert n >= 5
    journal = hunt / "verify.jsonl"
    proc = subprocess.Popen([tool("isolate"), "verify", VICTIM, "--confidence", confidence, "--jobs", "1", "--json"],
                            cwd=suite, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for_lines(journal, 2, proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert b"Continue with: isolate verify" in err and b"Traceback" not in err
    assert not (hunt / "lock").exists()
    kept = journal.read_bytes()
    done = len(kept.splitlines())
    assert 2 <= done < 2 * n
    status = isolate(suite, "status").stdout  # an attempt cut short: how far it got, and how to go on
    assert f"  verified: unfinished: the reproducer {min(done, n)}/{n} passes, the original list (step-000)" \
           f" {max(0, done - n)}/{n} passes (the same command goes on: isolate verify {VICTIM})" in status, status
    # --json, interrupted: JSON as bisect prints it; its command carries the --confidence given
    stopped = json.loads(out)
    assert stopped["verdict"] == "interrupted" and stopped["runs_this_session"] == done
    assert stopped["resume"] == f"isolate verify {VICTIM} --confidence {confidence}"
    assert stopped["resume"].encode() in err

    resumed = isolate(suite, *shlex.split(stopped["resume"])[1:], "--json")
    assert resumed.returncode == 0, resumed.stderr
    data = json.loads(resumed.stdout)
    assert data["attempt"] == 1 and data["session_runs"] == 2 * n - done  # the count went on
    assert [(x["runs"], x["passes"]) for x in data["lists"]] == [(n, n), (n, n)]
    assert journal.read_bytes().startswith(kept)


def test_errors_are_one_line(tmp_path: Path) -> None:
    suite = recording("deterministic_polluter", tmp_path, VICTIM)
    assert_user_error(isolate(suite, "verify", VICTIM), "no verdict yet", f"isolate bisect {VICTIM}")
    assert isolate(suite, "bisect", VICTIM, "--max-runs", "2", "--fork-server").returncode == 5  # (kept for the resume)
    assert_user_error(isolate(suite, "verify", VICTIM), "ended 'undecided' with no reproducer",
                      "isolate bisect", "--max-runs 1000")  # the stored --max-runs 2 would stop it again
    assert_user_error(isolate(suite, "verify", "nosuch"), "no hunt for")
    assert_user_error(isolate(suite, "verify", VICTIM, "--confidence", "1"), "--confidence")
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    assert isolate(suite, "bisect", VICTIM, "-q", "--max-runs", "1000").returncode == 0  # the budget is stored
    boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    start = Path(f"/proc/{os.getppid()}/stat").read_text().rsplit(")", 1)[1].split()[19]  # a live holder
    (hunt / "lock").write_text(f"{os.getppid()} {socket.gethostname()} {boot} {start}\n")
    assert_user_error(isolate(suite, "verify", VICTIM), "already running")
    assert not (hunt / "verify.jsonl").exists()


def test_a_hunt_whose_runs_were_no_evidence_is_not_told_to_run_longer(tmp_path: Path) -> None:
    """The victim kills its process in every run of the hunt: the hunt stops after 100 runs of no
    evidence, and verify used to suggest '--time-budget 8h', which would only repeat them. The runs
    are forked (--fork-server), a fraction of fresh ones' cost: what verify reads is the verdict."""
    suite = recording("deterministic_polluter", tmp_path, VICTIM)
    victim = next(suite.rglob("test_report.py"))
    text = victim.read_text()
    body = "    def test_header_uses_default_currency(self):\n"
    assert body in text
    victim.write_text(text.replace(body, body + "        import os\n        if os.environ.get('CRASH'):\n"
                                                "            os._exit(9)\n"))
    proc = isolate(suite, "bisect", VICTIM, "-q", "--jobs", "2", "--fork-server", CRASH="1")
    assert proc.returncode != 0 and "were no evidence" in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    proc = isolate(suite, "verify", VICTIM)
    assert_user_error(proc, "last runs were no evidence", f"isolate log {VICTIM}")
    assert "--time-budget" not in proc.stderr


def test_the_commands_verify_suggests_quote_the_test_id(tmp_path: Path) -> None:
    """A pytest id with brackets, spaces or `$(...)` pasted unquoted from the message breaks the
    command, or runs the `$(...)`."""
    from isolate.errors import UserError
    from isolate.hunt.store import Hunt
    from isolate.hunt.verify import _plan

    victim = "tests/test_a.py::test_c[a b & $(touch x)]"
    with pytest.raises(UserError) as none_yet:
        _plan(Hunt(tmp_path, {"victim": victim}))
    # the command, its id quoted for the shell, in double quotes (single ones would nest)
    assert f"\"isolate bisect {shlex.quote(victim)}\", then verify" in str(none_yet.value)
    (tmp_path / "verdict.json").write_text(json.dumps({"verdict": "undecided", "confidence": 0.5, "culprits": []}))
    with pytest.raises(UserError) as undecided:
        _plan(Hunt(tmp_path, {"victim": victim}))
    assert f"\"isolate bisect {shlex.quote(victim)} --time-budget 8h\"" in str(undecided.value)


def test_a_lost_reproducer_is_named_and_bisect_writes_it_again(tmp_path: Path) -> None:
    """reproducer.txt deleted after a 'polluter' verdict: verify said the hunt had 'no reproducer'
    and to bisect 'until it names a cause', and bisect, finding the verdict, wrote nothing."""
    suite, hunt = hunted(tmp_path)
    runs = (hunt / "journal.jsonl").read_bytes()
    (hunt / "reproducer.txt").unlink()
    assert_user_error(isolate(suite, "verify", VICTIM), "reproducer.txt is missing", f"isolate bisect {VICTIM}")
    assert isolate(suite, "bisect", VICTIM, "-q").returncode == 0
    assert (hunt / "reproducer.txt").read_text() == f"{CULPRIT}\n{VICTIM}\n"
    assert (hunt / "journal.jsonl").read_bytes() == runs  # written from the journal, nothing re-run
    assert isolate(suite, "verify", VICTIM).returncode == 1  # not fixed: still fails


def test_an_edited_reproducer_is_named_with_a_fix_that_keeps_the_hunt(tmp_path: Path) -> None:
    """QA: a reproducer.txt cut to its first line was to be mended with 'isolate extract --force',
    which sets the whole hunt aside and starts over; deleting it and bisecting writes it again."""
    suite, hunt = hunted(tmp_path)
    (hunt / "reproducer.txt").write_text(f"{CULPRIT}\n")
    proc = isolate(suite, "verify", VICTIM)
    assert_user_error(proc, "reproducer.txt does not end with", "delete it and run", f"isolate bisect {VICTIM}")
    assert "extract --force" not in proc.stderr
    (hunt / "reproducer.txt").unlink()
    assert isolate(suite, "bisect", VICTIM, "-q").returncode == 0
    assert (hunt / "reproducer.txt").read_text() == f"{CULPRIT}\n{VICTIM}\n"
    (hunt / "step-000.txt").write_text(f"{CULPRIT}\n")  # the original list, cut
    assert_user_error(isolate(suite, "verify", VICTIM), "step-000.txt does not end with", "cp ", "order.txt")


def test_a_test_gone_since_the_hunt_is_named_and_uses_up_no_runs(tmp_path: Path) -> None:
    """QA: a polluter renamed after the hunt: verify journaled each list that could not start as a
    run, so after a few tries the attempt was over ("0/19 passes so far") without one real run;
    and it told to 'remove it from the list' even when the id was the victim's."""
    suite, hunt = hunted(tmp_path)
    test = suite / "reportgen" / "tests" / "core" / "test_config.py"
    text = test.read_text()
    test.write_text(text.replace("def test_set_default_currency(", "def test_set_default_currency_v2("))
    for _ in range(4):
        proc = isolate(suite, "verify", VICTIM)  # its progress line ("0/2 passes so far"), then the error
        last = proc.stderr.splitlines()[-1]
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert last.startswith(f"isolate: error: {hunt / 'reproducer.txt'} could not run: {CULPRIT}, of the hunt's"
                               " lists, is not in the project now") and "restore its name" in last, last
    assert not (hunt / "verify.jsonl").exists() or not (hunt / "verify.jsonl").read_text().strip()
    test.write_text(text)
    proc = isolate(suite, "verify", VICTIM)
    assert proc.returncode == 1 and "still fails" in proc.stdout, proc.stdout + proc.stderr  # a whole attempt left
    fix(suite)
    victim_file = suite / "reportgen" / "tests" / "core" / "test_report.py"
    victim_file.write_text(victim_file.read_text().replace("def test_header_uses_default_currency(",
                                                           "def test_header_uses_the_default_currency("))
    proc = isolate(suite, "verify", VICTIM)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert f"could not run: the victim {VICTIM} is not in the project now" in proc.stderr.splitlines()[-1]
