"""`isolate report --html`, rendered by a real headless Chromium: the DOM it builds is checked
against verdict.json, the step log and the search's own posterior."""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import assert_user_error, isolate, recording, serial_recording, stestr_run
from isolate.hunt.evidence import evidence
from isolate.hunt.store import Hunt, hunt_name
from isolate.hunt.journal import read_journal
from isolate.report.html import MAX_POINTS, _observations_after_each_entry, _sample
from isolate.search.model import Settings
from isolate.search.decide import leading
from isolate.words import probability

VICTIM = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_uses_default_currency"
CULPRIT = "reportgen.tests.core.test_config.ConfigDefaultsTest.test_set_default_currency"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium(*args: str) -> subprocess.CompletedProcess[bytes]:
    """Headless Chromium with a fresh profile (`.ci/run` installs it; without it, CI fails)."""
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        if os.environ.get("ISOLATE_REQUIRE_BROWSER"):
            pytest.fail("chromium is not installed; .ci/run installs it with apt-get")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="isolate-chromium-") as profile:
        proc = subprocess.run([binary, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True,
                              timeout=180)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]
    return proc


class Node:
    def __init__(self, tag: str, attrs: dict[str, str], parent: Node | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node] = []
        self.parts: list[str] = []

    @property
    def text(self) -> str:
        return "".join(self.parts) + "".join(c.text for c in self.children)

    def all(self, tag: str | None = None, **attrs: str) -> list[Node]:
        found = []
        for child in self.children:
            if (tag is None or child.tag == tag) and all(
                    v in child.attrs.get("class", "").split() if k == "class_"
                    else child.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items()):
                found.append(child)
            found.extend(child.all(tag, **attrs))
        return found

    def one(self, tag: str | None = None, **attrs: str) -> Node:
        [found] = self.all(tag, **attrs)
        return found


VOID = {"meta", "br", "hr", "img", "input", "link", "wbr", "col", "area", "base", "source"}


class Tree(HTMLParser):
    """The DOM Chromium dumped, as a tree (text order within a node is not kept: not needed)."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {}, None)
        self.at = self.root
        self.feed(markup)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, self.at)
        self.at.children.append(node)
        if tag not in VOID:
            self.at = node

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.at
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.at = node.parent

    def handle_data(self, data: str) -> None:
        self.at.parts.append(data)


@pytest.fixture(scope="module")
def hunted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A finished hunt on the deterministic sample suite, its lists run 4 at a time (batches)
    in fresh processes: (suite, hunt directory). The tests only read it, or a copy of it."""
    suite = recording("deterministic_polluter", tmp_path_factory.mktemp("hunt"), VICTIM)  # extracted
    proc = isolate(suite, "bisect", VICTIM, "-q", "--jobs", "4", "--no-fork-server")
    assert proc.returncode == 0, proc.stderr
    return suite, suite / ".isolate" / hunt_name(VICTIM)


def dom(html_file: Path) -> Node:
    return Tree(chromium("--dump-dom", html_file.as_uri()).stdout.decode()).root


def measured(tmp_path: Path, html: str, measure: str, widths: tuple[int, ...]) -> dict[int, list[int]]:
    """The numbers the JavaScript function body `measure` returns (an array) once the page has
    loaded in a window of each width. The page has no script (its policy allows none): a copy
    without the policy gets one that writes them into the DOM Chromium dumps."""
    script = ('<script>addEventListener("load", () => { document.body.dataset.widths ='
              f' (() => {{ {measure} }})().join(" "); }});</script>')
    copy = tmp_path / "measured.html"
    copy.write_text(re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
                    .replace("</body>", script + "</body>"))
    found = {}
    for width in widths:
        body = Tree(chromium(f"--window-size={width},1400", "--dump-dom", copy.as_uri()).stdout.decode()).root
        found[width] = [int(n) for n in body.one("body").attrs["data-widths"].split()]
    return found


