"""Mutation testing of the rules package (``shared/mathable``) with mutmut 3.

Do the rules tests (``tests/rules``) notice a change of behaviour? mutmut
changes one thing at a time in the rules package (an operator, a constant, a
string, a condition...) and runs the tests that reach the changed function; a
mutant the tests still pass on "survives". This script runs it and prints, per
module, the share of mutants killed among those that are not equivalent to the
original (``bench/mutation_equivalents.txt`` lists those, each with its reason).

Install (not part of ``dev``: CI never runs this)::

    .venv/bin/pip install -e '.[dev,mutation]'

Run::

    .venv/bin/python bench/mutation.py --sample 20 --seed 1      # quick: 20 mutants a module
    .venv/bin/python bench/mutation.py --modules view,board      # full run of two modules
    .venv/bin/python bench/mutation.py                           # full run of every module
    .venv/bin/python bench/mutation.py --report                  # scores of the last runs
    .venv/bin/python bench/mutation.py --modules view --again    # rerun view's survivors
    .venv/bin/python bench/mutation.py --survivors view          # diffs of view's survivors
    .venv/bin/python bench/mutation.py --missing --quick         # quickest tests first, forked

mutmut 3 only finds the package it mutates under ``./``, ``src/`` or ``source/``
and names mutants by file path, while this repository keeps the rules in
``shared/mathable`` (``core/``, ``core/lifecycle/``, ``games/mathable/``, ``games/summy/``)
and the translations in ``shared/mathable_i18n``. So the script mirrors both packages
(their catalogs too) into ``.mutation/src/``, the tests (``TEST_PATHS``: ``tests/rules``
and the two tests of ``tests/i18n`` that need nothing but the two packages) into
``.mutation/tests``, writes mutmut's configuration there, and runs mutmut in that folder
(ignored by git). Mutants are regenerated for a module whose source changed; results of
earlier runs stay, so ``--report`` shows the latest result of every mutant run. A
module is named by its path under ``mathable`` (``core.lifecycle.creation``,
``games.summy.picture``, ``core.lifecycle.__init__``), the translations' ``mathable_i18n``.

Which tests a mutant runs: mutmut first runs every test once with each function of the
mutated packages counting its callers (its "stats", ``mutants/mutmut-stats.json``), then
runs for each mutant only the tests that reached the mutated function, the fastest
mutants first. ``--keep-stats`` keeps that measure when tests were only added (mutmut
measures the new ones alone); else any change of the tests measures them all again.

Games are found through their entry points (``mathable.core.plugins``): the entry
points name modules, which the mutated copy answers to, since ``mutants/src`` comes first
on the path. A test that starts its own Python process (a log read by a process that has
loaded nothing, the lookup of one game alone) runs the mutant too: the stage's
``conftest.py`` puts ``mutants/src`` first on ``PYTHONPATH`` for such processes, which
inherit ``MUTANT_UNDER_TEST``; while mutmut measures, a ``sitecustomize`` in
``mutants/hooks`` writes the functions such a process reached, and the conftest counts
them for the test that started it. The mutated modules are compiled once when the stage
is made (a fresh process would otherwise compile files holding every mutant each time).

The tests run under the Hypothesis profile ``mutation`` (tests/rules/conftest.py):
no shrinking, no example database, derandomized, so a kill is a failing example,
not a timeout, and the same mutant gets the same verdict every run.
Doctests are not run: the scores count the rules tests only.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The packages mutated, by their import name: the rules package and the translations.
PACKAGES = {name: ROOT / "shared" / name for name in ("mathable", "mathable_i18n")}
PACKAGE = PACKAGES["mathable"]
TESTS = ROOT / "tests"
STAGE = ROOT / ".mutation"
EQUIVALENTS = ROOT / "bench" / "mutation_equivalents.txt"
#: The results of earlier runs, kept in the repository (``--save``): a machine's stage does
#: not outlive it, and a run of every module takes longer than one sitting.
SAVED = ROOT / "bench" / "mutation_results.json.gz"
MUTANTS = STAGE / "mutants" / "src"

#: The tests run against the mutants: the rules tests, and the tests of the rules' words in
#: every language that need nothing but the two packages (and ``scripts/catalogs.py``).
TEST_PATHS = (
    "tests/rules",
    "tests/i18n/test_rules_words.py",
    "tests/i18n/test_catalogs.py",
    "tests/i18n/test_rulebook_pages.py",
)

#: Tests that fail on every mutant for mutmut's own doing, left out of the runs.
DESELECTED = (
    # mutmut's trampolines import mutmut into the package.
    "tests/rules/test_material.py::test_rules_package_imports_only_the_standard_library",
    # mutmut adds its copies of the methods (``xǁRulesǁcheck__mutmut_1``...) to the classes.
    "tests/rules/core/test_ruleset.py::"
    "test_the_interface_is_its_sections_each_member_once_and_with_its_docstring",
    # mutmut's trampoline is one frame more between the importer and the warning.
    "tests/rules/test_public_api.py::"
    "test_an_old_module_paths_warning_points_at_the_line_that_imports_it",
    "tests/rules/core/test_plugin_listing.py::"
    "test_a_broken_game_s_warning_points_at_the_line_that_asked_for_the_games",
    "tests/rules/core/test_computer.py::"
    "test_a_broken_engine_s_warning_points_at_the_line_that_asked_for_the_engines",
)

CONFIG_TEMPLATE = """\
# Written by bench/mutation.py: mutmut's configuration for the mirrored rules package.
[tool.mutmut]
source_paths = ["src/mathable", "src/mathable_i18n"]
# The rulebook test compares docs/rules.md with what the (mutated) rulebook writes; the
# layout and refusal scans read the original source under shared/; test_catalogs reads
# scripts/ and the other packages' catalogs; hooks/ holds what lets a test's own Python
# process run the mutant (and count in the stats), see HOOK_CONFTEST in bench/mutation.py.
also_copy = ["docs", "shared", "scripts", "hooks", "conftest.py"]
pytest_add_cli_args_test_selection = {tests!r}
# A mutant that loops runs into its CPU limit: 10x its tests' measured time and 10 s
# (mutmut's default, 30x and 30 s, spent most of a full run's time on a few loops).
timeout_multiplier = 5.0
pytest_add_cli_args = [
    "-p", "no:cacheprovider",
    # Tests that would fail every mutant for mutmut's own doing (DESELECTED).
    {deselected}
]

