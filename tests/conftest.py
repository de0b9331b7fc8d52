"""Shared fixtures (the built dist/, a static server for it, Debian's Chromium for
pytest-playwright, a watch on the browser console), the test tiers and the hypothesis
profiles. Helpers that tests import are in tests/helpers/.

Tiers: a test that uses a browser fixture is marked `browser` here (at collection), so
`./run-tests --fast` (pytest -m "not browser and not slow" --hypothesis-profile=fast) runs
the rest; `slow` (set in the test files) marks the tests that take over ~10 s alone (the
arena's 200-game tournament, a build from scratch, the engine under Pyodide, the 2 x 2
random-game invariants), which the full run keeps. `dist` marks the tests that read dist/ (the session builds it first: a second
or so with the cache warm), so `-m "not browser and not slow and not dist"` needs no build.

Only the standard library is imported here, so engine tests run without the browser tools.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# This checkout's engine, tooling and research (py/: truco, truco_tools, truco_lab) come
# first, even where the Python in use has an editable install of another checkout
# (worktrees sharing one .venv); subprocesses (build.py, the research CLIs) get py/ too.
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))
os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT / "py"), *filter(None, [os.environ.get("PYTHONPATH")])])

from helpers import DIST, dist_lock, run_build  # noqa: E402
from helpers.browser import CHROMIUM, CHROMIUM_ARGS, DEFAULT_LOCALE, AXE_JS, ConsoleWatch, open_table  # noqa: E402

# --- hypothesis: today's budgets by default (CI), a smaller one for the fast tier ------------

try:
    from hypothesis import settings as _hypothesis_settings
except ImportError:  # pragma: no cover - the test extra has it
    _hypothesis_settings = None
else:
    # The fast tier's profile (`--hypothesis-profile=fast`); the default one is hypothesis's.
    _hypothesis_settings.register_profile("fast", max_examples=10, deadline=None)
# A test's own @settings(max_examples=N) wins over a profile: under "fast" it is capped to this.
FAST_MAX_EXAMPLES = 10

# Fixtures that mean "this test drives a browser".
BROWSER_FIXTURES = {"page", "context", "browser", "browser_type", "browser_context_args",
                    "new_context", "static_server", "base_url", "console_errors", "axe_source"}


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives Chromium (set automatically from the fixtures a test uses)")
    config.addinivalue_line("markers", "dist: reads dist/, which the session builds first (set automatically)")
    config.addinivalue_line("markers", "slow: over ~10 s alone: the arena's tournament (strength checks), a build "
                            "from scratch, the engine under Pyodide (the full run has them, --fast not)")
    config.addinivalue_line("markers", "soak: long, and what it checks is checked by a shorter test too (the arena's "
                            "tournament, a build from scratch, whole matches played again another way): "
                            "`./run-tests --all` runs them, `./run-tests` (CI, within 15 minutes) not")


def pytest_collection_modifyitems(config, items):
    fast = _hypothesis_settings is not None and config.getoption("hypothesis_profile", None) == "fast"
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if BROWSER_FIXTURES & fixtures:
            item.add_marker(pytest.mark.browser)
        if "dist_dir" in fixtures:
            item.add_marker(pytest.mark.dist)
        if fast:
            _cap_examples(item)
    _longest_files_first(items)


# --- the order of the test files: the longest first ------------------------------------------
# ./run-tests hands whole files to two processes (pytest-xdist's loadfile, with
# --no-loadscope-reorder so this order is kept): a long file dealt last leaves the other
# process idle for as long as it runs (the arena's tournament, the PWA's installs). Dealing
# the longest first (by the seconds each file took in a recorded run) ends both together.
# TRUCO_RECORD_DURATIONS=1 ./run-tests rewrites the record from that run.
FILE_SECONDS = Path(__file__).with_name("file_seconds.json")


def _file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def _longest_files_first(items) -> None:
    try:
        import json
        seconds = json.loads(FILE_SECONDS.read_text())
    except (OSError, ValueError):
        return
    unknown = sorted(seconds.values())[len(seconds) // 2] if seconds else 0  # a new file: the median
    # sorted() is stable: each file's tests keep their order.
    items.sort(key=lambda item: -seconds.get(_file_of(item.nodeid), unknown))


_recorded: dict[str, float] = {}


def pytest_runtest_logreport(report):
    if os.environ.get("TRUCO_RECORD_DURATIONS"):
        file = _file_of(report.nodeid)
        _recorded[file] = _recorded.get(file, 0.0) + report.duration


def pytest_sessionfinish(session, exitstatus):
    # Under xdist the controller sees every worker's reports; a worker writes nothing.
    if os.environ.get("TRUCO_RECORD_DURATIONS") and _recorded and not hasattr(session.config, "workerinput"):
        import json
        FILE_SECONDS.write_text(json.dumps({f: round(s, 1) for f, s in sorted(_recorded.items())}, indent=1) + "\n")


def _cap_examples(item) -> None:
    """Under the fast profile, a hypothesis test's own max_examples is capped too."""
    test = getattr(item, "obj", None)
    own = getattr(test, "_hypothesis_internal_use_settings", None)
    if not hasattr(test, "hypothesis") or own is None or own.max_examples <= FAST_MAX_EXAMPLES:
        return
    test._hypothesis_internal_use_settings = _hypothesis_settings(own, max_examples=FAST_MAX_EXAMPLES)