def test_report_matches_the_verdict_the_log_and_the_posterior(tmp_path: Path,
                                                              hunted: tuple[Path, Path]) -> None:
    suite, hunt_dir = hunted
    out = tmp_path / "report.html"
    proc = isolate(suite, "report", "test_header_uses_default_currency", "--html", str(out))
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads((hunt_dir / "verdict.json").read_text())
    page = dom(out)

    # the headline and the culprit, as verdict.json has them
    assert page.one(id="confidence").text == f"{verdict['confidence']:.3f}"
    assert [c.text for c in page.all("code", class_="culprit")] == verdict["culprits"] == [CULPRIT]
    assert page.one(id="headline").all("b")[0].text == "polluted by an earlier test"
    assert not page.all(id="later-note") and not page.all(id="later-phases")  # no phase after the search

    # the chart: one line per answer, the verdict's answer first; its last point is the verdict's confidence
    lines = sorted(page.one("svg", id="chart").all("g", class_="answer"), key=lambda g: int(g.attrs["data-answer"]))
    names = [g.attrs["data-name"] for g in lines]
    assert names[0] == CULPRIT and "fails on its own" in names
    leader = next(g for g in lines if g.attrs["data-answer"] == "0")
    points = [(int(c.attrs["data-run"]), float(c.attrs["data-p"])) for c in leader.all("circle")]
    runs = len((hunt_dir / "journal.jsonl").read_text().splitlines())
    assert points[-1][0] == runs == verdict["runs"]
    assert f"{points[-1][1]:.3f}" == f"{verdict['confidence']:.3f}" == page.one(id="final-label").text
    assert [x for x, _ in points] == sorted(x for x, _ in points)
    first_failure = next(i + 1 for i, line in enumerate((hunt_dir / "journal.jsonl").read_text().splitlines())
                         if json.loads(line)["reproduced"])
    assert points[0][0] == first_failure and len(points) == runs - first_failure + 1  # short hunt: every run
    polyline = leader.one("polyline").attrs["points"].split()
    assert len(polyline) == len(points)
    assert float(page.one(id="target").attrs["data-p"]) == 0.99

    # the same numbers as the search's own `leading` on the whole evidence
    hunt = Hunt(hunt_dir, json.loads((hunt_dir / "hunt.json").read_text()))
    ev = evidence(hunt)
    top = leading(ev.problem, ev.observations, Settings(confidence=0.99))
    assert abs(top[0].probability - points[-1][1]) < 1e-6
    assert abs(top[0].probability - verdict["confidence"]) < 1e-6

    # the steps: one table row per line of `isolate log`, with the same numbers
    log = isolate(suite, "log", VICTIM).stdout.splitlines()
    logged = [tuple(int(g) for g in m.groups()) for line in log
              if (m := re.search(r"step +(\d+): +(\d+) predecessors? \+ victim, +(\d+) runs?, +(\d+) reproduced", line))]
    rows = page.one("table", id="step-table").all("tr", class_="step-row")
    assert [(int(r.attrs["data-step"]), int(r.attrs["data-size"]), int(r.attrs["data-runs"]),
             int(r.attrs["data-fails"])) for r in rows] == logged
    checks = [int(m.group(1)) for line in log
              if (m := re.search(r"fork check: steps [\d, ]+ again in the fork server, (\d+) runs?", line))]
    assert [int(r.attrs["data-runs"]) for r in page.all("tr", class_="check-row")] == checks
    assert len(logged) >= 3 and sum(g[2] for g in logged) + sum(checks) == runs
    assert len(page.one("svg", id="timeline").all("rect", class_="run")) == runs
    assert "does the failure reproduce?" in rows[0].text
    # the summary counts steps, not table rows (a step run again in another batch is one step)
    steps_shown = int(re.search(r"<li><b>(\d+)</b> steps</li>", out.read_text()).group(1))  # type: ignore[union-attr]
    assert steps_shown == len({int(r.attrs["data-step"]) for r in rows}), steps_shown

    # the evidence: the verdict's lines and a row per cause, the culprit's first
    assert [li.text for li in page.one(id="evidence").all("li")] == verdict["evidence"]
    causes = page.one("table", id="cause-table").all("tr", class_="cause")
    [cause] = verdict["causes"]
    cells = [td.text for td in causes[0].all("td")]
    assert cells[:4] == [CULPRIT, "test", f"{cause['confidence']:.3f}", f"{cause['rate']:.3g}"]
    with_it = re.search(r"fails (\d+)/(\d+) with .* before it, (\d+)/(\d+) without", cause["evidence"][0])
    assert with_it is not None and cause["evidence"][0] == verdict["evidence"][0]
    assert cause["evidence"][0] in cells[4]

    # the reproducer and the commands to run it
    assert page.one(id="reproducer-list").text.split() == [CULPRIT, VICTIM]
    assert "The reproducer, the culprits then the victim:" in out.read_text()
    commands = page.one(id="commands").text
    assert f"isolate replay .isolate/{hunt_dir.name}/reproducer.txt --times 20" in commands
    assert f"stestr run --serial --load-list .isolate/{hunt_dir.name}/reproducer.txt" in commands
    assert f"isolate verify {VICTIM}" in commands

    # self-contained: nothing to fetch, nothing to execute
    text = out.read_text()
    assert "<script" not in text and not re.search(r"\b(src|href)=", text)
    assert set(re.findall(r"https?://[^\s\"'<>]+", text)) == {"http://www.w3.org/2000/svg"}


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_screenshot_and_print(tmp_path: Path, hunted: tuple[Path, Path]) -> None:
    """The page (no script in it, and its Content-Security-Policy allows none) renders and prints."""
    suite, _ = hunted
    out = tmp_path / "report.html"
    assert isolate(suite, "report", VICTIM, "--html", str(out)).returncode == 0
    shot = tmp_path / "shot.png"
    assert "default-src 'none'" in out.read_text() and "<script" not in out.read_text()
    chromium("--hide-scrollbars", "--window-size=1000,1400",
             f"--screenshot={shot}", out.as_uri())
    assert png_size(shot) == (1000, 1400)
    assert shot.stat().st_size > 30_000  # a blank page compresses to a few kB
    pdf = tmp_path / "report.pdf"
    chromium("--no-pdf-header-footer", f"--print-to-pdf={pdf}", out.as_uri())
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))
    assert 1 <= pages <= 6