[tool.pytest.ini_options]
testpaths = ["tests/rules"]
addopts = "--strict-markers"
filterwarnings = ["error"]
# No wall-clock limit: a loop is caught by mutmut's CPU limit, and a run paused (SIGSTOP,
# for a benchmark) or slowed by a busy machine must not fail a test, which would count
# its mutant killed (or stop the measure of the tests: the first full run did so).
timeout = 0
markers = [
    "postgres: needs a database",
    "e2e: starts real server processes",
    "both_databases: runs on SQLite and PostgreSQL",
]
"""


def config_text(tests: list[str] | None = None) -> str:
    """mutmut's configuration, its mutants run against ``tests`` (default: ``TEST_PATHS``)."""
    chosen = list(tests) if tests else list(TEST_PATHS)
    deselected = "".join(f'"--deselect", "{test}", ' for test in DESELECTED)
    return CONFIG_TEMPLATE.format(tests=chosen, deselected=deselected)


# A test that starts its own Python process (``sys.executable -c ...``: a fresh process
# that has imported nothing, as a server after a restart) must run the mutant too, not the
# original package the editable install points at. The stage's conftest puts
# ``mutants/src`` (and ``mutants/hooks``) first on ``PYTHONPATH`` for every test, so such a
# process imports the mutated package and inherits ``MUTANT_UNDER_TEST``. While mutmut
# measures which tests reach which function (``MUTANT_UNDER_TEST=stats``), the process
# writes the functions it reached to a file at its exit (``sitecustomize`` below), and the
# conftest adds them to the test's before mutmut reads them: a function only a fresh
# process reaches (the loading of a game through its entry point) gets its tests.
HOOK_CONFTEST = """\
# Written by bench/mutation.py: fresh Python processes of a test run the mutant too.
import os
from pathlib import Path

import pytest

_HERE = Path(__file__).resolve().parent
_HITS = _HERE / "fresh-process-hits"


def pytest_configure(config):
    paths = [str(_HERE / "src"), str(_HERE / "hooks")]
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(paths + ([old] if old else []))
    os.environ["MATHABLE_MUTATION_HITS"] = str(_HITS)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item, nextitem):
    if not _HITS.is_dir():
        return
    from mutmut.state import state

    for found in _HITS.glob("*.hits"):
        state()._stats.update(n for n in found.read_text().split() if n)
        found.unlink()


def pytest_collection_modifyitems(session, config, items):
    # A mutant's tests, the quickest first (mutmut hands them over as a set: in any order,
    # a 60 s property test could run before the 5 ms test that kills the mutant). The same
    # tests run, so the verdict is the same; a killed mutant is told sooner.
    if os.environ.get("MUTANT_UNDER_TEST", "") in ("", "stats", "fail", "mutant_generation"):
        return
    try:
        from mutmut.state import state
    except ImportError:
        return
    durations = state().duration_by_test
    if durations:
        items.sort(key=lambda item: durations.get(item.nodeid, 0.0))
"""

