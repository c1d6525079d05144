"""kitgen serve as an attacker on the same machine would try it (docs/design.md §11, issue 25):
only the fields it knows, typed and in range, reach the command line; no request names a path of
the server; only the server's own page can POST; every route needs the token; the real limits
hold (1,000 files, 200 MB, 4 children, 8 waiting, 3 GB a child); children die with their job and
their server, and a new server removes what a dead one left."""

import io
import os
import re
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from kitgen import layouts
from kitgen.serve import app as serve_app, children, fields, limits, uploads, workspace

from servetest import ADDRESS, TOKEN, deck

ROOT = Path(__file__).resolve().parent.parent


def post(client, path, data, headers=None, token=TOKEN):
    return client.post(f"{path}?token={token}" if token else path, data=data, content_type="multipart/form-data",
                       base_url=f"http://{ADDRESS}",
                       headers={serve_app.TOKEN_HEADER: TOKEN} if headers is None else headers)


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def until(condition, seconds=120):
    """Poll ``condition`` until it holds (the limit only stops a hung test; nothing is timed)."""
    for _ in range(int(seconds * 20)):
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("never happened")


# ---- 1. the fields: an allow-list, typed, built into arguments by the server ----

@pytest.mark.parametrize("name", ["out=/tmp/elsewhere", "out", "icc=/etc/passwd", "icc", "debug", "colour",
                                  "verify-url", "back-offset", "OUT", "--out", "deck=x", "keys ", "x" * 40])
def test_a_field_the_server_does_not_know_is_refused_before_any_kitgen_runs(client, name, monkeypatch):
    monkeypatch.setattr(children, "run_kitgen", lambda *a, **k: pytest.fail("kitgen ran"))
    answer = post(client, "/build", {"deck": deck(), name: "SOMEDIR"})
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error.startswith(f"field {name[:24]!r}"[:-1]) and "is not one kitgen serve takes" in error
    assert "\n" not in error


def test_the_option_injection_of_issue_25_writes_nothing_outside(client, tmp_path):
    target = tmp_path / "elsewhere"
    answer = post(client, "/build", {"deck": deck(), f"out={target}": "x", "keys": "2"})
    assert answer.status_code == 400 and not target.exists()


def test_an_upload_in_another_field_is_refused(client):
    answer = post(client, "/build", {"deck": deck(), "out=/tmp/x": deck("a.csv")})
    assert answer.status_code == 400
    assert answer.get_json()["error"].startswith("upload field 'out=/tmp/x' is not one kitgen serve takes")


@settings(deadline=None, max_examples=300)
@given(st.dictionaries(st.one_of(st.sampled_from(sorted(fields.FIELDS)), st.text(max_size=12)),
                       st.one_of(st.text(max_size=30), st.sampled_from(["1", "0", "on", "long", "a4", "50"])),
                       max_size=6),
       st.sampled_from([fields.BUILD, fields.GAME]))
def test_every_argument_is_a_known_option_of_the_command_with_a_checked_value(form, command):
    """Whatever a request sends, the arguments are the server's: ``--NAME=VALUE`` of a field of
    FIELDS that the command takes, the value in its range; never a path, never a second ``--out``."""
    try:
        args = fields.build_arguments(form, uploads.Deck(Path(".")), command)
    except limits.BadRequest as err:
        assert err.status == 400 and "\n" not in str(err)
        return
    assert args[:2] == [command, "--out=out"]
    for argument in args[2:]:
        name, _, value = argument.removeprefix("--").partition("=")
        field = fields.FIELDS[name]
        assert command in field.commands and field.kind not in ("pasted",)
        if field.kind == "number":
            assert field.low <= int(value) <= field.high
        elif field.kind == "choice":
            assert value in field.choices
        elif field.kind in ("deck", "layout"):
            assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", value)
        elif field.kind == "flag":
            assert value == "" and "=" not in argument
    assert sum(a.startswith("--out") for a in args) == 1


def test_check_takes_the_pages_whole_form_for_single_game_sheets(client):
    answer = post(client, "/check", {"make": "game", "edition": "words", "deck": deck(), "count": "3",
                                     "format": "markdown", "lang": "en"})
    assert answer.status_code == 200, answer.data


