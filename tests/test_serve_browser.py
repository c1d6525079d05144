"""kitgen serve end to end: a real server on a free port, driven by headless Chromium through the
page as a teacher would use it (upload a CSV deck, check, build, download kit.pdf), and a load of
50 builds from 5 clients at once (docs/design.md §11)."""

import hashlib
import io
import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
import uuid
import zipfile
from concurrent.futures import ThreadPoolExecutor

import pypdfium2
import pytest
from PIL import Image

from kitgen.serve import app as serve_app

from browser import CHROMIUM, DRIVER, MISSING, chromium

WORDS = ["Apple", "Bank", "Bat", "Crane", "Duck", "Egg", "Fork", "Goat", "Hat", "Ice", "Jam", "Kite", "Lamp",
         "Moon", "Nut", "Owl", "Pen", "Queen", "Rose", "Sun", "Tree", "Umbrella", "Van", "Wolf", "Yak", "Zebra"]
SCREENSHOT = os.environ.get("KITGEN_SERVE_SCREENSHOT")     # a path: where to keep the page's screenshot (README's)
CHECK_SCREENSHOT = os.environ.get("KITGEN_SERVE_CHECK_SCREENSHOT")     # and of what the check says
LONG = "Pneumonoultramicroscopicsilicovolcanoconiosis"


@pytest.fixture(scope="module")
def server():
    running = serve_app.start("127.0.0.1", 0)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if not (CHROMIUM and DRIVER):
        pytest.skip(MISSING)
    driver = chromium(tmp_path_factory.mktemp("profile"))
    downloads = tmp_path_factory.mktemp("downloads")
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    driver.downloads = downloads
    yield driver
    driver.quit()


def wait(condition, seconds=120):
    """Until ``condition()`` is true (polled; the limit only stops a hung test, it times nothing)."""
    for _ in range(int(seconds * 10)):
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("the page never got there")


def test_a_teacher_uploads_a_csv_builds_and_downloads_a_pdf_with_the_words(server, browser, tmp_path):
    from selenium.webdriver.common.by import By

    deck = tmp_path / "Year 5 words.csv"
    deck.write_text("word\n" + "\n".join(WORDS + ["bank", "Kites", LONG]) + "\n", encoding="utf-8")
    browser.get_log("performance")
    browser.get(server.url)
    browser.find_element(By.ID, "deck-file").send_keys(str(deck))
    browser.find_element(By.ID, "check").click()
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#checks li"))
    assert "duplicate words" in browser.find_element(By.CSS_SELECTOR, "#checks li.fail").text
    beside = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
              for row in browser.find_elements(By.CSS_SELECTOR, "#words-checked tbody tr")]
    assert beside == [["Bank", "3", "FAIL written again: bank (line 28); keep one"],
                      ["Kite", "13", "WARN near-duplicate of Kites: they give each other away on one board"],
                      ["Kites", "29", "WARN near-duplicate of Kite: they give each other away on one board"],
                      [LONG, "30", "FAIL does not fit its card even at 9pt; shorten it"]]
    size = browser.get_window_size()
    browser.set_window_size(390, 900)                # a phone: the long word wraps, nothing scrolls sideways
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    if CHECK_SCREENSHOT:
        result = browser.find_element(By.CSS_SELECTOR, "section")
        browser.set_window_size(390, browser.execute_script("return document.body.scrollHeight") + 140)
        browser.save_screenshot(CHECK_SCREENSHOT)
        top = browser.execute_script("return arguments[0].getBoundingClientRect().top", result)
        ratio = browser.execute_script("return window.devicePixelRatio")
        with Image.open(CHECK_SCREENSHOT) as shot:
            shot.crop((0, int(top * ratio), shot.width, shot.height)).save(CHECK_SCREENSHOT)
    browser.set_window_size(size["width"], size["height"])
    assert browser.find_element(By.CSS_SELECTOR, "#words-checked span.fail").value_of_css_property("color") == \
        "rgba(165, 29, 45, 1)"
    assert browser.find_element(By.ID, "status").get_attribute("role") == "alert"
    browser.find_element(By.ID, "build").click()
    wait(lambda: "duplicate" in browser.find_element(By.ID, "status").text)       # the CLI's line, on the page

    deck.write_text("word\n" + "\n".join(WORDS) + "\n", encoding="utf-8")
    browser.find_element(By.ID, "deck-file").clear()
    browser.find_element(By.ID, "deck-file").send_keys(str(deck))
    assert browser.find_elements(By.CSS_SELECTOR, "#checks li") == []          # the check was of the old deck
    browser.find_element(By.ID, "keys").send_keys("2")
    browser.find_element(By.ID, "build").click()
    wait(lambda: "ready" in browser.find_element(By.ID, "status").text)
    wait(lambda: all(browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image)
                     for image in browser.find_elements(By.CSS_SELECTOR, "#previews img")))
    assert len(browser.find_elements(By.CSS_SELECTOR, "#previews img")) == 4
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    if SCREENSHOT:
        browser.set_window_size(390, browser.execute_script("return document.body.scrollHeight") + 140)
        browser.execute_script("window.scrollTo(0, 0)")
        browser.save_screenshot(SCREENSHOT)
    browser.find_element(By.LINK_TEXT, "Download kit.pdf").click()
    pdf = wait(lambda: next((p for p in browser.downloads.glob("*.pdf")), None))
    assert pdf.name == "kit.pdf"
    text = subprocess.run([shutil.which("pdftotext"), str(pdf), "-"], capture_output=True, text=True).stdout
    assert {word.upper() for word in WORDS} <= set(text.split())              # cards print words in capitals

    events = [json.loads(entry["message"])["message"] for entry in browser.get_log("performance")]
    requested = {e["params"]["request"]["url"] for e in events if e["method"] == "Network.requestWillBeSent"}
    base = server.url.split("?")[0]
    assert requested and all(url.startswith(base) for url in requested), requested