ODD_SUITE = {
    ".stestr.conf": "[DEFAULT]\ntest_path=./oddpkg/tests\ntop_dir=./\n",
    "oddpkg/__init__.py": "",
    "oddpkg/tests/__init__.py": "",
    "oddpkg/tests/test_odd.py": '''
"""Test ids that need escaping: the polluter's scenario name holds < & " ' >."""
import copy
import unittest

STATE = {"mode": "plain"}


class ModeTest(unittest.TestCase):
    scenarios = [("plain", "plain"), ("<b>&\\"it's\\"</b>", "loud")]
    scenario_name = None
    value = None

    def id(self):
        base = super().id()
        return base if self.scenario_name is None else "%s(%s)" % (base, self.scenario_name)

    def test_set_mode(self):
        STATE["mode"] = self.value


class AaaFillerTest(unittest.TestCase):
    def test_one(self):
        pass

    def test_two(self):
        pass


class ZzzVictimTest(unittest.TestCase):
    def test_mode_is_plain(self):
        self.assertEqual(STATE["mode"], "plain")


def load_tests(loader, tests, pattern):
    suite = unittest.TestSuite()
    suite.addTests(loader.loadTestsFromTestCase(AaaFillerTest))
    for name, value in ModeTest.scenarios:
        for test in loader.loadTestsFromTestCase(ModeTest):
            clone = copy.copy(test)
            clone.scenario_name, clone.value = name, value
            suite.addTest(clone)
    suite.addTests(loader.loadTestsFromTestCase(ZzzVictimTest))
    return suite
''',
}