HOOK_SITECUSTOMIZE = """\
# Written by bench/mutation.py: a test's fresh Python process says which functions of the
# mutated package it reached while mutmut measures them (see bench/mutation.py).
import atexit
import os


def _write_hits():
    if os.environ.get("MUTANT_UNDER_TEST") != "stats":
        return
    folder = os.environ.get("MATHABLE_MUTATION_HITS")
    if not folder:
        return
    try:
        from mutmut.state import state
    except ImportError:
        return
    found = state()._stats
    if found:
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"{os.getpid()}.hits"), "w") as out:
            out.write("\\n".join(sorted(found)))


if os.environ.get("MUTANT_UNDER_TEST") == "stats" and os.environ.get("MATHABLE_MUTATION_HITS"):
    # Read mutmut's configuration now: read first at a hit, it would import tomllib through
    # the rules package's own (counted, so configuration-reading) module finder, endlessly.
    from mutmut.configuration import config

    config()
    atexit.register(_write_hits)
"""

# Runs inside the stage: mutmut's own steps that write the mutants, without running them.
GENERATE = """\
from mutmut.__main__ import copy_also_copy_files, copy_src_dir, create_mutants
from mutmut.__main__ import set_mutant_under_test
import os
os.makedirs("mutants", exist_ok=True)
set_mutant_under_test("mutant_generation")
copy_src_dir()
copy_also_copy_files()
create_mutants(1)
"""

# Runs inside the stage: the diff of each named mutant, as JSON.
DIFFS = """\
import json, sys
from mutmut.mutation.diff_apply import get_diff_for_mutant
paths = json.load(sys.stdin)  # each mutant's name: its module's file in the stage
out = {}
for name in paths:
    out[name] = get_diff_for_mutant(name, path=paths[name])
json.dump(out, sys.stdout)
"""

KILLED = {1, 3}  # pytest failed, or failed inside pytest: the tests noticed
TIMEOUT = {36, -24, 24, 152, 255}
STATUS = {0: "survived", 5: "no tests", 33: "no tests", 34: "skipped", None: "not run"}


def status_of(code: int | None) -> str:
    if code in KILLED:
        return "killed"
    if code in TIMEOUT:
        return "timeout"
    return STATUS.get(code, "suspicious")


def _copy_if_changed(source: Path, target: Path) -> bool:
    if target.exists() and target.read_bytes() == source.read_bytes():
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, target)
    return True


def _files(folder: Path) -> set[Path]:
    """Every file under ``folder`` (tests and their fixtures), caches left out."""
    return {p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def _package_files(folder: Path) -> list[Path]:
    """A package's modules and the data it reads (its catalogs): what is mutated and shipped."""
    return sorted(
        p
        for p in _files(folder)
        if p.suffix in (".py", ".po", ".typed") and "__pycache__" not in p.parts
    )


def sync_stage(keep_stats: bool = False, tests: list[str] | None = None) -> None:
    """Mirror the packages and their tests into the stage; drop what a change made stale.

    A changed test drops the measure of which tests reach which function (it is taken again,
    a few minutes), unless ``keep_stats``: then mutmut measures only the tests it has not seen
    (new names), which is enough while tests are only added."""
    STAGE.mkdir(exist_ok=True)
    tests_changed = False
    for name, folder in PACKAGES.items():
        for source in _package_files(folder):
            relative = source.relative_to(folder)
            # The original source, for the tests that scan it (layout, refusals' details).
            _copy_if_changed(source, STAGE / source.relative_to(ROOT))
            if _copy_if_changed(source, STAGE / "src" / name / relative):
                # mutmut keeps a mutated file once written: regenerate this module's mutants.
                for stale in (MUTANTS / name / relative, MUTANTS / name / f"{relative}.meta"):
                    stale.unlink(missing_ok=True)
                tests_changed |= source.suffix != ".py"
    wanted = {TESTS / "__init__.py", ROOT / "docs" / "rules.md"}
    # The rule books the rulebook tests compare, the refusals the conftest holds to.
    wanted |= {p for p in _files(ROOT / "docs") if p.name.startswith(("rules", "errors"))}
    wanted |= _files(TESTS / "rules") | _files(TESTS / "i18n")
    wanted |= {p for p in _files(ROOT / "scripts") if p.suffix == ".py"}
    for other in ("server/mathable_server", "client/mathable_cli"):  # their catalogs
        wanted |= {p for p in _files(ROOT / other / "locales") if p.suffix == ".po"}
    for source in wanted:
        tests_changed |= _copy_if_changed(source, STAGE / source.relative_to(ROOT))
    for kept in ("tests/rules", "tests/i18n"):
        for old in _files(STAGE / kept):
            if ROOT / old.relative_to(STAGE) not in wanted:
                old.unlink()
                tests_changed = True
    for path, text in (
        (STAGE / "pyproject.toml", config_text(tests)),
        (STAGE / "conftest.py", HOOK_CONFTEST),
        (STAGE / "hooks" / "sitecustomize.py", HOOK_SITECUSTOMIZE),
    ):
        if not path.exists() or path.read_text() != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            tests_changed = True
    for name in PACKAGES:
        for left in (MUTANTS / name).rglob("*.py") if (MUTANTS / name).exists() else ():
            # A file mutmut copied but never mutated (a generation stopped half way) would be
            # kept as it is, and its module have no mutants: written again.
            if "__pycache__" not in left.parts and not left.with_name(left.name + ".meta").exists():
                left.unlink()
    if tests_changed and not keep_stats:
        # Which tests reach which function is measured again with the new tests.
        shutil.rmtree(STAGE / "mutants" / "tests", ignore_errors=True)
        (STAGE / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    subprocess.run([sys.executable, "-c", GENERATE], cwd=STAGE, check=True, capture_output=True)
    # Compiled once here: a test's own Python process then reads the mutated modules'
    # bytecode instead of compiling files that hold every mutant (seconds of CPU each time,
    # and more than a test's timeout at nice 19 on a loaded machine). Written even where
    # PYTHONDONTWRITEBYTECODE is set, which would keep the processes from writing it.
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "src"],
        cwd=STAGE / "mutants",
        check=True,
        capture_output=True,
    )