def test_checking_pictures_shows_each_one_beside_what_the_check_says(server, browser, tmp_path):
    from PIL import Image
    from selenium.webdriver.common.by import By

    files = []
    for i in range(20):
        path = tmp_path / f"Photo {i}.png"
        Image.new("RGB", (600, 600) if i else (50, 50), (i * 12, 40, 200 - i * 8)).save(path)
        files.append(str(path))
    browser.get(server.url)
    browser.find_element(By.ID, "kind-pictures").click()
    browser.find_element(By.ID, "picture-files").send_keys("\n".join(files))
    browser.find_element(By.ID, "check").click()
    figures = wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#pictures-checked figure"))
    assert len(figures) == 20
    first = figures[0]              # the one with a remark comes first, its thumbnail drawn (CSP allows data:)
    assert first.find_element(By.TAG_NAME, "figcaption").text.startswith("Photo 0.png\nWARN ")
    image = first.find_element(By.TAG_NAME, "img")
    assert image.get_attribute("alt") == "Photo 0.png"
    assert wait(lambda: browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth",
                                               image)) == 50
    assert all(f.find_element(By.TAG_NAME, "figcaption").text == f"Photo {i}.png" for i, f in
               zip(sorted(range(1, 20), key=lambda n: f"Photo {n}.png"), figures[1:]))
    assert browser.find_element(By.ID, "words-checked").get_attribute("hidden")


