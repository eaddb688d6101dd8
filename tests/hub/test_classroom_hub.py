"""The classroom JupyterHub (classroom/jupyterhub_config.py) started for real on this machine,
as root, the way a school runs it: HTTPS with a test certificate, a roster of three students
and a teacher, each with a generated password; real proxy, real servers (each as its own
system user), real Chromium.  What a student must not do is tried, from a terminal and from a
kernel of their own server, and refused; the course arrives and updates; a copied link opens
on a classmate's own server; idle kernels and servers are stopped even with a tab left open;
the hub stops with nothing left running."""

from __future__ import annotations

import json
import os
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

import pytest
import requests
from hub_support import (CULL, PAGE, REPO, SPAWN, Hub, alive, descendants, hub_api, kernel,
                         log_in, open_folder, pull_course, server_of, start_server, terminal,
                         wait_for)

STUDENTS, TEACHER = ("ada", "grace", "lin"), "hopper"
ROSTER = "# the test class\nada\ngrace\nlin   # the one who forgets\nhopper teacher\n"
#: idle limits long enough for a page to load on a busy 2-core machine
IDLE_TIMEOUT, KERNEL_IDLE, LOCK_AFTER = 120, 60, 3
CHROMIUM = Path(os.environ.get("PANGAEA_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]

if os.geteuid() != 0:
    pytest.skip("the classroom hub makes a system user per student: run make test-hub as root",
                allow_module_level=True)


@pytest.fixture(scope="module")
def hub() -> Iterator[Hub]:
    logs = REPO / "build" / "hub-logs"
    logs.mkdir(parents=True, exist_ok=True)
    running = Hub(ROSTER, {
        "PANGAEA_HUB_IDLE_TIMEOUT": str(IDLE_TIMEOUT), "PANGAEA_HUB_CULL_EVERY": "5",
        "PANGAEA_HUB_KERNEL_IDLE_TIMEOUT": str(KERNEL_IDLE),
        "PANGAEA_HUB_LOCK_AFTER": str(LOCK_AFTER), "PANGAEA_HUB_LOCK_SECONDS": "600",
        "PANGAEA_HUB_MEMORY": "1500M", "PANGAEA_HUB_CPUS": "1",
    }, logs)
    try:
        wait_for("the hub did not answer /hub/health", running.healthy, SPAWN, running.log)
        yield running
    finally:
        running.stop_and_clean(list(STUDENTS) + [TEACHER])


@pytest.fixture(scope="module")
def sessions(hub: Hub) -> dict[str, Any]:
    return {name: log_in(hub, name, hub.password(name)) for name in ("ada", "grace", TEACHER)}


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    if not CHROMIUM.is_file():
        pytest.fail(f"Chromium was not found at {CHROMIUM}: apt-get install chromium",
                    pytrace=False)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        yield playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def browser_login(hub: Hub, driver: Any, name: str) -> Any:
    """A Chromium window of its own (cookies of its own) logged in as ``name``, on the page a
    login lands on (the course pulled, then JupyterLab), as a person is before they open a
    link: a link opened while the login's redirects still run could be overtaken by them."""
    context = driver.new_context(ignore_https_errors=True, viewport={"width": 1280,
                                                                     "height": 900})
    page = context.new_page()
    page.goto(hub.url + "/hub/login", timeout=PAGE * 1000)
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", hub.password(name))
    page.click("[type=submit]")
    page.wait_for_url(lambda url: urlsplit(url).path.startswith(f"/user/{name}/lab"),
                      timeout=PAGE * 1000)
    page.wait_for_load_state("load", timeout=PAGE * 1000)
    return page


# ----- HTTPS and a login per person ----------------------------------------------------------


def test_the_hub_speaks_https_only_with_its_certificate(hub: Hub) -> None:
    assert hub.get("/hub/login").status_code == 200
    with pytest.raises(requests.exceptions.SSLError):
        requests.get(hub.url + "/hub/login", timeout=30)        # a certificate nobody vouched for
    plain = hub.url.replace("https://", "http://")
    try:
        answer = requests.get(plain + "/hub/login", timeout=30)
        assert answer.status_code >= 400, "the hub answered plain HTTP"
    except requests.exceptions.ConnectionError:
        pass


def test_each_person_logs_in_with_their_own_password_only(hub: Hub) -> None:
    passwords = hub.passwords()
    assert set(passwords) == set(STUDENTS) | {TEACHER}, passwords
    assert (hub.state / "hub" / "passwords-to-hand-out.txt").stat().st_mode & 0o077 == 0
    assert log_in(hub, "grace", passwords["grace"]).logged_in
    assert not log_in(hub, "grace", passwords["ada"]).logged_in, \
        "a classmate's password opened grace's account"
    assert not log_in(hub, "mallory", passwords["ada"]).logged_in, "a name off the roster got in"
    assert not log_in(hub, "eve<script>", "anything").logged_in
    assert hub.get("/hub/signup").status_code == 404, "anybody can sign up"


def test_a_student_changes_their_password(hub: Hub) -> None:
    old = hub.passwords()["grace"]
    session = log_in(hub, "grace", old)
    form = session.get(hub.url + "/hub/change-password", timeout=30)
    assert form.status_code == 200, form.text[:300]
    xsrf = session.cookies.get("_xsrf", path="/hub/") or session.cookies.get("_xsrf") or ""
    new = "a tall heron by the brook"
    for tried, ok in (("heron", False), (new, True)):
        answer = session.post(hub.url + "/hub/change-password", timeout=60, data={
            "old_password": old, "new_password": tried, "new_password_confirmation": tried,
            "_xsrf": xsrf})
        assert answer.status_code == 200
        assert ("changed successfully" in answer.text) is ok, answer.text[-1500:]
    assert log_in(hub, "grace", new).logged_in
    assert not log_in(hub, "grace", old).logged_in
    hub.changed["grace"] = new


def test_repeated_wrong_passwords_are_slowed_then_lock_the_name(hub: Hub) -> None:
    right = hub.passwords()["lin"]
    waits = []
    for attempt in range(LOCK_AFTER):
        began = time.monotonic()
        assert not log_in(hub, "lin", f"guess number {attempt}").logged_in
        waits.append(time.monotonic() - began)
    # each wrong try after the first waits at least a second longer before it is answered
    assert waits[-1] >= 2.0, waits
    locked = log_in(hub, "lin", right)
    assert not locked.logged_in, f"{LOCK_AFTER} wrong passwords in a row did not lock the name"
    assert "Too many wrong passwords" in locked.answer.text, locked.answer.text[-2000:]
    assert "locked" in hub.log.read_text(errors="replace")


# ----- what a student can and cannot reach ---------------------------------------------------


SECRETS = ("jupyterhub_cookie_secret", "passwords-to-hand-out.txt", "jupyterhub.sqlite")


def test_a_student_reaches_neither_the_hubs_secrets_nor_a_classmate(hub: Hub,
                                                                   sessions: Any) -> None:
    tokens = {name: start_server(hub, sessions[name], name) for name in ("ada", "grace")}
    state, grace_home = hub.state / "hub", hub.root / "home" / "grace"
    (grace_home / "diary.txt").write_text("grace's own notes")
    commands = [
        "echo USER=$(id -un)",
        f"cat /proc/{hub.process.pid}/environ >/dev/null 2>&1 && echo ENV-READ || echo ENV-NO",
    ] + [f"cat {state / name} >/dev/null 2>&1 && echo {i}-READ || echo {i}-NO"
         for i, name in enumerate(SECRETS)] + [
        f"ls {grace_home} >/dev/null 2>&1 && echo LIST-READ || echo LIST-NO",
        f"cat {grace_home / 'diary.txt'} >/dev/null 2>&1 && echo DIARY-READ || echo DIARY-NO",
        f"touch {grace_home / 'from-ada'} 2>/dev/null && echo WRITE-DONE || echo WRITE-NO",
    ]
    said = terminal(hub, "ada", tokens["ada"], commands)
    assert "USER=pl-ada" in said, said[-2000:]
    for refused in ["ENV-NO", "LIST-NO", "DIARY-NO", "WRITE-NO"] + [
            f"{i}-NO" for i in range(len(SECRETS))]:
        assert refused in said, f"{refused} missing: the terminal could:\n{said[-3000:]}"

    code = "\n".join([
        "import os, pathlib",
        "def attempt(label, act):",
        "    try:",
        "        act()",
        "        print(label, 'DONE')",
        "    except OSError as error:",
        "        print(label, 'REFUSED', type(error).__name__)",
        f"attempt('env', lambda: open('/proc/{hub.process.pid}/environ', 'rb').read())",
        f"attempt('cookie', lambda: open({str(state / SECRETS[0])!r}, 'rb').read())",
        f"attempt('sheet', lambda: open({str(state / SECRETS[1])!r}).read())",
        f"attempt('list', lambda: os.listdir({str(grace_home)!r}))",
        f"attempt('write', lambda: open({str(grace_home / 'k')!r}, 'w').write('x'))",
        "print('GROUPS', pathlib.Path('/proc/self/cgroup').read_text().replace(chr(10), ' '))",
        "print('UID', os.getuid())",
    ])
    printed = kernel(hub, "ada", tokens["ada"], code)
    for label in ("env", "cookie", "sheet", "list", "write"):
        assert f"{label} REFUSED" in printed, printed
    assert "pangaea-lab/ada" in printed, f"ada's kernel is outside her limits: {printed}"
    assert "UID 0" not in printed
    assert not (grace_home / "from-ada").exists() and not (grace_home / "k").exists()
    # no password of the class shows in any process's command line (which everyone may read)
    secrets_ = list(hub.passwords().values())
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                line = (entry / "cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            assert not any(secret in line for secret in secrets_), line


def test_memory_and_cpu_limits_per_student(hub: Hub, sessions: Any) -> None:
    start_server(hub, sessions["ada"], "ada")
    groups = Path("/sys/fs/cgroup")
    if (groups / "cgroup.controllers").exists():
        limit = (groups / "pangaea-lab" / "ada" / "memory.max").read_text().strip()
    else:
        limit = (groups / "memory" / "pangaea-lab" / "ada" / "memory.limit_in_bytes"
                 ).read_text().strip()
    assert int(limit) <= 1500 * 2**20, limit


# ----- the course: it arrives, it updates, teachers' pages stay with teachers -----------------


def test_the_course_arrives_and_a_teachers_update_merges_with_a_students_work(
        hub: Hub, sessions: Any, tmp_path: Path) -> None:
    token = start_server(hub, sessions["grace"], "grace")
    pull_course(hub, "grace", token)
    course = hub.root / "home" / "grace" / "course"
    assert (course / "00_start_here.ipynb").is_file()
    assert (course / "harmonies" / "01_setup_and_turns.ipynb").is_file()
    assert not (course / "teachers.ipynb").exists(), "a teachers' page reached a student"
    assert (course / "00_start_here.ipynb").stat().st_uid != 0, "the course is not grace's own"

    # grace writes in her notebook; the teacher then adds a notebook and fixes another
    start = course / "00_start_here.ipynb"
    notebook = json.loads(start.read_text())
    notebook["cells"][0]["source"] = ["grace was here\n"] + list(notebook["cells"][0]["source"])
    saved = requests.put(f"{hub.url}/user/grace/api/contents/course/00_start_here.ipynb",
                         json={"type": "notebook", "format": "json", "content": notebook},
                         headers={"Authorization": f"token {token}"}, verify=str(hub.cert),
                         timeout=PAGE)
    assert saved.status_code == 200, saved.text[:500]
    update = open_folder("pangaea-course-update-")
    try:
        shutil.copytree(REPO / "notebooks", update / "notebooks")
        extra = json.loads((REPO / "notebooks" / "00_start_here.ipynb").read_text())
        extra["cells"] = extra["cells"][:1]
        (update / "notebooks" / "extra_lesson.ipynb").write_text(json.dumps(extra))
        import importlib.util
        spec = importlib.util.spec_from_file_location("course", REPO / "classroom" /
                                                      "course.py")
        course_module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(course_module)
        assert course_module.publish(update / "notebooks", hub.root / "course", metadata=
                                     course_module.kernel_metadata(
                                         str(hub.root / "env" / "bin" / "python")))
    finally:
        shutil.rmtree(update, ignore_errors=True)
    pull_course(hub, "grace", token)
    assert (course / "extra_lesson.ipynb").is_file(), "the teacher's new notebook did not arrive"
    assert "grace was here" in start.read_text(), "the update lost grace's own work"


def test_a_teacher_has_the_teachers_pages(hub: Hub, sessions: Any) -> None:
    start_server(hub, sessions[TEACHER], TEACHER)
    assert (hub.root / "home" / TEACHER / "teachers.ipynb").is_file()
    admin = hub_api(hub, sessions[TEACHER], "GET", "/users")
    assert admin.status_code == 200, "the teacher cannot see the class"
    peek = hub_api(hub, sessions["ada"], "GET", "/users")
    assert peek.status_code == 403, "a student can list the class"


# ----- in the browser: a shared link, JupyterLab's comfort, idle culling ----------------------


def test_a_copied_board_link_opens_on_a_classmates_own_server(hub: Hub, sessions: Any,
                                                              driver: Any) -> None:
    for name in ("ada", "grace"):
        pull_course(hub, name, start_server(hub, sessions[name], name))
    page = "voila/render/course/harmonies/01_setup_and_turns.ipynb"
    ada = browser_login(hub, driver, "ada")
    ada.goto(f"{hub.url}/user/ada/{page}?seed=12&players=3", timeout=PAGE * 1000)
    field = ada.locator(".pl-board-link input.pl-board-url").first
    field.wait_for(state="attached", timeout=PAGE * 1000)
    link = field.input_value()
    assert link.startswith(f"{hub.url}/hub/user-redirect/{page}?"), link
    assert "seed=12" in link and "players=3" in link, link
    grace = browser_login(hub, driver, "grace")
    grace.goto(link, timeout=PAGE * 1000)
    grace.wait_for_url(f"**/user/grace/{page}?*", timeout=PAGE * 1000)
    text = grace.locator(".pl-board-link .pl-board-text").first
    text.wait_for(timeout=PAGE * 1000)
    assert "seed 12" in text.inner_text() and "3 players" in text.inner_text(), \
        text.inner_text()
    ada.context.close()
    grace.context.close()


FONT_LIST_USED = """
import pathlib, matplotlib
lists = lambda: {p.name: (p.stat().st_mtime_ns, p.stat().st_uid) for p in
                 pathlib.Path(matplotlib.get_cachedir()).glob('fontlist-*.json')}
before = lists()
import matplotlib.font_manager
print(len(before), before == lists() and all(u == __import__('os').getuid()
                                             for _, u in before.values()))
"""


KERNEL_SOCKETS = """
import json, os
from ipykernel.connect import get_connection_file
info = json.load(open(get_connection_file()))
folder = os.path.dirname(info["ip"])
print(info["transport"], folder, oct(os.stat(folder).st_mode & 0o777))
"""


def test_a_students_server_does_at_its_start_only_what_a_lesson_uses(hub: Hub, sessions: Any,
                                                                    driver: Any) -> None:
    """A class starts together: no work at a server's start or a JupyterLab page load that
    nobody in a lesson uses (classroom/jupyterhub_config.py, make hub-env)."""
    token = start_server(hub, sessions["grace"], "grace")
    pull_course(hub, "grace", token)
    page = browser_login(hub, driver, "grace")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(urlsplit(request.url).path))
    page.goto(f"{hub.url}/user/grace/lab/tree/course/00_start_here.ipynb", timeout=PAGE * 1000)
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=PAGE * 1000)
    wait_for("the notebook's kernel did not start",
             lambda: "/user/grace/api/sessions" in asked and page.locator(
                 ".jp-Notebook-ExecutionIndicator[data-status=idle]").count(), SPAWN, hub.log)
    page.locator(".lm-MenuBar-itemLabel", has_text="File").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Download").first.wait_for(timeout=PAGE * 1000)
    assert not [label for label in page.locator(".lm-Menu-itemLabel").all_inner_texts()
                if "Export" in label], "the File menu still offers to export"
    page.context.close()
    # no rebuild check (Node.js twice per page), no export formats (every nbconvert exporter)
    for unused in ("/user/grace/lab/api/build", "/user/grace/api/nbconvert"):
        assert unused not in asked, f"JupyterLab still asks for {unused}"
    # no language-server scan, no classic Notebook, no PyPI look-ups at any server's start
    log = hub.log.read_text(errors="replace")
    assert "jupyterlab | extension was successfully loaded" in log
    for unused in ("jupyter_lsp", "notebook_shim"):
        assert f"{unused} | extension was successfully loaded" not in log, unused
    assert "Extension Manager is 'readonly'" in log
    # jsonschema without rfc3987-syntax, which builds 38 grammars as it is imported (a kernel
    # of grace's, from a thread of its own: Chromium's driver holds this one's event loop)
    with ThreadPoolExecutor(1) as thread:
        printed = thread.submit(kernel, hub, "grace", token, "import importlib.util as u\n"
                                "print(u.find_spec('rfc3987_syntax'), "
                                "u.find_spec('jsonschema').name)").result()
        # matplotlib finds its font list already in grace's new home, and uses it as it is
        fonts = thread.submit(kernel, hub, "grace", token, FONT_LIST_USED).result()
        # the kernel listens on Unix sockets in a folder only grace can enter, no TCP port
        sockets = thread.submit(kernel, hub, "grace", token, KERNEL_SOCKETS).result()
    assert printed.split() == ["None", "jsonschema"], printed
    assert fonts.split() == ["1", "True"], fonts
    transport, folder, mode = sockets.split()
    assert (transport, mode) == ("ipc", "0o700"), sockets
    assert folder == str(hub.root / "run" / "grace"), sockets
    # every module is compiled at install: a student could not write the compiled file
    site = next((hub.root / "env" / "lib").glob("python3.*/site-packages"))
    tag = "cpython-" + site.parent.name.removeprefix("python").replace(".", "")
    missing = [str(module) for module in site.rglob("*.py")
               if not (module.parent / "__pycache__" / f"{module.stem}.{tag}.pyc").exists()]
    assert not missing, f"{len(missing)} modules not compiled, as {missing[:3]}"


def test_an_open_tab_does_not_keep_idle_kernels_and_servers(hub: Hub, sessions: Any,
                                                           driver: Any) -> None:
    token = start_server(hub, sessions["ada"], "ada")
    pull_course(hub, "ada", token)
    page = browser_login(hub, driver, "ada")
    page.goto(f"{hub.url}/user/ada/lab/tree/course/harmonies/01_setup_and_turns.ipynb",
              timeout=PAGE * 1000)
    page.wait_for_selector(".jp-Notebook", timeout=PAGE * 1000)
    kernels = lambda: requests.get(  # noqa: E731
        f"{hub.url}/user/ada/api/kernels", headers={"Authorization": f"token {token}"},
        verify=str(hub.cert), timeout=60).json()
    wait_for("the notebook's kernel did not start", kernels, SPAWN, hub.log)
    page.wait_for_timeout(5000)
    # JupyterLab comfort: no news question, and a notebook just opened is not "modified"
    assert page.locator("text=official Jupyter news").count() == 0
    assert page.locator(".jp-DocumentWidget.jp-mod-dirty, .lm-TabBar-tab.jp-mod-dirty"
                        ).count() == 0, "the notebook is marked modified as soon as it opens"
    # left alone with the tab open: the kernel is stopped, then the server
    wait_for(f"an idle kernel was not stopped after {KERNEL_IDLE} s", lambda: not kernels(),
             CULL, hub.log)
    wait_for(f"an idle server with a tab open was not stopped after {IDLE_TIMEOUT} s",
             lambda: server_of(hub, sessions["ada"], "ada") is None, CULL, hub.log)
    assert page.url.startswith(hub.url)       # the tab was open the whole time
    page.context.close()


def test_the_hub_stops_cleanly_with_nothing_left_running(hub: Hub) -> None:
    family = descendants(hub.process.pid)
    assert any("configurable-http-proxy" in Path(f"/proc/{pid}/cmdline").read_text(
        errors="replace") for pid in family if alive(pid)), "no proxy under the hub"
    code = hub.stop()
    assert code == 0, f"the hub ended with code {code}"
    left = [pid for pid in family if alive(pid)]
    assert not left, "still running after the hub stopped: " + ", ".join(
        Path(f"/proc/{pid}/cmdline").read_text(errors="replace").replace("\0", " ")
        for pid in left)