def test_the_server_has_no_deny_list():
    source = "".join(p.read_text() for p in sorted((ROOT / "kitgen" / "serve").glob("*.py")))
    assert "NOT_OPTIONS" not in source and "build_flags" not in source


# ---- 2. no path of the server from a request: layouts are uploads, confined ----

def test_a_layout_named_by_path_is_refused_without_a_word_of_the_file(client, tmp_path, monkeypatch):
    secret = tmp_path / "secret.yaml"
    secret.write_text("api_key: hunter2\n")
    monkeypatch.setattr(children, "run_kitgen", lambda *a, **k: pytest.fail("kitgen ran"))
    said = set()
    for value in (str(secret), str(tmp_path / "none.yaml"), "/dev/zero", "../layouts/default.yaml"):
        answer = post(client, "/game", {"deck": deck(), "layout": value})
        assert answer.status_code == 400
        said.add(answer.get_json()["error"].split(":", 1)[1])
    assert len(said) == 1 and "api_key" not in said.pop()          # the same words, whether the file is there


def extends(target: str) -> tuple:
    return (io.BytesIO(f"extends: {target}\n".encode()), "mine.yaml")


@pytest.mark.parametrize("target", ["SECRET", "MISSING", "/dev/zero", "../../../etc/passwd.yaml", "/etc/hostname"])
def test_an_uploaded_layout_may_not_extend_a_file_of_the_server(client, tmp_path, target):
    secret = tmp_path / "secret.yaml"
    secret.write_text("api_key: hunter2\n")
    target = {"SECRET": str(secret), "MISSING": str(tmp_path / "missing.yaml")}.get(target, target)
    answer = post(client, "/game", {"deck": deck(), "layout": extends(target)})
    assert answer.status_code == 400
    assert answer.get_json() == {"error": f"mine.yaml:1: layout {target!r} is neither a built-in layout nor one "
                                          "that was uploaded; upload it with the layout that extends it"}


def test_an_uploaded_layout_may_extend_a_built_in_or_another_uploaded_layout(client):
    base = (io.BytesIO(b"extends: default\n"), "school.yaml")
    mine = (io.BytesIO(b"extends: school.yaml\n"), "mine.yaml")
    answer = post(client, "/game", {"deck": deck(), "layout": [mine, base], "count": "1"})
    assert answer.status_code == 200, answer.data
    assert post(client, "/game", {"deck": deck(), "layout": "default", "count": "1"}).status_code == 200


def test_confinement_is_the_kernels_for_every_path(tmp_path, monkeypatch):
    inside, outside = tmp_path / "in", tmp_path / "out.yaml"
    inside.mkdir()
    outside.write_text("extends: default\n")
    (inside / "a.yaml").write_text("extends: default\n")
    (inside / "b.yaml").write_text(f"extends: {outside}\n")
    monkeypatch.setenv(layouts.CONFINED, str(inside))
    assert layouts.load(str(inside / "a.yaml")) is not None
    assert layouts.load("default") is not None
    for path, source in ((outside, None), (inside / "b.yaml", "b.yaml")):        # the file that named it, if any
        with pytest.raises(layouts.KitgenError, match="neither a built-in layout nor one that was uploaded") as raised:
            layouts.load(str(path))
        assert (raised.value.source and Path(raised.value.source).name) == source
    monkeypatch.delenv(layouts.CONFINED)
    assert layouts.load(str(inside / "b.yaml")) is not None            # the command line itself is not confined


# ---- 3. only kitgen's own page can POST ----

def page_token(client) -> str:
    page = client.get(f"/?token={TOKEN}", base_url=f"http://{ADDRESS}").data.decode()
    return re.search(r'<meta name="kitgen-form" content="([^"]+)">', page)[1]


def test_the_page_holds_a_form_token_that_lets_its_posts_in(client):
    form = page_token(client)                    # the visit also sets the cookie
    answer = post(client, "/check", {"deck": deck()}, {serve_app.FORM_HEADER: form}, token=None)
    assert answer.status_code == 200, answer.data
    assert page_token(client) != form            # each page its own