def test_a_duet_kit_from_a_classroom_deck_previews_each_part_with_its_timer_tokens(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(server.url)
    browser.find_element(By.ID, "kind-duet").click()
    assert browser.find_element(By.ID, "words").is_displayed() and browser.find_element(By.ID, "keys").is_displayed()
    Select(browser.find_element(By.ID, "builtin")).select_by_value("class-science")
    browser.find_element(By.ID, "keys").send_keys("2")
    browser.find_element(By.ID, "build").click()
    wait(lambda: "ready" in browser.find_element(By.ID, "status").text)
    assert [img.get_attribute("alt") for img in browser.find_elements(By.CSS_SELECTOR, "#previews img")] == [
        f"the first sheet of {part}.pdf" for part in ("codenames", "keys", "tiles", "tokens", "rules")]
    assert browser.find_element(By.LINK_TEXT, "Download tokens.pdf")


def test_the_page_works_with_a_keyboard_alone(server, browser):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(server.url)
    reached = []
    for _ in range(30):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        reached.append(browser.switch_to.active_element.get_attribute("id"))
        if reached[-1] == "build":
            break
    assert reached[0] == "kind-words" and {"words", "kit-name", "deck-file", "builtin", "lang", "paper", "duplex",
                                           "ink", "keys", "seed", "check", "build"} <= set(reached), reached
    builtin = browser.find_element(By.ID, "builtin")
    builtin.send_keys("class-science")
    browser.find_element(By.ID, "keys").send_keys("2")
    browser.find_element(By.ID, "build").send_keys(Keys.ENTER)
    wait(lambda: "ready" in browser.find_element(By.ID, "status").text)
    assert "class-science" in browser.find_element(By.ID, "status").text


def test_single_game_sheets_from_a_classroom_deck(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(server.url)
    browser.find_element(By.ID, "kind-deduction").click()            # a theme of its own: no deck to check
    assert not browser.find_element(By.ID, "check").is_displayed()
    assert browser.find_element(By.ID, "players").is_displayed()
    browser.find_element(By.ID, "kind-sheets").click()
    assert not browser.find_element(By.ID, "paper").is_displayed()
    assert browser.find_element(By.ID, "count").is_displayed()
    assert browser.find_element(By.ID, "check").is_displayed()
    assert browser.find_element(By.ID, "sheet-edition").is_displayed()
    Select(browser.find_element(By.ID, "builtin")).select_by_value("class-science")
    browser.find_element(By.ID, "count").send_keys("2")
    browser.find_element(By.ID, "build").click()
    wait(lambda: "ready" in browser.find_element(By.ID, "status").text)
    link = browser.find_element(By.LINK_TEXT, "Download games.pdf")
    assert [img.get_attribute("alt") for img in browser.find_elements(By.CSS_SELECTOR, "#previews img")] == [
        "the first sheet of games.pdf"]
    assert link.get_attribute("href").startswith(server.url.split("?")[0] + "jobs/")


def test_single_duet_games_have_a_key_page_for_each_player(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(server.url)
    browser.find_element(By.ID, "kind-sheets").click()
    Select(browser.find_element(By.ID, "sheet-edition")).select_by_value("duet")
    Select(browser.find_element(By.ID, "builtin")).select_by_value("class-science")
    browser.find_element(By.ID, "count").send_keys("2")
    browser.find_element(By.ID, "build").click()
    wait(lambda: "ready" in browser.find_element(By.ID, "status").text)
    href = browser.find_element(By.LINK_TEXT, "Download games.pdf").get_attribute("href")
    token = server.url.split("token=")[1]
    with urllib.request.urlopen(f"{href}?token={token}", timeout=60) as answer:
        pdf = answer.read()
    text = [page.get_textpage().get_text_range() for page in pypdfium2.PdfDocument(pdf)]
    assert len(text) == 2 + 2 * 2                     # two boards, then side A's and side B's page of each
    assert ["Side A" in t for t in text[2:]] == [True, False, True, False]
    assert ["Side B" in t for t in text[2:]] == [False, True, False, True]


def build_over_http(url: str, seed: str) -> dict:
    """POST /build as a script would (urllib, multipart by hand): the kit's files."""
    base, token = url.split("/?token=")
    boundary = uuid.uuid4().hex
    fields = [("keys", b"2"), ("seed", seed.encode())]
    body = b"".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n'.encode() + v + b"\r\n"
                    for k, v in fields)
    body += (f'--{boundary}\r\nContent-Disposition: form-data; name="deck"; filename="load.csv"\r\n'
             "Content-Type: text/csv\r\n\r\n").encode() + "\n".join(WORDS).encode() + b"\r\n"
    body += f"--{boundary}--\r\n".encode()
    request = urllib.request.Request(f"{base}/build?token={token}", data=body, method="POST",
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}",
                                              serve_app.TOKEN_HEADER: token})
    with urllib.request.urlopen(request, timeout=600) as answer:
        assert answer.headers["Content-Type"] == "application/zip"
        with zipfile.ZipFile(io.BytesIO(answer.read())) as archive:
            return {name: archive.read(name) for name in archive.namelist()}