def test_test_ids_are_escaped(tmp_path: Path) -> None:
    """A real hunt whose culprit's id holds < & " ' >: the page shows it as text, never as markup."""
    suite = tmp_path / "odd"
    for name, text in ODD_SUITE.items():
        (suite / name).parent.mkdir(parents=True, exist_ok=True)
        (suite / name).write_text(text)
    stestr_run(suite, "--serial")
    assert isolate(suite, "extract").returncode == 0
    proc = isolate(suite, "bisect", "test_mode_is_plain", "--json", "--fork-server")  # (forked: the subject is the page)
    assert proc.returncode == 0, proc.stderr
    culprit = "oddpkg.tests.test_odd.ModeTest.test_set_mode(<b>&\"it's\"</b>)"
    assert json.loads(proc.stdout)["culprits"] == [culprit]
    page_text = isolate(suite, "report", "test_mode_is_plain", "--html", "-")
    assert page_text.returncode == 0 and page_text.stdout.startswith("<!DOCTYPE html>")
    assert "(&lt;b&gt;&amp;&quot;it&#x27;s&quot;&lt;/b&gt;)" in page_text.stdout and "<b>&" not in page_text.stdout
    out = tmp_path / "odd.html"
    out.write_text(page_text.stdout)
    page = dom(out)
    assert [c.text for c in page.all("code", class_="culprit")] == [culprit]
    assert page.one("g", data_answer="0").attrs["data-name"] == culprit
    assert culprit in [td.text for td in page.one("table", id="cause-table").all("td")]
    assert culprit in page.one(id="reproducer-list").text
    assert not [b for b in page.all("b") if b.text == '&"it\'s"']  # no element made from the id


def test_a_running_hunt_and_errors(tmp_path: Path) -> None:
    """Before a verdict the page shows the leading answers and the first list; bad calls are one line."""
    suite = recording("deterministic_polluter", tmp_path, VICTIM)
    fresh = isolate(suite, "report", VICTIM, "--html", "-")
    assert fresh.returncode == 0 and "no verdict yet (not started)" in fresh.stdout
    assert "nothing to rank" in fresh.stdout and f"isolate bisect {VICTIM}" in fresh.stdout
    assert isolate(suite, "bisect", VICTIM, "--max-runs", "3").returncode == 5  # stopped early, undecided
    hunt_dir = suite / ".isolate" / hunt_name(VICTIM)
    (hunt_dir / "verdict.json").unlink()  # as while the hunt runs: no verdict yet
    (hunt_dir / "lock").write_text("1 elsewhere -\n")
    out = tmp_path / "running.html"
    assert isolate(suite, "report", VICTIM, "--html", str(out)).returncode == 0
    assert (hunt_dir / "lock").read_text() == "1 elsewhere -\n"  # read-only: the lock is left alone
    page = dom(out)
    assert "no verdict yet (running)" in page.one(id="headline").text
    assert "step-000.txt" in page.one(id="commands").text and "isolate bisect" in page.one(id="commands").text
    # QA: the lock of a hunt killed with -9 (its process gone, here) read as "running"
    import socket
    import subprocess
    gone = subprocess.Popen(["true"])
    gone.wait()
    (hunt_dir / "lock").write_text(f"{gone.pid} {socket.gethostname()} {Path('/proc/sys/kernel/random/boot_id').read_text().strip()}\n")
    stopped = isolate(suite, "report", VICTIM, "--html", "-")
    assert "no verdict yet (stopped (its process died mid-hunt;" in stopped.stdout, stopped.stdout[:2000]
    assert "(running)" not in stopped.stdout
    (hunt_dir / "lock").write_text("1 elsewhere -\n")
    assert len(page.one(id="timeline").all("rect", class_="run")) == 3
    assert_user_error(isolate(suite, "report", "nosuch", "--html", str(out)), "no hunt for")
    assert_user_error(isolate(suite, "report", VICTIM), "Missing option '--html'")
    assert_user_error(isolate(suite, "report", VICTIM, "--html", str(tmp_path / "no" / "dir.html")), "cannot write")


def test_a_missing_step_file_is_a_warning_not_a_crash(tmp_path: Path, hunted: tuple[Path, Path]) -> None:
    """report raised "math domain error" when a journal entry's step file was missing; status
    printed one warning per such entry."""
    suite = tmp_path / "suite"
    shutil.copytree(hunted[0], suite)
    hunt_dir = suite / ".isolate" / hunt_name(VICTIM)
    runs = sum(json.loads(line)["step"] == 1 for line in (hunt_dir / "journal.jsonl").read_text().splitlines())
    (hunt_dir / "step-001.txt").unlink()
    out = tmp_path / "r.html"
    proc = isolate(suite, "report", VICTIM, "--html", str(out))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "list file missing" in dom(out).one(id="step-table").text
    status = isolate(suite, "status", VICTIM).stdout
    assert status.count("step-001.txt missing or changed") == 1 and (runs == 1 or f"{runs} journal entries" in status)