@pytest.mark.parametrize("headers", [
    {},                                                                     # the cookie alone: a form POST
    {serve_app.FORM_HEADER: "forged.0123"},
    {serve_app.FORM_HEADER: serve_app.form_token("another-servers-token")},
    {serve_app.FORM_HEADER: "FORM", "Origin": "http://127.0.0.1:5556"},        # the page's token, another origin
    {serve_app.FORM_HEADER: "FORM", "Origin": "http://localhost:8000"},
    {serve_app.FORM_HEADER: "FORM", "Origin": "null"},
    {serve_app.FORM_HEADER: "FORM", "Sec-Fetch-Site": "same-site"},
    {serve_app.FORM_HEADER: "FORM", "Sec-Fetch-Site": "cross-site"},
    {serve_app.TOKEN_HEADER: TOKEN, "Origin": "http://127.0.0.1:5556"},
], ids=["cookie only", "forged", "other server", "other port", "localhost port", "null origin", "same-site",
        "cross-site", "token from elsewhere"])
@pytest.mark.parametrize("path", ["/check", "/build", "/game", "/jobs"])
def test_a_post_that_does_not_come_from_the_page_is_forbidden(client, monkeypatch, headers, path):
    monkeypatch.setattr(children, "run_kitgen", lambda *a, **k: pytest.fail("kitgen ran"))
    form = page_token(client)
    headers = {k: form if v == "FORM" else v for k, v in headers.items()}
    answer = post(client, path, {"deck": deck()}, headers, token=None)
    assert answer.status_code == 403
    assert answer.data.decode().startswith("forbidden: ")


def test_the_page_itself_may_say_where_it_comes_from(client):
    form = page_token(client)
    for headers in ({"Origin": f"http://{ADDRESS}", "Sec-Fetch-Site": "same-origin"},
                    {"Origin": "http://localhost:5555"}):
        base = headers.get("Origin", f"http://{ADDRESS}").removeprefix("http://")
        answer = client.post(f"/check?token={TOKEN}", data={"deck": deck()}, content_type="multipart/form-data",
                             base_url=f"http://{base}", headers={serve_app.FORM_HEADER: form, **headers})
        assert answer.status_code == 200, answer.data


def walk(app):
    """Every route of the app, as (method, url) with its arguments filled in."""
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        url = rule.rule
        for argument in rule.arguments:
            url = re.sub(rf"<(?:[a-z]+:)?{argument}>", "x", url)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield method, url


def test_every_route_of_the_app_needs_the_token(app, client):
    routes = list(walk(app))
    assert {"/", "/app.js", "/app.css", "/build", "/game", "/check", "/jobs", "/jobs/x", "/jobs/x/kit.zip",
            "/jobs/x/files/x", "/jobs/x/previews/x"} <= {url for _, url in routes}
    for method, url in routes:
        for headers in ({}, {serve_app.TOKEN_HEADER: "wrong"}):
            answer = client.open(url, method=method, base_url=f"http://{ADDRESS}", headers=headers)
            assert answer.status_code == 403, (method, url)


def test_every_route_answers_its_job_files_only_with_the_token(client):
    key = post(client, "/jobs", {"deck": deck(), "keys": "2"}).get_json()["job"]
    until(lambda: client.get(f"/jobs/{key}?token={TOKEN}", base_url=f"http://{ADDRESS}").get_json()["state"]
          != "building")
    for url in (f"/jobs/{key}", f"/jobs/{key}/kit.zip", f"/jobs/{key}/files/kit.pdf", f"/jobs/{key}/previews/keys.pdf"):
        assert client.get(f"{url}?token={TOKEN}", base_url=f"http://{ADDRESS}").status_code == 200, url
        client.delete_cookie(serve_app.TOKEN_COOKIE, domain="127.0.0.1")
        assert client.get(url, base_url=f"http://{ADDRESS}").status_code == 403, url


# ---- 4. bounded work: children, waiting requests, jobs, memory ----

