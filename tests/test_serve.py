"""kitgen serve through Flask's test client (docs/design.md §11): the API gives the command line's
kit byte for byte and its one-line messages; the token and the Host header guard every request;
uploads are held to limits and never used as paths; two builds at once both succeed."""

import base64
import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from kitgen.serve import app as serve_app, children, fields, jobs, limits, uploads

from servetest import ADDRESS, CSV, TOKEN, WORDS, Upload, deck

ROOT = Path(__file__).resolve().parent.parent


def post(client, path, data, token=TOKEN, host=ADDRESS):
    """A POST as a script given the token sends it (the page sends its form token instead)."""
    return client.post(f"{path}?token={token}", data=data, content_type="multipart/form-data",
                       base_url=f"http://{host}", headers={serve_app.TOKEN_HEADER: token})


def kitgen(args, cwd):
    """The command line itself, this tree's kitgen."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=cwd, env=env, capture_output=True, text=True)


def cli_error(args, cwd) -> str:
    done = kitgen(args, cwd)
    assert done.returncode == 2, done.stderr
    return done.stderr.strip().splitlines()[-1].removeprefix("kitgen: error: ")


def unzipped(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_a_build_through_the_api_is_the_command_lines_kit_byte_for_byte(client, tmp_path):
    options = {"keys": "3", "seed": "lesson 4", "duplex": "short", "ink": "saver", "paper": "letter", "slug": "1"}
    answer = post(client, "/build", {"deck": deck(), **options})
    assert answer.status_code == 200, answer.data
    assert answer.mimetype == "application/zip"
    got = unzipped(answer.data)
    (tmp_path / "lesson.csv").write_bytes(CSV)
    done = kitgen(["build", "--deck", "lesson.csv", "--keys", "3", "--seed", "lesson 4", "--duplex", "short",
                   "--ink", "saver", "--paper", "letter", "--slug", "--out", "out"], tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr       # no progress lines without KITGEN_PROGRESS
    folder = tmp_path / "out" / "lesson"
    expected = {f"lesson/{p.relative_to(folder).as_posix()}": p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert sorted(got) == sorted(expected)
    assert {"lesson/kit.pdf", "lesson/keys.pdf", "lesson/verify.html", "lesson/manifest.json"} <= set(got)
    assert [name for name in got if got[name] != expected[name]] == []
    assert json.loads(got["lesson/manifest.json"])["seed"] == "lesson 4"


def test_the_page_s_ink_saver_builds_the_deduction_game_as_the_command_line_does(client, tmp_path):
    """The page offers ink saver whatever it makes: the server passes it to a deduction build too."""
    assert fields.build_arguments({"game": "deduction", "ink": "saver", "players": "2"}, uploads.Deck(tmp_path)) == [
        "build", "--out=out", "--game=deduction", "--ink=saver", "--players=2"]
    answer = post(client, "/build", {"game": "deduction", "ink": "saver", "players": "2"})
    assert answer.status_code == 200, answer.data
    got = unzipped(answer.data)
    assert json.loads(got["deduction-en/manifest.json"])["options"]["ink"] == "saver"
    done = kitgen(["build", "--game", "deduction", "--ink", "saver", "--players", "2", "--out", "out"], tmp_path)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "out" / "deduction-en"
    assert [p.name for p in folder.glob("*.pdf") if got[f"deduction-en/{p.name}"] != p.read_bytes()] == []


def test_the_zip_is_the_same_bytes_every_time(client):
    first, second = (post(client, "/build", {"deck": deck(), "keys": "2"}).data for _ in range(2))
    assert first == second


def test_pasted_words_build_as_a_text_deck_named_by_the_page(client):
    answer = post(client, "/build", {"words": "\r\n".join(WORDS), "name": "Year 5 Words", "keys": "2"})
    assert answer.status_code == 200, answer.data
    assert "year-5-words/kit.pdf" in unzipped(answer.data)


def test_a_built_in_classroom_deck_is_chosen_by_name(client):
    answer = post(client, "/build", {"deck": "class-science", "keys": "2"})
    assert answer.status_code == 200, answer.data
    manifest = json.loads(unzipped(answer.data)["class-science/manifest.json"])
    assert manifest["kit"] == "class-science" and manifest["deck"]["words"] == 55


@pytest.mark.parametrize("token", [None, "", "wrong-token", TOKEN + "x"])
def test_a_request_without_the_token_is_forbidden(client, token):
    url = "/" if token is None else f"/?token={token}"
    assert client.get(url, base_url=f"http://{ADDRESS}").status_code == 403
    answer = client.post("/build" if token is None else f"/build?token={token}", data={"deck": deck()},
                         content_type="multipart/form-data", base_url=f"http://{ADDRESS}")
    assert answer.status_code == 403


def test_the_first_visit_sets_a_strict_http_only_cookie_that_lets_later_requests_in(client):
    first = client.get(f"/?token={TOKEN}", base_url=f"http://{ADDRESS}")
    assert first.status_code == 200 and b"<label" in first.data
    cookie = first.headers["Set-Cookie"]
    assert f"{serve_app.TOKEN_COOKIE}={TOKEN}" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.get("/app.js", base_url=f"http://{ADDRESS}").status_code == 200     # the cookie alone
    client.delete_cookie(serve_app.TOKEN_COOKIE, domain="127.0.0.1")
    assert client.get("/app.js", base_url=f"http://{ADDRESS}").status_code == 403


@pytest.mark.parametrize("host", ["evil.example:5555", "127.0.0.1:5556", "127.0.0.1", "attacker.test"])
def test_a_request_for_another_host_is_forbidden_even_with_the_token(client, host):
    assert client.get(f"/?token={TOKEN}", base_url=f"http://{host}").status_code == 403
    assert post(client, "/build", {"deck": deck()}, host=host).status_code == 403


def test_localhost_at_the_same_port_is_the_same_server(client):
    assert client.get(f"/?token={TOKEN}", base_url="http://localhost:5555").status_code == 200


def test_the_page_has_a_label_for_every_field_and_fetches_nothing_from_elsewhere(client):
    page = client.get(f"/?token={TOKEN}", base_url=f"http://{ADDRESS}").data.decode()
    ids = re.findall(r"<(?:input|select|textarea)[^>]*\bid=\"([^\"]+)\"", page)
    labelled = set(re.findall(r"<label for=\"([^\"]+)\"", page)) | \
        set(re.findall(r"<label[^>]*><input[^>]*\bid=\"([^\"]+)\"", page))
    radios = re.findall(r"<label><input type=\"radio\"", page)
    assert ids and set(ids) <= labelled, set(ids) - labelled
    assert len(radios) == 5              # words, pictures, duet, deduction, single-game sheets
    assert not re.search(r"(src|href)=\"(https?:)?//", page)
    script = client.get("/app.js", base_url=f"http://{ADDRESS}").data.decode()
    assert "http" not in script
    assert "default-src 'self'" in client.get(f"/?token={TOKEN}", base_url=f"http://{ADDRESS}").headers[
        "Content-Security-Policy"]


def test_a_request_larger_than_the_limit_gets_413_and_the_server_goes_on(app, client):
    app.config["MAX_CONTENT_LENGTH"] = 10_000
    answer = post(client, "/build", {"deck": deck("big.csv", CSV * 1000)})
    assert answer.status_code == 413
    assert "too large" in answer.get_json()["error"]
    app.config["MAX_CONTENT_LENGTH"] = limits.MAX_REQUEST_BYTES
    assert post(client, "/build", {"deck": deck(), "keys": "2"}).status_code == 200


def test_too_many_files_is_one_line(client, monkeypatch):
    monkeypatch.setattr(limits, "MAX_FILES", 3)
    answer = post(client, "/build", {"deck": [deck(f"p{i}.png", b"x") for i in range(4)], "edition": "pictures"})
    assert answer.status_code == 400
    assert answer.get_json() == {"error": "4 files uploaded: at most 3 in one build"}


def test_too_many_files_in_a_zip_is_one_line_naming_the_zip(client, monkeypatch):
    monkeypatch.setattr(limits, "MAX_FILES", 3)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for i in range(4):
            archive.writestr(f"p{i}.png", b"x")
    answer = post(client, "/build", {"deck": (io.BytesIO(buffer.getvalue()), "Class pictures.zip"),
                                     "edition": "pictures"})
    assert answer.status_code == 400
    assert answer.get_json()["error"] == "Class pictures.zip: 4 files in the zip: at most 3 in one build"


def png(size=(64, 64), colour=0) -> bytes:
    buffer = io.BytesIO()
    Image.new("L", size, colour).save(buffer, "PNG")
    return buffer.getvalue()


def test_a_picture_with_too_many_pixels_is_named_as_uploaded(client):
    pictures = [deck(f"p{i}.png", png(colour=i * 10)) for i in range(20)]
    pictures.append(deck("Big Photo.PNG", png((8000, 5001))))
    answer = post(client, "/build", {"deck": pictures, "edition": "pictures", "keys": "2"})
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error.startswith("Big Photo.PNG") and "too many pixels" in error and "40 million" in error
    assert "upload" not in error and "big-photo" not in error


def test_a_zip_of_pictures_builds_a_pictures_kit(client):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for i in range(20):
            archive.writestr(f"class/../../p{i}.png", png(colour=i * 12))
        archive.writestr("__MACOSX/._p0.png", b"junk")
    answer = post(client, "/build", {"deck": (io.BytesIO(buffer.getvalue()), "Our Pictures.zip"),
                                     "edition": "pictures", "keys": "2"})
    assert answer.status_code == 200, answer.data
    assert "our-pictures/kit.pdf" in unzipped(answer.data)


@pytest.mark.parametrize("name", ["../../lesson.csv", "..\\..\\lesson.csv", "/etc/lesson.csv", "lesson.csv\x00.txt",
                                  "~/lesson.csv", "C:\\Windows\\lesson.csv"])
def test_an_uploaded_name_is_never_a_path(client, name, tmp_path):
    saved = uploads.safe_name(name, set())
    assert re.fullmatch(r"[a-z0-9-]+(\.[a-z0-9]{1,5})?", saved), saved
    answer = post(client, "/build", {"deck": deck(name), "keys": "2"})
    assert answer.status_code == 200, answer.data
    # the kit's folder is one plain slug ending in the file's own name, whatever the path before it: a
    # NUL ends no name (the rest is its extension), and Werkzeug 3.1.9 drops a name's backslashes
    # (C:Windowslesson.csv) where 3.1.8 keeps them for us to cut at
    tops = {n.split("/")[0] for n in unzipped(answer.data)}
    assert len(tops) == 1, tops
    (top,) = tops
    assert re.fullmatch(r"[a-z0-9-]+", top) and top.endswith("lesson-csv" if "\x00" in name else "lesson"), top


def test_safe_names_never_collide():
    taken = set()
    assert [uploads.safe_name(n, taken) for n in ["a.png", "A.PNG", "a!.png", "a"]] == ["a.png", "a-2.png",
                                                                                     "a-3.png", "a"]


def test_each_build_runs_in_a_temporary_folder_removed_afterwards(client, monkeypatch, tmp_path):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    assert post(client, "/build", {"deck": deck(), "keys": "2"}).status_code == 200
    assert post(client, "/build", {"deck": deck("x.csv", b"a\n")}).status_code == 400
    assert list(tmp_path.iterdir()) == []


BAD = {
    "a deduction option": ({"players": "3"}, ["--players", "3"]),
    "pdfx without cmyk": ({"pdfx": "1"}, ["--pdfx"]),
    "too few words": ({"deck": deck("few.txt", b"one\ntwo\n")}, None),
    "duplicates": ({"deck": deck("dup.csv", CSV + b"apple\n")}, None),
    "latin-1": ({"deck": deck("old.txt", "caf\xe9\n".encode("latin-1") * 30)}, None),
    "bad yaml": ({"deck": deck("deck.yaml", b"words: [a, b\n")}, None),
}


@pytest.mark.parametrize("fields, args", BAD.values(), ids=BAD.keys())
def test_bad_input_gets_the_command_lines_one_line(client, tmp_path, fields, args):
    fields = dict(fields)
    upload = fields.setdefault("deck", deck())
    name, data = upload[1], upload[0].getvalue()
    (tmp_path / name).write_bytes(data)
    answer = post(client, "/build", fields)
    assert answer.status_code == 400
    assert answer.get_json() == {"error": cli_error(["build", "--deck", name, *(args or []), "--out", "out"],
                                                    tmp_path)}
    assert post(client, "/build", {"deck": deck(), "keys": "2"}).status_code == 200     # and it goes on


TYPED = {      # each field's type and range, checked by the server before any kitgen runs
    "not a number": ({"keys": "many"}, "keys 'many': a whole number from 1 to 100000"),
    "too many keys": ({"keys": "100001"}, "keys '100001': a whole number from 1 to 100000"),
    "a sign": ({"keys": "-3"}, "keys '-3': a whole number from 1 to 100000"),
    "bad choice": ({"duplex": "diagonal"}, "duplex 'diagonal': one of long, short, none, fold"),
    "a bad flag": ({"slug": "maybe"}, "slug is on or off: send 1 or 0, not 'maybe'"),
    "a control character": ({"seed": "a\x07b"}, "seed: at most 200 characters, none of them a control character"),
    "a long seed": ({"seed": "x" * 201}, "seed: at most 200 characters, none of them a control character"),
    "a games option": ({"count": "3"}, "field 'count': a kit build does not take it"),
}


@pytest.mark.parametrize("fields, said", TYPED.values(), ids=TYPED.keys())
def test_each_field_is_typed_and_ranged_by_the_server(client, fields, said):
    answer = post(client, "/build", {"deck": deck(), **fields})
    assert (answer.status_code, answer.get_json()) == (400, {"error": said})


@pytest.mark.parametrize("field, value", [("out", "/tmp/elsewhere"), ("icc", "/etc/passwd"), ("deck", "/etc/passwd"),
                                          ("deck", "../decks/classic-en.yaml"), ("slug", "maybe")])
def test_paths_and_bad_flags_are_refused_in_one_line(client, field, value):
    answer = post(client, "/build", {field: value} if field == "deck" else {"deck": deck(), field: value})
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert "\n" not in error and (f"{field}" in error or value[:10] in error)


def test_check_gives_the_lines_of_deck_check(client, tmp_path):
    data = CSV + b"Apples\nbank\n"
    answer = post(client, "/check", {"deck": deck("lesson.csv", data)})
    assert answer.status_code == 200
    (tmp_path / "lesson.csv").write_bytes(data)
    done = kitgen(["deck", "check", "lesson.csv"], tmp_path)
    assert done.returncode == 3
    result = answer.get_json()
    assert result["ok"] is False
    assert [f"{line['status']:<4} {line['text']}" for line in result["lines"]] == done.stdout.splitlines()
    assert any(line["status"] == "FAIL" and "Bank" in line["text"] for line in result["lines"])


def test_check_puts_what_it_says_beside_each_word_of_a_yaml_deck(client):
    data = ("name: Lesson\nwords:\n" + "".join(f"  - {w}\n" for w in WORDS + ["Apples", "bank"])).encode()
    answer = post(client, "/check", {"deck": deck("Lesson 4.yaml", data)})
    assert answer.status_code == 200, answer.data
    result = answer.get_json()
    assert result["kind"] == "words" and result["lines"][0]["text"].startswith("Lesson 4.yaml: 27 distinct words")
    assert all(any(n["status"] == "NOTE" and n["text"] == "script Latn in noto-sans" for n in e["notes"])
               for e in result["entries"])                 # each word's script and font
    said = {e["name"]: (e["line"], [n["status"] + " " + n["text"] for n in e["notes"] if n["status"] != "NOTE"])
            for e in result["entries"] if any(n["status"] != "NOTE" for n in e["notes"])}
    assert said == {"Apple": (3, ["WARN near-duplicate of Apples: they give each other away on one board"]),
                    "Bank": (4, ["FAIL written again: bank (line 30); keep one"]),
                    "Apples": (29, ["WARN near-duplicate of Apple: they give each other away on one board"])}


def test_two_builds_at_once_both_succeed(app):
    answers = {}

    def build(seed):
        answers[seed] = post(app.test_client(), "/build", {"deck": deck(), "keys": "2", "seed": seed})

    threads = [threading.Thread(target=build, args=(seed,)) for seed in ("one", "two")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for seed, answer in answers.items():
        assert answer.status_code == 200, answer.data
        assert json.loads(unzipped(answer.data)["lesson/manifest.json"])["seed"] == seed


def test_the_page_builds_as_a_job_with_previews_and_downloads(client):
    started = post(client, "/jobs", {"deck": deck(), "keys": "2"})
    assert started.status_code == 202
    key = started.get_json()["job"]
    state = finished(client, key)
    assert state["state"] == "done", state
    assert state["pages"] == state["of"] > 0                             # the build's pages, counted as drawn
    assert state["previews"] == ["codenames.pdf", "keys.pdf", "tiles.pdf", "rules.pdf"]       # as drawn
    shown = client.get(f"/jobs/{key}/previews/keys.pdf?token={TOKEN}", base_url=f"http://{ADDRESS}")
    assert shown.mimetype == "image/png" and Image.open(io.BytesIO(shown.data)).size[0] > 100
    pdf = client.get(f"/jobs/{key}/files/kit.pdf?token={TOKEN}", base_url=f"http://{ADDRESS}")
    assert pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF")
    assert client.get(f"/jobs/{key}/files/../../etc/passwd?token={TOKEN}",
                      base_url=f"http://{ADDRESS}").status_code == 404
    whole = client.get(f"/jobs/{key}/kit.zip?token={TOKEN}", base_url=f"http://{ADDRESS}")
    assert unzipped(whole.data)["lesson/kit.pdf"] == pdf.data


def test_a_failed_job_says_the_command_lines_line(client):
    state = finished(client, post(client, "/jobs", {"deck": deck("few.txt", b"a\nb\n")}).get_json()["job"])
    assert state == {**state, "state": "failed", "error": "few.txt: has 2 distinct words; a kit needs at least 25"}


def serve_process(*args, browser=None):
    """``kitgen serve ARGS`` (with ``--no-browser`` unless ``browser``, a $BROWSER command, is given)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **({"BROWSER": browser} if browser else {})}
    process = subprocess.Popen([sys.executable, "-m", "kitgen", "serve", *([] if browser else ["--no-browser"]),
                                *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return process, process.stdout.readline()


def test_kitgen_serve_prints_its_address_with_a_token_on_127_0_0_1():
    process, line = serve_process("--port", "0")
    try:
        match = re.fullmatch(r"kitgen serve: open http://127\.0\.0\.1:(\d+)/\?token=([\w-]{32})\n", line)
        assert match, line
    finally:
        process.terminate()
        process.wait()
    assert "warning" not in process.stderr.read()


def test_another_host_is_warned_of():
    process, line = serve_process("--host", "0.0.0.0", "--port", "0")
    try:
        assert line.startswith("kitgen serve: open http://0.0.0.0:")
    finally:
        process.terminate()
        process.wait()
    assert "kitgen: warning: listening on 0.0.0.0, not 127.0.0.1" in process.stderr.read()


def test_single_game_sheets_through_the_api_are_kitgen_games_files_byte_for_byte(client, tmp_path):
    answer = post(client, "/game", {"deck": deck(), "count": "3", "seed": "7B lesson", "format": "markdown"})
    assert answer.status_code == 200, answer.data
    got = unzipped(answer.data)
    (tmp_path / "lesson.csv").write_bytes(CSV)
    done = kitgen(["game", "--deck", "lesson.csv", "--count", "3", "--seed", "7B lesson", "--format", "markdown",
                   "--out", "out"], tmp_path)
    assert done.returncode == 0, done.stderr
    expected = {p.relative_to(tmp_path / "out").as_posix(): p.read_bytes() for p in (tmp_path / "out").rglob("*")
                if p.is_file()}
    assert got == expected and len(got) == 2


def test_a_bad_game_option_is_one_line_and_a_bad_game_deck_the_command_lines_line(client, tmp_path):
    answer = post(client, "/game", {"deck": deck(), "format": "doc"})
    assert (answer.status_code, answer.get_json()) == (400, {"error": "format 'doc': one of pdf, markdown, bbcode, "
                                                                      "html, text"})
    answer = post(client, "/game", {"deck": deck("few.txt", b"one\ntwo\n")})
    (tmp_path / "few.txt").write_bytes(b"one\ntwo\n")
    assert answer.status_code == 400
    assert answer.get_json()["error"] == cli_error(["game", "--deck", "few.txt"], tmp_path)


def finished(client, key):
    for _ in range(600):
        state = client.get(f"/jobs/{key}?token={TOKEN}", base_url=f"http://{ADDRESS}").get_json()
        if state["state"] != "building":
            return state
        time.sleep(0.1)
    raise AssertionError("the job never finished")


def test_the_page_makes_single_game_sheets_as_a_job(client):
    key = post(client, "/jobs", {"make": "game", "deck": "class-efl", "count": "2"}).get_json()["job"]
    state = finished(client, key)
    assert state["state"] == "done" and state["kit"].startswith("games-"), state
    assert state["previews"] == ["games.pdf"]


def test_a_job_makes_a_kit_or_games_and_nothing_else(client):
    answer = post(client, "/jobs", {"make": "shell", "deck": deck()})
    assert answer.status_code == 400 and answer.get_json()["error"].startswith("make 'shell'")


def test_checking_pictures_names_each_low_resolution_picture_as_uploaded(client):
    pictures = [deck(f"Photo {i}.PNG", png(colour=i * 10)) for i in range(20)]
    answer = post(client, "/check", {"deck": pictures, "edition": "pictures"})
    assert answer.status_code == 200, answer.data
    lines = answer.get_json()["lines"]
    assert lines[0] == {"status": "OK", "text": "the uploaded pictures: 20 distinct pictures, each opened and checked"}
    warned = [line["text"] for line in lines if line["status"] == "WARN"]
    assert len(warned) == 20 and all(re.match(r"Photo \d+\.PNG", text) for text in warned), warned
    entries = answer.get_json()["entries"]
    assert sorted(e["name"] for e in entries) == sorted(f"Photo {i}.PNG" for i in range(20))
    for entry in entries:
        assert [n["status"] for n in entry["notes"]] == ["WARN"] and "Photo" not in entry["notes"][0]["text"]
        head, data = entry["thumbnail"].split(",", 1)
        colour = int(entry["name"].split()[1].split(".")[0]) * 10
        thumbnail = Image.open(io.BytesIO(base64.b64decode(data)))
        assert head == "data:image/png;base64" and thumbnail.convert("L").getpixel((5, 5)) == colour


def test_checking_a_zip_of_pictures_names_each_as_it_is_in_the_zip(client):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for i in range(20):
            archive.writestr(f"class/Photo {i}.png", png((400, 400), colour=i * 12))
        archive.writestr("class/read me.txt", b"not a picture")
    answer = post(client, "/check", {"deck": (io.BytesIO(buffer.getvalue()), "Our Pictures.zip")})
    assert answer.status_code == 200, answer.data
    entries = {e["name"]: e for e in answer.get_json()["entries"]}
    assert set(entries) == {f"class/Photo {i}.png" for i in range(20)} | {"class/read me.txt"}
    assert entries["class/read me.txt"]["notes"] == [{"status": "NOTE",
                                                      "text": "not a PNG, JPEG or SVG file; passed over"}]
    assert entries["class/Photo 3.png"]["notes"] == [] and entries["class/Photo 3.png"]["thumbnail"]


def test_kitgen_serve_opens_its_address_in_the_browser_and_stops_on_ctrl_c(tmp_path):
    opened = tmp_path / "opened"
    script = tmp_path / "browser.py"
    script.write_text(f"import sys, pathlib\npathlib.Path({str(opened)!r}).write_text(sys.argv[1])\n")
    process, line = serve_process("--port", "0", browser=f"{sys.executable} {script} %s")
    try:
        url = line.removeprefix("kitgen serve: open ").strip()
        for _ in range(300):
            if opened.exists() and opened.read_text():
                break
            time.sleep(0.1)
        assert opened.read_text() == url
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 0
    finally:
        process.kill()
        process.wait()


def test_a_port_in_use_is_one_line():
    running = serve_app.start("127.0.0.1", 0)
    try:
        port = running.url.split(":")[2].split("/")[0]
        process, _ = serve_process("--port", port)
        assert process.wait(timeout=60) == 2
        assert process.stderr.read() == (f"kitgen: error: cannot listen on 127.0.0.1:{port}: Address already in "
                                         "use; choose another --host or --port\n")
    finally:
        running.stop()


def test_the_page_sees_each_parts_preview_while_the_kit_is_still_building_and_the_api_draws_none():
    seen, shown = [], {}
    job = jobs.Job(time.monotonic(), previews=shown)

    def progress(drawn, pages):             # each page the build draws, and the previews there are by then
        seen.append((drawn, pages, list(shown), job.state()["state"]))

    steps = []
    kit = jobs.build({"keys": "2"}, [Upload("lesson.csv", CSV)], steps.append, progress, shown=shown)
    assert steps == ["building the kit"]                      # no previews left to draw after the build
    assert list(shown) == ["codenames.pdf", "keys.pdf", "tiles.pdf", "rules.pdf"]      # in the order drawn
    assert sorted(shown) == kit.parts()
    pages = seen[-1][1]
    first = {part: next(n for n, _, there, _ in seen if part in there) for part in shown if part != "rules.pdf"}
    # each card part's preview was there while pages were still being drawn: half of them are kit.pdf's
    assert all(n < pages // 2 + 2 for n in first.values()), (first, pages)
    assert first["codenames.pdf"] < first["keys.pdf"] < first["tiles.pdf"]
    assert all(state == "building" for *_, state in seen)
    for part, png in shown.items():                           # each the first sheet of the part the kit holds
        expected = pdfium.PdfDocument(kit.files[part])[0].render(scale=limits.PREVIEW_DPI / 72).to_pil()
        assert Image.open(io.BytesIO(png)).convert("RGB").tobytes() == expected.convert("RGB").tobytes(), part
    quiet = []
    jobs.build({"keys": "2"}, [Upload("lesson.csv", CSV)], quiet.append)
    assert quiet == ["building the kit"]


def test_a_build_writes_each_part_where_kitgen_drawn_says_before_the_kit(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "lesson.csv").write_bytes(CSV)
    told = []

    def drawn(name):                       # the build is still going: the kit folder is not there yet
        told.append((name, (folder / "drawn" / name).read_bytes()[:5], (folder / "out").exists()))

    done = children.run_kitgen(["build", "--deck=lesson.csv", "--keys=2", "--out=out"], folder, drawn=drawn)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert told == [(name, b"%PDF-", False) for name in ("codenames.pdf", "keys.pdf", "tiles.pdf", "rules.pdf")]
    for name, *_ in told:
        assert (folder / "drawn" / name).read_bytes() == (folder / "out" / "lesson" / name).read_bytes()
    deduction = tmp_path / "deduction"
    deduction.mkdir()
    parts = []
    done = children.run_kitgen(["build", "--game=deduction", "--out=out"], deduction, drawn=parts.append)
    assert done.returncode == 0
    assert parts == ["board.pdf", "cards.pdf", "tiles.pdf", "tokens.pdf", "aids.pdf", "notepad.pdf", "rules.pdf",
                     "setup.pdf"]


def test_a_duet_kit_through_the_api_is_the_command_lines_kit(client, tmp_path):
    answer = post(client, "/build", {"deck": deck(), "edition": "duet", "keys": "2"})
    assert answer.status_code == 200, answer.data
    got = unzipped(answer.data)
    (tmp_path / "lesson.csv").write_bytes(CSV)
    done = kitgen(["build", "--deck", "lesson.csv", "--edition", "duet", "--keys", "2", "--out", "out"], tmp_path)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "out" / "lesson"
    expected = {f"lesson/{p.relative_to(folder).as_posix()}": p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert got == expected and "lesson/tokens.pdf" in got
    assert json.loads(got["lesson/manifest.json"])["edition"] == "duet"


def test_single_duet_games_through_the_api_are_kitgen_games_files(client, tmp_path):
    answer = post(client, "/game", {"deck": deck(), "edition": "duet", "count": "2", "seed": "lesson",
                                    "format": "markdown"})
    assert answer.status_code == 200, answer.data
    got = unzipped(answer.data)
    (tmp_path / "lesson.csv").write_bytes(CSV)
    done = kitgen(["game", "--deck", "lesson.csv", "--edition", "duet", "--count", "2", "--seed", "lesson",
                   "--format", "markdown", "--out", "out"], tmp_path)
    assert done.returncode == 0, done.stderr
    (folder,) = (tmp_path / "out").iterdir()
    expected = {f"{folder.name}/{p.name}": p.read_bytes() for p in folder.iterdir()}
    assert got == expected
    assert {name.split("/")[1] for name in got} >= {"public.md", "player-a.md", "player-b.md", "host.md"}


def test_the_servers_modules_are_small_and_import_only_the_ones_before_them():
    """kitgen/serve/ is a package of small modules in one order (limits, workspace, uploads, fields, children,
    jobs, app): each imports only modules before it (no circle), none imports the command line."""
    import ast

    order = ["limits", "workspace", "uploads", "fields", "children", "jobs", "app"]
    folder = ROOT / "kitgen" / "serve"
    assert sorted(p.stem for p in folder.glob("*.py")) == sorted([*order, "__init__"])
    for n, name in enumerate(order):
        source = (folder / f"{name}.py").read_text()
        assert len(source.splitlines()) < 600, name
        tree = ast.parse(source)
        assert ast.get_docstring(tree), name
        siblings, kitgen_modules = set(), set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                siblings.update([node.module] if node.module else [alias.name for alias in node.names])
            elif isinstance(node, ast.ImportFrom) and node.level == 2:
                kitgen_modules.update([node.module] if node.module else [alias.name for alias in node.names])
            elif isinstance(node, ast.ImportFrom | ast.Import):
                modules = [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                assert not any(m.startswith("kitgen") for m in modules), (name, modules)
        assert siblings <= set(order[:n]), (name, siblings - set(order[:n]))
        assert "cli" not in kitgen_modules, name