def test_long_hunts_are_sampled() -> None:
    """At most MAX_POINTS posterior recomputations, every step's end and the last run among them."""
    assert _sample(7, [2, 7]) == [1, 2, 3, 4, 5, 6, 7]
    ends = [37 * k for k in range(1, 40)]
    xs = _sample(5000, ends)
    assert len(xs) <= MAX_POINTS and xs[-1] == 5000 and set(ends) <= set(xs) and xs == sorted(set(xs))
    many = _sample(5000, list(range(3, 5000, 3)))
    assert len(many) <= MAX_POINTS and many[-1] == 5000


def test_the_chart_ends_at_the_verdict_with_stored_runs_as_evidence(tmp_path: Path) -> None:
    """Stored runs come before the journal's: the chart's last point is the verdict's confidence,
    and its first counts them (a report that left them out, or counted them in place of the last
    runs, ends elsewhere)."""
    # stored runs with --random, the latest failing the victim, the earlier one evidence (as
    # tests/hunt/test_history.py's random_runs(tmp_path, 2): the recording is made once for both)
    suite = recording("deterministic_polluter", tmp_path, VICTIM, "--random", before=(("--random",),))
    proc = isolate(suite, "bisect", VICTIM, "--json", "--fork-server")  # (forked: the subject is the chart)
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["history_runs"] >= 1, verdict
    out = tmp_path / "report.html"
    assert isolate(suite, "report", VICTIM, "--html", str(out)).returncode == 0
    lines = dom(out).one("svg", id="chart").all("g", class_="answer")
    leader = next(g for g in lines if g.attrs["data-answer"] == "0")
    points = [(int(c.attrs["data-run"]), float(c.attrs["data-p"])) for c in leader.all("circle")]
    assert points[-1][0] == verdict["runs"] and f"{points[-1][1]:.3f}" == f"{verdict['confidence']:.3f}", points
    # what the chart is computed on: the stored runs first, then every run's observation, the last included
    hunt = Hunt(next((suite / ".isolate").glob("*/")), json.loads(next((suite / ".isolate").glob("*/hunt.json")).read_text()))
    ev = evidence(hunt)
    counted = _observations_after_each_entry(hunt, ev, read_journal(hunt)[0])
    assert counted[0] == ev.history[0] == verdict["history_runs"] and counted[-1] == len(ev.observations), counted


def test_a_cause_the_scan_found_is_named_under_the_chart_not_drawn_at_zero(tmp_path: Path) -> None:
    """The search's posterior never saw the scan's cause (every list of the search that held it
    also held its cleaner): drawn, it would sit at 0 beside a verdict that names it at 0.99.  It is
    named under the chart with its confidence instead, and the search's own cause is drawn."""
    victim = "unitsfmt.tests.test_d_report.ReportTest.test_distance_line"
    plain = "unitsfmt.tests.test_b_locale.LocaleTest.test_french_decimal_comma"
    masked = "unitsfmt.tests.test_a_units.UnitsTest.test_imperial_units"
    suite, _ = serial_recording("masked_polluter", tmp_path, victim)
    proc = isolate(suite, "bisect", victim, "--scan", "--json", "--fork-server")  # (forked: the subject is the page)
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    [scanned] = [c for c in verdict["causes"] if c["name"] == masked]
    out = tmp_path / "report.html"
    assert isolate(suite, "report", victim, "--html", str(out)).returncode == 0
    page = dom(out)
    drawn = {g.attrs["data-name"] for g in page.one("svg", id="chart").all("g", class_="answer")}
    assert plain in drawn and masked not in drawn, drawn
    note = page.one("p", id="scan-causes").text
    # as the verdict says it (words.probability): "> 0.999" where 3 decimals would round to 1.000
    assert masked in note and f"(confidence {probability(scanned['confidence'])})" in note, note
    # the headline counts the causes, as the text verdict does (it said "an earlier test")
    assert page.one(id="headline").all("b")[0].text == f"polluted by earlier tests: {len(verdict['causes'])} causes"
    assert len(verdict["causes"]) == 2
    # the scan's runs come after the search's: shaded and said, not read as the curves' (QA: the
    # curves ran flat over them, unexplained)
    queries = [json.loads(line) for line in (suite / ".isolate" / hunt_name(victim) / "queries.jsonl")
               .read_text().splitlines()]
    began = min(q["from"] for q in queries if q["reason"].startswith("scan: "))
    assert 0 < began < verdict["runs"]
    later = page.one("p", id="later-note").text
    assert f"From run {began + 1} on" in later and "the scan" in later, later
    assert page.one("svg", id="chart").all("rect", id="later-phases")