FAKE = textwrap.dedent("""
    # a stand-in for kitgen's child: tied to its parent as serve_child ties it, notes its pid; a preview
    # is killed with -9 at once; a build says it drew a part (with FAKE_DRAWN), waits until told to go,
    # then fails as a build would
    import os, pathlib, sys, time
    from kitgen.serve_child import die_with_parent
    if not die_with_parent(int(sys.argv[1])):
        sys.exit(1)
    folder = pathlib.Path(os.environ["FAKE_KITGEN"])
    (folder / f"{os.getpid()}.pid").write_text(" ".join(sys.argv[3:]))
    if "preview" in sys.argv:
        os.kill(os.getpid(), 9)
    if os.environ.get("FAKE_DRAWN") and os.environ.get("KITGEN_DRAWN"):
        print("kitgen: drawn codenames.pdf", file=sys.stderr, flush=True)
    while not (folder / "go").exists():
        time.sleep(0.02)
    print("kitgen: error: the fake build ends here", file=sys.stderr)
    sys.exit(2)
""")


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """kitgen's child replaced by FAKE (only the command: every limit is the server's own)."""
    folder = tmp_path / "fake"
    folder.mkdir()
    script = tmp_path / "fake_kitgen.py"
    script.write_text(FAKE)
    monkeypatch.setenv("FAKE_KITGEN", str(folder))
    monkeypatch.setattr(children, "CHILD", [str(script)])
    yield folder
    (folder / "go").touch()


def running(folder: Path) -> list[int]:
    return [int(p.stem) for p in folder.glob("*.pid") if alive(int(p.stem))]


def test_at_most_four_children_and_eight_waiting_then_busy_in_one_line(client, fake):
    assert (limits.MAX_CHILDREN, limits.MAX_WAITING) == (4, 8)
    keys = []
    for _ in range(limits.MAX_CHILDREN + limits.MAX_WAITING):
        answer = post(client, "/jobs", {"deck": deck(), "keys": "2"})
        assert answer.status_code == 202
        keys.append(answer.get_json()["job"])
    until(lambda: len(running(fake)) == limits.MAX_CHILDREN)
    for path in ("/jobs", "/build", "/check", "/game"):
        answer = post(client, path, {"deck": deck()})
        assert (answer.status_code, answer.get_json()) == (503, {"error": "kitgen is busy: 4 builds or checks are "
                                                                          "running and 8 are waiting; try again in "
                                                                          "a minute"})
    time.sleep(0.5)
    assert len(running(fake)) == limits.MAX_CHILDREN              # the others wait their turn, not as processes
    for key in keys:                                             # twelve unfinished jobs: none forgotten
        assert client.get(f"/jobs/{key}?token={TOKEN}", base_url=f"http://{ADDRESS}").get_json()["state"] == "building"
    (fake / "go").touch()
    for key in keys:
        until(lambda key=key: client.get(f"/jobs/{key}?token={TOKEN}", base_url=f"http://{ADDRESS}").get_json()
              ["state"] == "failed")
    assert len(list(fake.glob("*.pid"))) == 12 and running(fake) == []
    assert post(client, "/jobs", {"deck": deck()}).status_code == 202          # room again


def test_finished_jobs_are_forgotten_oldest_first_and_never_an_unfinished_one(client, fake):
    (fake / "go").touch()
    done = [post(client, "/jobs", {"deck": deck()}).get_json()["job"] for _ in range(limits.KEPT_JOBS)]
    for key in done:
        until(lambda key=key: client.get(f"/jobs/{key}?token={TOKEN}", base_url=f"http://{ADDRESS}").get_json()
              ["state"] == "failed")
    (fake / "go").unlink()
    waiting = [post(client, "/jobs", {"deck": deck()}).get_json()["job"] for _ in range(3)]
    (fake / "go").touch()
    for key in waiting:
        until(lambda key=key: client.get(f"/jobs/{key}?token={TOKEN}", base_url=f"http://{ADDRESS}").get_json()
              ["state"] == "failed")
    kept = [key for key in done + waiting
            if client.get(f"/jobs/{key}?token={TOKEN}", base_url=f"http://{ADDRESS}").status_code == 200]
    assert kept == (done + waiting)[-limits.KEPT_JOBS:]