def results() -> dict[str, int | None]:
    """Every mutant mutmut generated, with the exit code of its last run (None: not run)."""
    out: dict[str, int | None] = {}
    for meta in sorted(MUTANTS.rglob("*.py.meta")):
        if not meta.with_suffix("").exists():  # left from a module since removed
            continue
        out.update(_read_meta(meta)["exit_code_by_key"])
    return out


def _function_of(name: str) -> str:
    """The function a mutant changes, as mutmut names it in a module's hashes."""
    return name.partition("__mutmut_")[0].rpartition(".")[2]


def _load_saved(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    saved: dict[str, Any] = json.loads(gzip.decompress(path.read_bytes()))["modules"]
    return saved


def save_results(path: Path = SAVED) -> int:
    """Write every result the stage holds to ``path``, with the hash of each function as
    mutmut made its mutants (``hash_by_function_name``), keeping the results saved before
    that the stage has none of (another part of the run, or ones mutmut reset when it
    measured new tests) where the function is unchanged; return how many are saved."""
    modules = _load_saved(path)
    for meta in sorted(MUTANTS.rglob("*.py.meta")):
        if not meta.with_suffix("").exists():
            continue
        found = _read_meta(meta)
        hashes = found["hash_by_function_name"]
        relative = meta.relative_to(MUTANTS).as_posix()
        before = modules.get(relative, {"hashes": {}, "results": {}})
        kept = {
            name: code
            for name, code in before["results"].items()
            if name in found["exit_code_by_key"]
            and before["hashes"].get(_function_of(name)) == hashes.get(_function_of(name))
        }
        kept.update({k: v for k, v in found["exit_code_by_key"].items() if v is not None})
        if kept:
            used = {_function_of(k) for k in kept}
            modules[relative] = {
                "hashes": {f: h for f, h in sorted(hashes.items()) if f in used},
                "results": dict(sorted(kept.items())),
            }
        else:
            modules.pop(relative, None)
    text = json.dumps({"format": 1, "modules": modules}, indent=0, sort_keys=True)
    # mtime 0: the same results make the same file.
    path.write_bytes(gzip.compress(text.encode(), mtime=0))
    return sum(len(m["results"]) for m in modules.values())


def restore_results(path: Path = SAVED) -> int:
    """Take the saved result of every mutant that has none in the stage and whose function
    is unchanged (the hash mutmut gives it is the saved one): mutmut's own rule for keeping
    a result when a module changes. Return how many were taken."""
    taken = 0
    for relative, module in _load_saved(path).items():
        meta = MUTANTS / relative
        if not meta.exists():
            continue
        found = _read_meta(meta)
        codes, hashes = found["exit_code_by_key"], found["hash_by_function_name"]
        changed = False
        for name, code in module["results"].items():
            function = _function_of(name)
            if name in codes and codes[name] is None and function in hashes:
                if module["hashes"].get(function) == hashes[function]:
                    codes[name] = code
                    changed = True
                    taken += 1
        if changed:
            meta.write_text(json.dumps(found, indent=4))
    return taken


def _read_meta(meta: Path) -> dict[str, Any]:
    """A module's results; read again while a run is rewriting the file (a report read
    during a run could catch it half written)."""
    for _ in range(20):
        try:
            found: dict[str, Any] = json.loads(meta.read_text())
            return found
        except json.JSONDecodeError:
            time.sleep(0.05)
    found = json.loads(meta.read_text())
    return found


def _is_package(dotted: str) -> bool:
    """``games.summy`` -> is ``src/mathable/games/summy`` a package (of the stage's copy)?"""
    return (STAGE / "src" / "mathable" / dotted.replace(".", "/") / "__init__.py").exists()


def module_of(name: str) -> str:
    """The module a mutant is in, as a path under the rules package without ``.py``.

    ``mathable.games.mathable.board.x_f__mutmut_1`` is games.mathable.board's,
    ``mathable.x_f__mutmut_1`` is __init__'s, ``mathable.games.summy.x_f__mutmut_1``
    games.summy.__init__'s, ``mathable.core.lifecycle.x_f__mutmut_1``
    core.lifecycle.__init__'s; the translations' are ``mathable_i18n``'s.
    """
    top, *parts = name.split(".")[:-1]  # the function's name left out
    if top != "mathable":
        return ".".join([top, *parts])
    path = ".".join(parts)
    if not path:
        return "__init__"
    return f"{path}.__init__" if _is_package(path) else path


def source_of(module: str) -> str:
    """``games.summy.equation`` -> ``src/mathable/games/summy/equation.py``: the stage's
    copy of a module (``mathable_i18n`` -> ``src/mathable_i18n/__init__.py``)."""
    if module.split(".")[0] in PACKAGES and module != "__init__":
        top, _, rest = module.partition(".")
        return f"src/{top}/" + (rest.replace(".", "/") if rest else "__init__") + ".py"
    return "src/mathable/" + module.replace(".", "/") + ".py"


def load_equivalents() -> dict[str, tuple[str, str]]:
    """``mutant name | the line it adds | why it behaves like the original``, one a line."""
    out: dict[str, tuple[str, str]] = {}
    for raw in EQUIVALENTS.read_text().splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        # The changed line may hold " | " itself (a type union): the reason never does.
        name, rest = raw.split(" | ", 1)
        line, reason = rest.rsplit(" | ", 1)
        name, line, reason = name.strip(), line.strip(), reason.strip()
        out[name] = (line, reason)
    return out


def diffs(names: list[str]) -> dict[str, str]:
    if not names:
        return {}
    # On stdin, not as an argument: the names of a big module's survivors exceed ARG_MAX.
    done = subprocess.run(
        [sys.executable, "-c", DIFFS],
        cwd=STAGE,
        input=json.dumps({n: source_of(module_of(n)) for n in names}),
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, str] = json.loads(done.stdout)
    return found


def added_line(diff: str) -> str:
    """The first line the mutant adds, stripped (or ``-`` and the first line it removes)."""
    lines = diff.splitlines()
    for line in lines:
        if line.startswith("+") and not line.startswith("+++"):
            return line[1:].strip()
    for line in lines:
        if line.startswith("-") and not line.startswith("---"):
            return "-" + line[1:].strip()
    return ""


def check_equivalents(equivalents: dict[str, tuple[str, str]]) -> list[str]:
    """Entries whose mutant no longer exists or now changes another line."""
    known = results()
    present = [n for n in equivalents if n in known]
    found = diffs(present)
    stale = [n for n in equivalents if n not in known]
    stale += [n for n in present if added_line(found[n]) != equivalents[n][0]]
    return stale


def choose(
    names: list[str], modules: list[str], sample: int | None, seed: int
) -> dict[str, list[str]]:
    by_module: dict[str, list[str]] = {m: [] for m in modules}
    for name in sorted(names):
        if module_of(name) in by_module:
            by_module[module_of(name)].append(name)
    if sample is not None:
        for module, found in by_module.items():
            rng = random.Random(f"{seed}:{module}")
            by_module[module] = sorted(rng.sample(found, min(sample, len(found))))
    return by_module


# Runs inside the stage's mutants/ folder (after mutmut measured the tests): each mutant
# named on stdin against the quickest tests that reach its function, each a forked child
# of this one process, which imported every test once (see quick_pass).
QUICK = """\
import json, os, resource, signal, sys, time
job = json.load(sys.stdin)
sys.path.insert(0, os.path.abspath("src"))
os.environ["MATHABLE_HYPOTHESIS_PROFILE"] = "mutation"
os.environ["MUTANT_UNDER_TEST"] = ""
import pytest
args = ["-x", "-q", "--tb=no", "-p", "no:randomly", "-p", "no:cacheprovider", "--no-header"]
for test in job["deselected"]:
    args += ["--deselect", test]
null = os.open(os.devnull, os.O_WRONLY)
kept = os.dup(1)
os.dup2(null, 1)
pytest.main(["-q", "--collect-only", "-p", "no:cacheprovider", *job["paths"]])
os.dup2(kept, 1)
out = open(job["out"], "a")
running = {}
def reap():
    pid, status = os.wait()
    name, started = running.pop(pid)
    if os.WIFEXITED(status):
        code = os.WEXITSTATUS(status)
        verdict = {1: "killed", 0: "passed"}.get(code, f"exit {code}")
    elif os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):  # the CPU limit
        verdict = "ran out of time"
    else:
        verdict = f"signal {os.WTERMSIG(status)}"
    out.write(json.dumps({"name": name, "verdict": verdict, "hash": job["hashes"][name],
                          "seconds": round(time.time() - started, 2),
                          "each": job["each"], "budget": job["budget"],
                          "first": job["first"]}) + "\\n")
    out.flush()
for name, tests, limit in job["plan"]:
    while len(running) >= job["jobs"]:
        reap()
    pid = os.fork()
    if pid == 0:
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.environ["MUTANT_UNDER_TEST"] = name
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
        try:
            code = pytest.main(args + tests)
        except BaseException:
            code = 99
        os._exit(int(code))
    running[pid] = (name, time.time())
while running:
    reap()
out.close()
"""

#: The quick pass: tests each measured at most this long (s), at most this much in all.
QUICK_TEST_SECONDS = 1.0
QUICK_BUDGET_SECONDS = 3.0
QUICK_RESULTS = STAGE / "quick.jsonl"


def quick_plan(
    names: list[str],
    each: float = QUICK_TEST_SECONDS,
    budget: float = QUICK_BUDGET_SECONDS,
    first: Sequence[str] = (),
    only: Sequence[str] = (),
) -> list[tuple[str, list[str], int]]:
    """Each mutant with the quickest tests (by mutmut's measure) that reach its function,
    quickest first (those whose id holds one of ``first`` before the others): tests of at
    most ``each`` seconds, up to ``budget`` in all; and its CPU limit, mutmut's rule (10x
    their time and 10 s). With ``only`` (test files or ids): those tests for every mutant,
    with 120 s of CPU (tests written since mutmut measured them, which it has not seen)."""
    if only:
        return [(name, list(only), 120) for name in names]
    stats = json.loads((STAGE / "mutants" / "mutmut-stats.json").read_text())
    durations, reaching = stats["duration_by_test"], stats["tests_by_mangled_function_name"]
    plan = []
    from mutmut.utils.format_utils import mangled_name_from_mutant_name

    for name in names:
        mangled = mangled_name_from_mutant_name(name)
        found = sorted(
            (t for t in reaching.get(mangled, []) if durations.get(t, 0) <= each),
            key=lambda t: (not any(part in t for part in first), durations.get(t, 0)),
        )
        tests: list[str] = []
        spent = 0.0
        for test in found:
            if tests and spent + durations.get(test, 0) > budget:
                break
            tests.append(test)
            spent += durations.get(test, 0)
        if tests:
            plan.append((name, tests, int(10 * spent + 10)))
    return plan


def quick_pass(
    names: list[str],
    jobs: int,
    each: float = QUICK_TEST_SECONDS,
    budget: float = QUICK_BUDGET_SECONDS,
    first: Sequence[str] = (),
    only: Sequence[str] = (),
) -> list[str]:
    """Run each mutant against the quickest tests that reach it (``quick_plan``) and record a
    kill as mutmut's own (exit code 1); return the mutants left for mutmut.

    A kill by any of the tests is a kill by all of them, which mutmut would find with
    ``-x`` too, only later (a survivor of the slow modules costs mutmut a minute or more of
    every test that reaches it). A mutant that runs out of the CPU time mutmut would give
    those tests (10x their measured time and 10 s: a loop, or a search made endless) is
    recorded as mutmut records one, a timeout. The rest go to mutmut with every test.
    Resumable: verdicts are kept in ``quick.jsonl``; a mutant that passed a narrower
    choice of tests (``each``, ``budget``) is run again with a wider one."""
    hashes = _function_hashes(names)
    chosen = [*first, *(f"only:{test}" for test in only)]
    done = _quick_verdicts(hashes, each, budget, chosen)
    plan = [step for step in quick_plan(names, each, budget, first, only) if step[0] not in done]
    print(f"quick pass: {len(plan)} mutants ({len(done)} done before)", file=sys.stderr)
    if plan:
        job = {
            "plan": plan, "jobs": jobs, "out": str(QUICK_RESULTS), "paths": list(TEST_PATHS),
            "deselected": list(DESELECTED), "hashes": hashes, "each": each, "budget": budget,
            "first": chosen,
        }  # fmt: skip
        subprocess.run(
            [sys.executable, "-c", QUICK], cwd=STAGE / "mutants", input=json.dumps(job),
            text=True, check=True,
        )  # fmt: skip
        done = _quick_verdicts(hashes, each, budget, chosen)
    record(done, names)
    return [n for n in names if done.get(n) not in ("killed", "ran out of time")]


def _function_hashes(names: list[str]) -> dict[str, str]:
    """Each mutant's function's hash, as mutmut made its mutants (the stage's results)."""
    out: dict[str, str] = {}
    read: dict[Path, dict[str, str]] = {}
    for name in names:
        meta = MUTANTS / (source_of(module_of(name))[4:] + ".meta")
        if meta not in read:
            read[meta] = _read_meta(meta)["hash_by_function_name"]
        out[name] = read[meta].get(_function_of(name), "")
    return out


def _quick_verdicts(
    hashes: dict[str, str],
    each: float = QUICK_TEST_SECONDS,
    budget: float = QUICK_BUDGET_SECONDS,
    first: Sequence[str] = (),
) -> dict[str, str]:
    """The quick pass's verdicts kept in ``quick.jsonl`` for these mutants, where the
    function is still the one it ran (a module made again names new mutants alike); a
    pass counts only if its tests were chosen as widely (``each``, ``budget``) or more,
    with the same tests first."""
    if not QUICK_RESULTS.exists():
        return {}
    out: dict[str, str] = {}
    for row in map(json.loads, QUICK_RESULTS.open()):
        if hashes.get(row["name"], 0) != row.get("hash"):
            continue
        narrower = row.get("each", QUICK_TEST_SECONDS) < each
        narrower |= row.get("budget", QUICK_BUDGET_SECONDS) < budget
        narrower |= row.get("first", []) != list(first)
        if row["verdict"] in QUICK_CODES or not narrower:
            out[row["name"]] = row["verdict"]
    return out


#: The exit codes the quick pass records, as mutmut's: killed, and out of its CPU time.
QUICK_CODES = {"killed": 1, "ran out of time": 36}


def record(verdicts: dict[str, str], names: list[str]) -> None:
    """Write the quick pass's kills and timeouts of these mutants into the stage's results."""
    by_meta: dict[Path, list[str]] = {}
    for name in names:
        if verdicts.get(name) in QUICK_CODES:
            meta = MUTANTS / (source_of(module_of(name))[4:] + ".meta")
            by_meta.setdefault(meta, []).append(name)
    for meta, found in by_meta.items():
        data = _read_meta(meta)
        for name in found:
            data["exit_code_by_key"][name] = QUICK_CODES[verdicts[name]]
        meta.write_text(json.dumps(data, indent=4))


def run_mutants(names: list[str], jobs: int) -> None:
    env = dict(os.environ, MATHABLE_HYPOTHESIS_PROFILE="mutation")
    mutmut = Path(sys.executable).with_name("mutmut")
    command = [str(mutmut), "run", "--max-children", str(jobs), *names]
    log = STAGE / "last-run.log"
    with log.open("w") as out:
        done = subprocess.run(command, cwd=STAGE, env=env, stdout=out, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        print(f"mutmut exited with {done.returncode}; see {log}", file=sys.stderr)


def report(by_module: dict[str, list[str]], equivalents: dict[str, tuple[str, str]]) -> list[str]:
    """Print the score table; return the names of the survivors."""
    codes = results()
    survivors: list[str] = []
    header = f"{'module':<16}{'mutants':>8}{'equiv':>7}{'killed':>8}{'timeout':>8}"
    header += f"{'survived':>9}{'no test':>8}{'not run':>8}{'score':>8}"
    print(header)
    totals: Counter[str] = Counter()
    for module, names in by_module.items():
        counts: Counter[str] = Counter()
        for name in names:
            status = "equivalent" if name in equivalents else status_of(codes.get(name))
            counts[status] += 1
            if status in ("survived", "no tests", "suspicious", "skipped"):
                survivors.append(name)
        counts["mutants"] = len(names)
        totals.update(counts)
        print(_row(module, counts))
    print(_row("all", totals))
    return survivors


def _row(module: str, c: Counter[str]) -> str:
    judged = c["mutants"] - c["equivalent"] - c["not run"]
    caught = c["killed"] + c["timeout"]
    score = f"{100 * caught / judged:.1f}%" if judged else "-"
    missed = c["no tests"] + c["suspicious"] + c["skipped"]
    return (
        f"{module:<16}{c['mutants']:>8}{c['equivalent']:>7}{c['killed']:>8}{c['timeout']:>8}"
        f"{c['survived']:>9}{missed:>8}{c['not run']:>8}{score:>8}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", help="comma-separated modules of mathable (default: all)")
    parser.add_argument("--sample", type=int, help="run this many mutants a module, chosen by seed")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample (default 1)")
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument(
        "--again", action="store_true", help="run only the chosen mutants not killed last time"
    )
    parser.add_argument(
        "--keep-stats",
        action="store_true",
        help="keep the measure of which tests reach which function when tests changed "
        "(mutmut then measures only new tests: enough while tests are only added)",
    )
    parser.add_argument(
        "--tests",
        help="comma-separated test paths the mutants run against (default: every path of "
        "TEST_PATHS); a narrower choice is quicker and can only score lower",
    )
    parser.add_argument(
        "--missing", action="store_true", help="run only the chosen mutants with no result yet"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="first run each mutant against the quickest tests that reach it, in forked "
        "children of one process (a kill there is recorded as mutmut's); mutmut runs the rest",
    )
    parser.add_argument(
        "--quick-seconds",
        type=float,
        default=QUICK_TEST_SECONDS,
        help="the quick pass's tests: each measured at most this long "
        f"(default {QUICK_TEST_SECONDS:g} s)",
    )
    parser.add_argument(
        "--quick-budget",
        type=float,
        default=QUICK_BUDGET_SECONDS,
        help="the quick pass's tests: at most this long in all "
        f"(default {QUICK_BUDGET_SECONDS:g} s)",
    )
    parser.add_argument(
        "--quick-first",
        help="comma-separated parts of test ids (a module's own test file) the quick pass "
        "takes first, before quicker tests",
    )
    parser.add_argument(
        "--quick-tests",
        help="comma-separated test files or ids the quick pass runs for every chosen mutant "
        "instead of mutmut's choice (tests written since mutmut measured the tests)",
    )
    parser.add_argument(
        "--quick-only",
        action="store_true",
        help="--quick, and stop there: mutants its tests did not kill keep no result "
        "(to be looked at, or run later without it)",
    )
    parser.add_argument(
        "--save",
        action="store_true",
        help=f"write the stage's results to {SAVED.relative_to(ROOT)} (a new stage takes "
        "them back where the function is unchanged)",
    )
    parser.add_argument(
        "--no-saved", action="store_true", help=f"do not take results from {SAVED.name}"
    )
    parser.add_argument("--report", action="store_true", help="print the last results, run none")
    parser.add_argument("--survivors", metavar="MODULE", help="print the diffs of its survivors")
    args = parser.parse_args(argv)

    if args.save:
        # Only reads the stage, like --report: a run going on keeps writing its own.
        print(f"saved {save_results()} results to {SAVED.relative_to(ROOT)}", file=sys.stderr)
        return 0
    if not (args.report or args.survivors):
        # --report and --survivors only read: syncing would regenerate (and so reset the
        # results of) every module whose source moved on since the run being read.
        sync_stage(keep_stats=args.keep_stats, tests=args.tests.split(",") if args.tests else None)
        if not args.no_saved:
            print(f"took {restore_results()} saved results", file=sys.stderr)
    all_modules = sorted({module_of(n) for n in results()})
    modules = args.modules.split(",") if args.modules else all_modules
    unknown = sorted(set(modules) - set(all_modules))
    if unknown:
        parser.error(f"no mutants in {', '.join(unknown)}; modules: {', '.join(all_modules)}")
    equivalents = load_equivalents()
    stale = check_equivalents(equivalents)
    for name in stale:
        print(f"warning: equivalents entry {name} no longer matches its mutant", file=sys.stderr)
        equivalents.pop(name)

    if args.survivors:
        chosen = choose(list(results()), [args.survivors], args.sample, args.seed)
        survivors = report(chosen, equivalents)
        for name, diff in diffs(survivors).items():
            print(f"\n# {name}: {status_of(results().get(name))}\n{diff}")
        return 0

    chosen = choose(list(results()), modules, args.sample, args.seed)
    if not args.report:
        names = [n for found in chosen.values() for n in found if n not in equivalents]
        if args.again:
            codes = results()
            names = [n for n in names if status_of(codes.get(n)) not in ("killed", "timeout")]
        if args.missing:
            codes = results()
            names = [n for n in names if codes.get(n) is None]
        print(f"running {len(names)} mutants with {args.jobs} jobs", file=sys.stderr)
        if names and (args.quick or args.quick_only or args.quick_tests):
            if not (STAGE / "mutants" / "mutmut-stats.json").exists():
                run_mutants(names[:1], args.jobs)  # mutmut measures the tests first
            first = args.quick_first.split(",") if args.quick_first else []
            only = args.quick_tests.split(",") if args.quick_tests else []
            names = quick_pass(names, args.jobs, args.quick_seconds, args.quick_budget, first, only)
            print(f"{len(names)} mutants left for mutmut", file=sys.stderr)
            if args.quick_only:
                names = []
        if names:  # mutmut given no names would run every mutant
            run_mutants(names, args.jobs)
    report(chosen, equivalents)
    return 0


if __name__ == "__main__":
    sys.exit(main())