def test_a_batch_is_a_row_per_list_in_the_order_it_listed_them(tmp_path: Path, hunted: tuple[Path, Path]) -> None:
    """The lists of a batch run at once and their runs finish interleaved: `log` and the report
    listed a list again for every stretch of its runs, in the order they happened to finish, and
    gave the batch's reason to whichever finished first. Here each query's runs finish in the
    reverse of their start (any order may happen; this one always splits the old rows). The hunt
    is a copy of `hunted`'s (--jobs 4 --no-fork-server)."""
    suite = tmp_path / "suite"
    shutil.copytree(hunted[0], suite)
    hunt_dir = suite / ".isolate" / hunt_name(VICTIM)
    queries = [json.loads(line) for line in (hunt_dir / "queries.jsonl").read_text().splitlines()]
    lines = (hunt_dir / "journal.jsonl").read_text().splitlines(keepends=True)
    starts = sorted({q["from"] for q in queries})
    assert starts[0] == 0 and any(sum(q["from"] == s for q in queries) > 1 for s in starts), queries  # batches
    stretches = [lines[a:b][::-1] for a, b in zip(starts, [*starts[1:], len(lines)])]
    (hunt_dir / "journal.jsonl").write_text("".join(line for stretch in stretches for line in stretch))
    expected = []  # (step, size, runs, reproduced, reason) per list, as each query listed them
    for begin, stretch in zip(starts, stretches):
        said = None
        for q in (q for q in queries if q["from"] == begin):
            runs = [json.loads(line) for line in stretch if json.loads(line)["step"] == q["step"]]
            size = len((hunt_dir / f"step-{q['step']:03d}.txt").read_text().split()) - 1
            if runs:
                expected.append((q["step"], size, len(runs), sum(r["reproduced"] for r in runs),
                                 "" if q["reason"] == said else q["reason"]))
                said = q["reason"]
    log = isolate(suite, "log", VICTIM).stdout.splitlines()
    logged = [(*(int(g) for g in m.groups()[:4]), m.group(5) or "") for line in log
              if (m := re.search(r"step +(\d+): +(\d+) predecessors? \+ victim, +(\d+) runs?, +(\d+) reproduced(?: +(.*))?$",
                                 line))]
    assert logged == expected, "\n".join(log)
    page = Tree(isolate(suite, "report", VICTIM, "--html", "-").stdout).root
    rows = page.one("table", id="step-table").all("tr", class_="step-row")
    assert [(int(r.attrs["data-step"]), int(r.attrs["data-size"]), int(r.attrs["data-runs"]),
             int(r.attrs["data-fails"]), r.all("td")[-1].text) for r in rows] == expected


def test_an_answer_unlikely_but_not_ruled_out_is_not_shown_as_0_000(tmp_path: Path,
                                                                     hunted: tuple[Path, Path]) -> None:
    """The legend said '0.000 fails on its own': the search prunes such an answer, it does not rule it out."""
    suite, _ = hunted
    out = tmp_path / "report.html"
    assert isolate(suite, "report", VICTIM, "--html", str(out)).returncode == 0
    legend = Tree(out.read_text()).root.one("ul", class_="legend").all("li")
    shown = {li.one("span", class_="id").text: li.one("span", class_="p").text for li in legend}
    assert shown["fails on its own"] == "< 0.001", shown
    assert "0.000" not in shown.values() and "&lt;" in out.read_text()


def test_a_line_may_wrap_after_a_dot_of_a_test_id_but_not_inside_a_number() -> None:
    """QA: a <wbr> after every dot split "confidence 0.996" over two lines of the evidence table."""
    from isolate.report.html import e_id

    assert e_id("a.T.test_x <2> confidence 0.996, v1.2.x") == \
        "a.<wbr>T.<wbr>test_x &lt;2&gt; confidence 0.996, v1.2.<wbr>x"
    assert e_id("tests/test_a.py::test_b[1.5]") == "tests/test_a.<wbr>py::<wbr>test_b[1.5]"