def test_fifty_builds_from_five_clients_at_once_each_return_a_correct_kit(server):
    seeds = [f"load {i}" for i in range(50)]
    with ThreadPoolExecutor(5) as clients:
        kits = list(clients.map(lambda seed: build_over_http(server.url, seed), seeds))
    for seed, kit in zip(seeds, kits):
        manifest = json.loads(kit["load/manifest.json"])
        assert manifest["seed"] == seed and len(manifest["keys"]) == 2
        assert {"load/kit.pdf", "load/keys.pdf", "load/codenames.pdf", "load/verify.html"} <= set(kit)
        assert [entry["sha256"] for entry in manifest["files"]] == [
            hashlib.sha256(kit[f"load/{entry['path']}"]).hexdigest() for entry in manifest["files"]]
    assert len({kit["load/keys.pdf"] for kit in kits}) == 50             # each its own seed's keys


def test_the_real_server_refuses_a_foreign_host_and_a_missing_token(server):
    base, token = server.url.split("/?token=")
    for request in (urllib.request.Request(f"{base}/"),
                    urllib.request.Request(f"{base}/?token={token}", headers={"Host": "evil.example"})):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 403


HOSTILE = """<!doctype html><html><body>
<form id="f" method="POST" enctype="multipart/form-data" action="{base}/check">
<input name="deck" value="class-science"></form>
<script>
// what any page on another local port could try: a no-cors fetch, then a form POST, with the user's cookie
fetch('{base}/jobs', {{method: 'POST', mode: 'no-cors', credentials: 'include',
                      body: new URLSearchParams('deck=class-science')}})
  .catch(() => null).then(() => fetch('{base}/build', {{method: 'POST', mode: 'no-cors', credentials: 'include',
    body: 'deck=class-science', headers: {{'Content-Type': 'text/plain'}}}})).catch(() => null)
  .then(() => {{ document.title = 'tried'; document.getElementById('f').submit(); }});
</script></body></html>"""


@pytest.mark.parametrize("other_host", ["127.0.0.1", "localhost"])
@pytest.mark.parametrize("cookie", [True, False], ids=["with the cookie", "without the cookie"])
def test_a_page_on_another_local_port_cannot_drive_the_server(server, browser, other_host, cookie):
    """A page served from another port of this machine, in the browser that has kitgen's page open:
    its fetches and its form POST reach the server and are refused; no build or check starts."""
    import http.server
    import threading

    base = server.url.split("/?token=")[0]
    page = HOSTILE.format(base=base).encode()

    class Hostile(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    hostile = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    threading.Thread(target=hostile.serve_forever, daemon=True).start()
    work, _ = server.app.extensions["kitgen"]
    admitted, admit = [], work.admit
    work.admit = lambda: admitted.append(1) or admit()
    try:
        browser.get(server.url)                   # the teacher's page: it sets the cookie
        if not cookie:
            browser.delete_all_cookies()
        browser.get(f"http://{other_host}:{hostile.server_address[1]}/")
        wait(lambda: browser.current_url.startswith(f"{base}/check"))          # the form POST was answered
        assert "forbidden" in browser.find_element("tag name", "body").text
        browser.get(server.url)                   # and the teacher's page still works
        assert admitted == []
    finally:
        work.admit = admit
        hostile.shutdown()