@pytest.fixture(scope="session")
def dist_dir() -> Path:
    """dist/, built once per session from the current sources (fast when nothing changed).
    Under pytest-xdist each worker is a session: the first build runs alone, and the others
    then find nothing to write."""
    with dist_lock():
        run_build()
    return DIST


@pytest.fixture(scope="session")
def static_server(dist_dir):
    """dist/ served on 127.0.0.1 (a free port) from a thread; yields the base URL."""
    from truco_tools.serve import serve_in_thread

    server, url = serve_in_thread(dist_dir)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def base_url(static_server) -> str:
    """pytest-playwright's base URL: `page.goto("/")` opens our index.html."""
    return static_server


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch Debian's Chromium (Playwright's own browser download is not reachable)."""
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (./run-tests does it)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session", autouse=True)
def _service_workers_blocked_by_default():
    """Browser contexts block service workers unless a test passes `service_workers="allow"`
    (tests/browser/test_pwa.py does). Every page but the embed registers sw.js, which copies the
    whole build (~30 MB) into its cache: dozens of short-lived contexts doing that would
    only slow the other tests down, and Playwright's routes do not see requests a service
    worker answers."""
    try:
        from playwright.sync_api import Browser
    except ImportError:  # engine tests without the browser tools
        yield
        return
    orig_context, orig_page = Browser.new_context, Browser.new_page

    def blocked_context(self, *args, **kwargs):
        kwargs.setdefault("service_workers", "block")
        kwargs.setdefault("locale", DEFAULT_LOCALE)
        return orig_context(self, *args, **kwargs)

    def blocked_page(self, *args, **kwargs):
        kwargs.setdefault("service_workers", "block")
        kwargs.setdefault("locale", DEFAULT_LOCALE)
        return orig_page(self, *args, **kwargs)

    Browser.new_context, Browser.new_page = blocked_context, blocked_page
    yield
    Browser.new_context, Browser.new_page = orig_context, orig_page


@pytest.fixture
def console_errors(page):
    """Fails the test if the page logs a console error or throws; `.allow(regex)` expects one."""
    watch = ConsoleWatch()
    watch.watch(page)
    yield watch
    watch.check()


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's source (the npm dev dependency), to evaluate in a page."""
    if not AXE_JS.is_file():
        pytest.fail(f"{AXE_JS} is missing: run `npm install` (axe-core is a dev dependency)")
    return AXE_JS.read_text(encoding="utf-8")


# --- table pages shared by a test module (each module gets its own) -------------------------

@pytest.fixture(scope="module")
def ready_table(browser, base_url):
    """The table page (/?fast=1, 1280 x 800) with its engine ready, one per test module;
    its console is checked when the module is done."""
    yield from open_table(browser, base_url)


@pytest.fixture(scope="module")
def recorded_table(browser, base_url):
    """`ready_table` that also records the engine worker's messages from the page's start
    (`window.__workerMessages`: helpers.browser.RECORD_WORKER_MESSAGES)."""
    yield from open_table(browser, base_url, record_worker=True)