def test_a_phone_wide_window_scrolls_the_tables_not_the_page(tmp_path: Path, hunted: tuple[Path, Path]) -> None:
    """QA: at 420 px the steps table widened the whole page, which scrolled sideways and cut
    every section. The page has no script (its policy allows none): a copy without the policy
    gets one that writes the page's widths into the DOM Chromium dumps."""
    suite, _ = hunted
    out = tmp_path / "report.html"
    assert isolate(suite, "report", VICTIM, "--html", str(out)).returncode == 0
    found = measured(tmp_path, out.read_text(), 'const d = document.documentElement, t ='
                     ' document.getElementById("step-table"); return [d.scrollWidth, d.clientWidth, t.offsetWidth];',
                     (420, 1000))
    for width, (page_width, window, table) in found.items():
        assert page_width <= window, (width, page_width, window)  # no sideways scroll of the page
        assert table >= 600, (width, table)  # the table keeps its columns readable, in a box that scrolls


def test_a_test_id_in_a_steps_reason_wraps_instead_of_widening_the_table(tmp_path: Path,
                                                                         hunted: tuple[Path, Path]) -> None:
    """QA: a hunt of sample_suites/several_polluters asked "is tills.tests.sales.test_rounding.
    RoundingModeTest.test_unknown_mode_rejected a cause too, like another test of its class?": the
    id, with no place to break, made the steps table 1007 px wide in a 929 px column at a
    1000 px window, and every reason was cut at the window's edge until scrolled."""
    from dataclasses import replace

    from isolate.hunt.store import hunts_for, hunts_root
    from isolate.report.html import gather, page_html

    suite, _ = hunted
    [hunt] = hunts_for(hunts_root(suite), VICTIM)
    page = gather(hunt)
    asked = ("is tills.tests.sales.test_rounding.RoundingModeTest.test_unknown_mode_rejected_with_a_longer_name"
             " a cause too, like another test of its class? alone before the victim")
    steps = (replace(page.steps[0], reason=asked), *page.steps[1:])
    found = measured(tmp_path, page_html(replace(page, steps=steps)), 'const t = document.getElementById("step-table");'
                     ' return [t.offsetWidth, t.parentElement.clientWidth];', (1000, 1280))
    for width, (table, box) in found.items():
        assert table <= box, (width, table, box)


def test_curves_that_start_after_the_first_run_say_why(hunted: tuple[Path, Path]) -> None:
    """QA (sample_suites/import_polluter): 12 passing runs left the chart's left part empty, with
    no word of why."""
    from dataclasses import replace

    from isolate.hunt.store import hunts_for, hunts_root
    from isolate.report.html import gather, page_html

    suite, _ = hunted
    [hunt] = hunts_for(hunts_root(suite), VICTIM)
    page = gather(hunt)
    assert page.first_failure is not None and page.lines[0].points[0][0] >= page.first_failure
    late = Tree(page_html(replace(page, first_failure=13))).root.one("p", id="first-note").text
    assert late.startswith("Before run 13, the first to reproduce the failure, there are no curves"), late
    assert 'id="first-note"' not in page_html(replace(page, first_failure=1))