def child(code: str, tmp_path: Path, memory=limits.CHILD_MEMORY) -> subprocess.Popen:
    """``kitgen.serve_child`` as the server starts it, with kitgen's command line replaced by ``code``."""
    runner = tmp_path / "runner.py"
    runner.write_text("import kitgen.cli, sys\n"
                      f"kitgen.cli.main = lambda args: exec({code!r})\n"
                      "from kitgen import serve_child\nserve_child.main()\n")
    return subprocess.Popen([sys.executable, str(runner), str(os.getpid()), str(memory), "build"],
                            stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_each_child_may_take_at_most_its_memory(tmp_path):
    assert limits.CHILD_MEMORY == 3 * 2**30
    shown = child("import resource; print(resource.getrlimit(resource.RLIMIT_AS)[0]); "
                  "print(open('/proc/self/limits').read())", tmp_path)
    out = shown.communicate(timeout=120)[0]
    assert out.splitlines()[0] == str(limits.CHILD_MEMORY)
    assert re.search(rf"Max address space\s+{limits.CHILD_MEMORY}\s+{limits.CHILD_MEMORY}", out)
    grows = child("b = bytearray(4 * 2**30)", tmp_path)
    assert grows.wait(timeout=120) == 1                       # MemoryError, not the machine's memory


def test_a_child_out_of_memory_is_one_line(tmp_path, monkeypatch):
    script = tmp_path / "oom.py"
    script.write_text("import sys\nprint('kitgen: internal error: MemoryError:  (run with --debug for details)', "
                      "file=sys.stderr)\nsys.exit(1)\n")
    monkeypatch.setattr(children, "CHILD", [str(script)])
    with pytest.raises(limits.BadRequest) as refused:
        children.run_kitgen(["build"], tmp_path)
    assert refused.value.status == 500
    assert str(refused.value) == ("the build needed more than 3 GB of memory and was stopped; try fewer keys or "
                                  "smaller pictures")


# ---- 5. children die with their job and their server; a new server sweeps ----

def test_a_killed_preview_stops_its_build_and_the_job_leaves_no_folder(client, fake, tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_DRAWN", "1")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "t"))
    (tmp_path / "t").mkdir()
    key = post(client, "/jobs", {"deck": deck()}).get_json()["job"]
    state = until(lambda: (lambda s: s["state"] != "building" and s)(
        client.get(f"/jobs/{key}?token={TOKEN}", base_url=f"http://{ADDRESS}").get_json()))
    assert state["error"] == "kitgen was stopped by signal 9 (out of memory?); try a smaller build"
    started = {int(p.stem): p.read_text() for p in fake.glob("*.pid")}
    builds = [pid for pid, args in started.items() if "preview" not in args]
    assert builds and any("preview" in args for args in started.values()), started
    assert not any(alive(pid) for pid in builds)          # the build did not wait for go: it was killed
    assert list((tmp_path / "t").iterdir()) == []


def test_a_failed_job_leaves_no_process_and_no_folder(client, fake, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "t"))
    (tmp_path / "t").mkdir()
    key = post(client, "/jobs", {"deck": deck()}).get_json()["job"]
    until(lambda: running(fake))
    (fake / "go").touch()
    until(lambda: client.get(f"/jobs/{key}?token={TOKEN}", base_url=f"http://{ADDRESS}").get_json()
          ["state"] == "failed")
    assert running(fake) == [] and list((tmp_path / "t").iterdir()) == []


def test_a_child_dies_with_its_parent(tmp_path):
    """The server's process (here a stand-in) killed with -9: its child goes too (PR_SET_PDEATHSIG)."""
    parent = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import os, subprocess, sys
        runner = {str(tmp_path / 'runner.py')!r}
        open(runner, 'w').write("import kitgen.cli, time\\nkitgen.cli.main = lambda args: time.sleep(600)\\n"
                                "from kitgen import serve_child\\nserve_child.main()\\n")
        child = subprocess.Popen([sys.executable, runner, str(os.getpid()), str(2**31), 'build'])
        print(child.pid, flush=True)
        child.wait()
    """)], stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    pid = int(parent.stdout.readline())
    time.sleep(1)
    assert alive(pid)
    parent.kill()
    parent.wait()
    until(lambda: not alive(pid))


def test_a_child_whose_parent_is_already_gone_stops_at_once(tmp_path):
    runner = tmp_path / "runner.py"
    runner.write_text("import kitgen.cli\nkitgen.cli.main = lambda args: print('ran')\n"
                      "from kitgen import serve_child\nserve_child.main()\n")
    done = subprocess.run([sys.executable, str(runner), "1", str(2**31), "build"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert done.returncode == 1 and done.stdout == ""


def test_a_stopped_server_kills_its_children_and_removes_its_folders(fake, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "t"))
    (tmp_path / "t").mkdir()
    server = serve_app.start("127.0.0.1", 0)
    client = server.app.test_client()
    address = server.url.split("/")[2]
    answer = client.post("/jobs", data={"deck": deck()}, content_type="multipart/form-data",
                         base_url=f"http://{address}", headers={serve_app.TOKEN_HEADER: server.url.split("=")[1]})
    assert answer.status_code == 202
    pid = until(lambda: running(fake))[0]
    server.stop()
    until(lambda: not alive(pid))
    until(lambda: list((tmp_path / "t").iterdir()) == [])


def workspace_named(root: Path, pid: int, lock: bool = True) -> Path:
    path = root / f"kitgen-serve-{pid}-abcd_123"
    path.mkdir()
    (path / "upload").mkdir()
    if lock:
        (path / ".lock").touch()
    return path


def test_sweep_removes_only_dead_servers_recognisable_folders(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    gone_pid = int(dead.stdout)
    unlocked = workspace_named(tmp_path, gone_pid)
    (tmp_path / "unlocked-no-lock").mkdir()
    no_lock = tmp_path / f"kitgen-serve-{gone_pid}-zzzz_999"
    no_lock.mkdir()
    live = workspace.Workspace(tmp_path)                              # this server's, in use
    other = tmp_path / "kitgen-serve-1-other_12"                  # another running server's, its lock held
    other.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl, sys, time\nlock = open(sys.argv[1], 'w')\n"
                               "fcntl.flock(lock, fcntl.LOCK_EX)\nprint('held', flush=True)\ntime.sleep(600)\n",
                               str(other / ".lock")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        strangers = [tmp_path / "kitgen-serve-notes", tmp_path / "kitgen-serve-12-abc", tmp_path / "mine"]
        for path in strangers:
            path.mkdir()
        (tmp_path / f"kitgen-serve-{gone_pid}-link_123").symlink_to(unlocked)
        removed = workspace.sweep(tmp_path)
        assert sorted(removed) == sorted([unlocked, no_lock])
        assert not unlocked.exists() and not no_lock.exists()
        assert live.path.exists() and other.exists() and all(p.exists() for p in strangers)
    finally:
        holder.kill()
        holder.wait()
        live.remove()


def test_a_server_killed_with_9_leaves_folders_the_next_server_removes(fake, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path / "t")}
    (tmp_path / "t").mkdir()
    starter = tmp_path / "serve_fake.py"          # kitgen serve, its child the fake one
    starter.write_text(f"import sys\nfrom kitgen.serve import children\n"
                       f"children.CHILD = [{str(tmp_path / 'fake_kitgen.py')!r}]\n"
                       "from kitgen.cli import main\nmain(['serve', '--no-browser'])\n")
    first = subprocess.Popen([sys.executable, str(starter)], env=env, stdout=subprocess.PIPE, text=True)
    try:
        url = first.stdout.readline().removeprefix("kitgen serve: open ").strip()
        base, token = url.split("/?token=")
        import urllib.request

        request = urllib.request.Request(f"{base}/jobs", method="POST", data=b"deck=class-science",
                                         headers={serve_app.TOKEN_HEADER: token,
                                                  "Content-Type": "application/x-www-form-urlencoded"})
        assert urllib.request.urlopen(request, timeout=60).status == 202
        pid = until(lambda: running(fake))[0]
        (left,) = (tmp_path / "t").iterdir()
        assert left.name.startswith(f"kitgen-serve-{first.pid}-")
        first.kill()
        first.wait()
        until(lambda: not alive(pid))              # its child went with it
        assert left.exists()
    finally:
        first.kill()
    second = subprocess.Popen([sys.executable, "-m", "kitgen", "serve", "--no-browser"], env=env,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert second.stdout.readline().startswith("kitgen serve: open ")
        assert not left.exists()
    finally:
        second.terminate()
        assert second.wait(timeout=60) == 0        # SIGTERM stops it as Ctrl+C does


# ---- 6. loopback hosts ----

@pytest.mark.parametrize("host, loopback", [("127.0.0.1", True), ("localhost", True), ("::1", True),
                                            ("[::1]", True), ("127.0.0.2", True), ("LOCALHOST", True),
                                            ("0.0.0.0", False), ("::", False), ("192.168.1.5", False),
                                            ("example.com", False)])
def test_loopback_hosts(host, loopback):
    assert serve_app.is_loopback(host) is loopback


@pytest.mark.parametrize("host", ["localhost", "::1"])
def test_a_loopback_host_is_not_warned_of(host):
    process = subprocess.Popen([sys.executable, "-m", "kitgen", "serve", "--no-browser", "--host", host],
                               env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("kitgen serve: open http://" + ("[::1]" if host == "::1" else host) + ":"), line
    finally:
        process.terminate()
        process.wait(timeout=60)
    assert process.stderr.read() == ""


# ---- 12. the real limits, as the docs (docs/commands/serve.md) state them ----

def readme_serve() -> str:
    """The page of `kitgen serve` on the docs site (once README's section "A page for teachers")."""
    from docs_text import page

    return page("commands/serve.md")


def test_readme_states_the_servers_real_limits():
    section = readme_serve()
    for said, value in ((r"([\d,]+) MB", limits.MAX_REQUEST_BYTES // 1_000_000),
                        (r"([\d,]+) files", limits.MAX_FILES),
                        (r"([\d,]+) kitgen processes run at once", limits.MAX_CHILDREN),
                        (r"([\d,]+) more wait", limits.MAX_WAITING),
                        (r"([\d,]+) GB of memory", limits.CHILD_MEMORY // 2**30),
                        (r"last ([\d,]+) finished", limits.KEPT_JOBS)):
        found = re.search(said, section)
        assert found and int(found[1].replace(",", "")) == value, said
    for name in fields.FIELDS:                 # and every field it takes
        assert f"`{name}`" in section, name


def test_a_thousand_files_are_taken_and_one_more_is_refused(client, monkeypatch):
    assert limits.MAX_FILES == 1_000
    seen = []
    monkeypatch.setattr(children, "run_kitgen", lambda args, folder, *a, **k: seen.append(
        len(list((folder / "upload" / "pictures").iterdir())))
        or subprocess.CompletedProcess(args, 2, "", "kitgen: error: x"))
    files = [deck(f"p{i}.png", b"x") for i in range(limits.MAX_FILES + 1)]
    answer = post(client, "/build", {"deck": files, "edition": "pictures"})
    assert (answer.status_code, answer.get_json()) == (400, {"error": "1001 files uploaded: at most 1000 in one build"})
    files = [deck(f"p{i}.png", b"x") for i in range(limits.MAX_FILES)]
    assert post(client, "/build", {"deck": files, "edition": "pictures"}).get_json() == {"error": "x"}
    assert seen == [1_000]


def test_a_request_over_200_mb_is_refused_before_it_is_read():
    assert limits.MAX_REQUEST_BYTES == 200_000_000
    server = serve_app.start("127.0.0.1", 0)
    try:
        host, port = server.url.split("/")[2].split(":")
        token = server.url.split("=")[1]
        for size, refused in ((limits.MAX_REQUEST_BYTES + 1, True), (limits.MAX_REQUEST_BYTES, False)):
            with socket.create_connection((host, int(port)), timeout=60) as connection:
                connection.sendall((f"POST /check?token={token} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                                    f"{serve_app.TOKEN_HEADER}: {token}\r\nContent-Type: multipart/form-data; "
                                    f"boundary=b\r\nContent-Length: {size}\r\n\r\n").encode())
                if not refused:
                    connection.sendall(b"--b--\r\n")           # and stop: the server waits for the rest
                    connection.settimeout(3)
                try:
                    status = connection.recv(200).split(b"\r\n")[0]
                except TimeoutError:
                    status = b"waiting for the rest"
            assert (status == b"HTTP/1.1 413 REQUEST ENTITY TOO LARGE") is refused, status
    finally:
        server.stop()