def test_a_curve_equal_to_another_is_drawn_dashed_over_it_and_said_in_the_legend(hunted: tuple[Path, Path]) -> None:
    """QA: two answers tied all along were drawn as one line, the second's colour hidden under
    the first's. The page of a real hunt gets a second answer with the leader's very curve."""
    from dataclasses import replace

    from isolate.hunt.store import hunts_for, hunts_root
    from isolate.report.html import Line, gather, page_html, same_curves

    suite, _ = hunted
    [hunt] = hunts_for(hunts_root(suite), VICTIM)
    page = gather(hunt)
    leader = page.lines[0]
    twin = Line((1,), "a.T.test_twin", tuple((x, min(1.0, v + 0.004)) for x, v in leader.points))
    near = Line((2,), "a.T.test_near", tuple((x, v * 0.9) for x, v in leader.points))
    lines = (leader, twin, near, *page.lines[1:])
    assert same_curves(lines) == {1: 0}  # 0.004 apart everywhere is the same; 10% lower is not
    root = Tree(page_html(replace(page, lines=lines))).root
    chart = root.one("svg", id="chart")
    groups = chart.all("g", class_="answer")
    order = [int(g.attrs["data-answer"]) for g in groups]
    assert order.index(1) > order.index(0), order  # drawn after (over) the leader
    dashed = {int(g.attrs["data-answer"]): "stroke-dasharray" in g.one("polyline").attrs for g in groups}
    assert dashed == {k: k == 1 for k in range(len(lines))}, dashed
    assert groups[order.index(1)].attrs["data-same-as"] == "0"
    notes = [li.all("span", class_="twin") for li in root.one("ul", class_="legend").all("li")]
    assert [bool(n) for n in notes] == [k == 1 for k in range(len(lines))]
    assert "the same curve as" in notes[1][0].text and "test_set_default_currency" in notes[1][0].text


def test_a_class_causes_curve_ends_at_the_verdicts_confidence_not_its_best_members(tmp_path: Path) -> None:
    """QA: a module cause's curve and legend ended at 0.994 (its best member's probability, read
    off the search's leaders) under a headline and a cause table of 0.991."""
    victim = "xdgconf.tests.resolve.test_user_config.UserConfigFileTest.test_config_file_under_home"
    suite = recording("class_fixture_polluter", tmp_path, victim)
    proc = isolate(suite, "bisect", victim, "--json", "--fork-server")  # (forked: the subject is the chart)
    verdict = json.loads(proc.stdout)
    [cause] = verdict["causes"]
    assert proc.returncode == 0 and cause["scope"] == "class", verdict
    out = tmp_path / "report.html"
    assert isolate(suite, "report", victim, "--html", str(out)).returncode == 0
    page = Tree(out.read_text()).root
    line = next(g for g in page.one("svg", id="chart").all("g", class_="answer") if g.attrs["data-name"] == cause["name"])
    last = [c for c in line.all("circle")][-1]
    assert float(last.attrs["data-p"]) == pytest.approx(cause["confidence"], abs=1e-6), (last.attrs, cause)
    shown = {li.one("span", class_="id").text: li.one("span", class_="p").text
             for li in page.one("ul", class_="legend").all("li")}
    assert shown[cause["name"]] == probability(cause["confidence"]) == page.one(id="final-label").text


def test_a_long_parametrized_id_in_the_cause_table_wraps_instead_of_widening_it(tmp_path: Path,
                                                                                  hunted: tuple[Path, Path]) -> None:
    """QA: a pytest id of 250 characters without a space, in the cause's evidence, set the cause
    table's width: it overflowed the page at 1280 and 800 px and squeezed the cause column to a
    few characters a line. The page of a real hunt gets such a name in its verdict's cause."""
    from dataclasses import replace

    from isolate.hunt.store import hunts_for, hunts_root
    from isolate.report.html import gather, page_html

    suite, _ = hunted
    [hunt] = hunts_for(hunts_root(suite), VICTIM)
    page = gather(hunt)
    long_id = "tests/test_long.py::test_load[config/" + "very_long_segment_without_spaces_" * 7 + "]"
    verdict = json.loads(json.dumps(page.verdict))
    verdict["causes"][0]["evidence"][0] = f"fails 4/4 with {long_id} before it, 0/6 without"
    # QA (sample_suites/import_polluter at 1000 px): the scope column read "modu" over "le"
    verdict["causes"][0].update(scope="module", tests=["import:tabular.tests.test_semicolon_export"])
    html = page_html(replace(page, verdict=verdict))
    found = measured(tmp_path, html, 'const t = document.getElementById("cause-table"), r = document.createRange();'
                     ' r.selectNodeContents(t.querySelector("td.scope"));'
                     ' return [t.offsetWidth, t.parentElement.clientWidth, r.getClientRects().length];', (800, 1000, 1280))
    for width, (table, box, lines) in found.items():
        assert table <= box, (width, table, box)  # it wraps inside the page's column: nothing to scroll
        assert lines == 1, (width, lines)  # the scope, one word, on one line
