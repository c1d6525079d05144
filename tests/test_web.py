"""verify.html in a real browser: Debian's Chromium, headless, driven by selenium through
Debian's chromedriver (browser downloads are not available here; .ci/run installs both).
The page is opened from a kit folder (file://), as a teacher would from a phone's files."""

import hashlib
import json
from pathlib import Path

import pytest

from kitgen.games.codenames import duet_keys, editions, key_deck, key_payload

from browser import CHROMIUM, DRIVER, MISSING, chromium
from raster import render_page

pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER), reason=MISSING)


def camera_video(path: Path, image):
    """A few seconds of a still picture as Y4M (4:2:0), Chromium's fake camera."""
    image = image.convert("RGB").resize((640, 480))
    y, cb, cr = image.convert("YCbCr").split()
    half = (320, 240)
    frame = b"FRAME\n" + y.tobytes() + cb.resize(half).tobytes() + cr.resize(half).tobytes()
    path.write_bytes(b"YUV4MPEG2 W640 H480 F10:1 Ip A1:1 C420jpeg\n" + frame * 30)


@pytest.fixture(scope="module")
def kit(default_kit):
    return default_kit[0], default_kit[2]


@pytest.fixture(scope="module")
def browser(kit, tmp_path_factory):
    folder, manifest = kit
    entry = manifest["keys"][0]
    # the fake camera films key card 1, its QR large in the frame, as a phone held close would
    page = render_page(folder / "keys.pdf", entry["page"] - 1, 300)
    scale = 300 / 72
    x0, y0, x1, y1 = entry["card"]
    height = page.height / scale
    card = page.crop((round(x0 * scale), round((height - y1) * scale), round(x1 * scale), round((height - y0) * scale)))
    w, h = card.size
    video = tmp_path_factory.mktemp("camera") / "key.y4m"
    camera_video(video, card.crop((int(w * 0.45), int(h * 0.55), w, h)).resize((600, 450)))
    driver = chromium(tmp_path_factory.mktemp("profile"), "--use-fake-ui-for-media-stream",
                      "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={video}")
    yield driver
    driver.quit()


def open_page(browser, kit, fragment: str = ""):
    from selenium.webdriver.support.ui import WebDriverWait

    url = (kit[0] / "verify.html").resolve().as_uri() + (f"#{fragment}" if fragment else "")
    browser.get("about:blank")
    browser.get(url)
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    return url


def cells(browser):
    from selenium.webdriver.common.by import By

    return [(td.get_attribute("data-cell"), td.get_attribute("aria-label"))
            for td in browser.find_elements(By.CSS_SELECTOR, "#grid td[data-cell]")]


NAMES = {"R": "red agent", "B": "blue agent", "N": "bystander", "A": "assassin"}


def expect_key(browser, payload: str):
    grid = payload.split(":")[4].split("/")
    shown = cells(browser)
    assert [letter for letter, _ in shown] == list("".join(grid))
    assert [label for _, label in shown] == [f"row {r + 1}, column {c + 1}: {NAMES[letter]}"
                                             for r, row in enumerate(grid) for c, letter in enumerate(row)]


def test_a_words_key_is_shown_cell_by_cell_from_the_fragment(browser, kit):
    payload = kit[1]["keys"][6]["payload"]
    open_page(browser, kit, payload)
    expect_key(browser, payload)
    from selenium.webdriver.common.by import By

    assert browser.find_element(By.ID, "key-title").text == "Key 07/40 of kit CLASSIC-EN"
    assert payload.split(":")[3] in "RB" and browser.find_element(By.ID, "starts").text.endswith("(words edition).")


def test_a_pictures_key_is_shown(browser, kit):
    key = key_deck.generate("a pictures seed", editions.PICTURES, 60)[11]
    payload = key_payload.encode("classic-pictures", key, key_deck.kit_secret("a pictures seed"))
    open_page(browser, kit, payload)
    expect_key(browser, payload)
    assert len(cells(browser)) == 20


@pytest.mark.parametrize("kit_fixture, index", [("kit", 0), ("duet_kit", 2)])
def test_the_seed_tells_whether_the_key_belongs_to_the_kit(browser, request, kit_fixture, index):
    """A words key, and a duet key (its check code over the body as in §4.3), with its kit's seed."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    kit = request.getfixturevalue(kit_fixture)
    manifest = kit[1]
    open_page(browser, kit, manifest["keys"][index]["payload"])
    seed = browser.find_element(By.CSS_SELECTOR, "input[name=seed]")
    verdict = lambda: browser.find_element(By.ID, "verdict").get_attribute("data-verdict")  # noqa: E731
    seed.send_keys(manifest["seed"])
    WebDriverWait(browser, 10).until(lambda d: verdict() == "ok")
    seed.send_keys("x")
    WebDriverWait(browser, 10).until(lambda d: verdict() == "bad")


def test_the_page_computes_the_check_code_as_python_does(browser, kit):
    """The page's own SHA-256 and HMAC (used where WebCrypto is not) against hashlib."""
    open_page(browser, kit)
    for message in (b"", b"abc", b"x" * 200):
        digest = browser.execute_script("return Array.from(sha256(new TextEncoder().encode(arguments[0])))",
                                        message.decode())
        assert bytes(digest) == hashlib.sha256(message).digest()
    code = browser.execute_async_script("const done = arguments[arguments.length - 1];"
                                        "checkCode(arguments[0], arguments[1]).then(done);", "some seed", "KG1:X:1/1")
    from kitgen.games.codenames.key_payload import check_code

    assert code == check_code(key_deck.kit_secret("some seed"), "KG1:X:1/1")


@pytest.mark.parametrize("fragment, message", [
    ("hello", "should start with KG1:"),
    ("KG1:NOPE", "damaged"),
    ("KG1:CLASSIC-EN:1/40:R:RRRRR/RRRRR/RRRRR/RRRRR/RRRRR:AAAAAA", "a words key has 9/8/7/1"),
    ("KG1:CLASSIC-EN:9/8:R:RRRRR/RRRRB/BBBBB/BBBNN/NNNNA:AAAAAA", "cannot be"),
    ("%E0%A4%A", "should start with KG1:"),
])
def test_malformed_fragments_get_a_message_not_a_broken_page(browser, kit, fragment, message):
    from selenium.webdriver.common.by import By

    open_page(browser, kit, fragment)
    shown = browser.find_element(By.ID, "message")
    assert message in shown.text and "problem" in shown.get_attribute("class")
    assert not browser.find_element(By.ID, "key").is_displayed() and cells(browser) == []
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors


def test_no_request_leaves_the_page(browser, kit):
    """Everything is in the file: the only thing the browser loads is the page itself."""
    browser.get_log("performance")                        # drop what came before
    url = open_page(browser, kit, kit[1]["keys"][0]["payload"])
    from selenium.webdriver.common.by import By

    browser.find_element(By.CSS_SELECTOR, "input[name=seed]").send_keys("anything")
    events = [json.loads(entry["message"])["message"] for entry in browser.get_log("performance")]
    requested = {e["params"]["request"]["url"] for e in events if e["method"] == "Network.requestWillBeSent"}
    assert requested and requested <= {url.split("#")[0], "about:blank"}, requested


def test_the_camera_reads_a_key_card(browser, kit):
    """Chromium's fake camera films a rendered key card; the page finds its QR (jsQR: Chromium on
    Linux has no BarcodeDetector) and shows the key."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    open_page(browser, kit)
    assert browser.execute_script("return 'BarcodeDetector' in window") is False
    browser.find_element(By.ID, "scan").click()
    payload = kit[1]["keys"][0]["payload"]
    WebDriverWait(browser, 30).until(lambda d: d.find_element(By.ID, "payload").get_attribute("value") == payload)
    expect_key(browser, payload)
    assert not browser.find_element(By.ID, "video").is_displayed()      # the camera is let go


def test_a_key_behind_a_web_address_opens_the_page(browser, kit):
    """--verify-url makes the QR hold URL#payload: the page reads the payload after the '#'."""
    payload = kit[1]["keys"][2]["payload"]
    open_page(browser, kit, payload)
    expect_key(browser, payload)
    from selenium.webdriver.common.by import By

    box = browser.find_element(By.ID, "payload")
    box.clear()
    box.send_keys(f"https://example.org/kit/verify.html#{payload}")
    expect_key(browser, payload)


def test_the_vendored_qr_reader_is_the_published_one():
    from kitgen.games.codenames import web

    vendored = Path(web.__file__).parent / "vendor" / "jsQR.js"
    assert hashlib.sha256(vendored.read_bytes()).hexdigest() == \
        "bc40c8a15196236b2314db0856f72ca0b49980cd5413b8c852a7349f5fee0859"      # npm jsqr 1.4.0, dist/jsQR.js
    assert "jsQR 1.4.0 (Apache License 2.0)" in web.page(__import__("kitgen.layouts").layouts.load()).decode()


def commit_on_page(browser, kit, payload: str, salt: str):
    """The page opened on ``payload``, its forum section given the key's commitment and ``salt``;
    what the section's verdict then says, as a function."""
    from selenium.webdriver.common.by import By

    from kitgen import commitment

    open_page(browser, kit, payload)
    browser.find_element(By.CSS_SELECTOR, "#forum summary").click()
    browser.find_element(By.CSS_SELECTOR, "input[name=commitment]").send_keys(commitment.commit(payload, salt))
    browser.find_element(By.CSS_SELECTOR, "input[name=salt]").send_keys(salt)
    return lambda: browser.find_element(By.ID, "commitment-verdict").get_attribute("data-verdict")


def test_the_page_checks_a_forum_games_commitment(browser, kit):
    """The host's revealed key and salt against the commitment posted before the game (§3.7)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    payload, salt = kit[1]["keys"][5]["payload"], "0123456789abcdef0123456789abcdef"
    verdict = commit_on_page(browser, kit, payload, salt)
    WebDriverWait(browser, 10).until(lambda d: verdict() == "ok")
    changed = salt[:-1] + "0"
    browser.find_element(By.CSS_SELECTOR, "input[name=salt]").clear()
    browser.find_element(By.CSS_SELECTOR, "input[name=salt]").send_keys(changed)
    WebDriverWait(browser, 10).until(lambda d: verdict() == "bad")
    browser.find_element(By.CSS_SELECTOR, "input[name=salt]").clear()
    browser.find_element(By.CSS_SELECTOR, "input[name=salt]").send_keys(salt)
    box = browser.find_element(By.ID, "payload")
    box.clear()
    box.send_keys(kit[1]["keys"][6]["payload"])                       # another key, same salt
    WebDriverWait(browser, 10).until(lambda d: verdict() == "bad")


def read_with_jsqr(browser, page, text: str):
    """What the open page's jsQR reads from the QR code holding ``text`` (found by zxing-cpp) on a
    rendered page, cropped around it."""
    import base64
    import io

    import zxingcpp

    code = next(c for c in zxingcpp.read_barcodes(page) if c.text == text)
    xs, ys = [p.x for p in (code.position.top_left, code.position.bottom_right)], \
             [p.y for p in (code.position.top_left, code.position.bottom_right)]
    pad = 30
    crop = page.crop((min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)).convert("RGB")
    png = io.BytesIO()
    crop.save(png, "PNG")
    return browser.execute_async_script("""
        const done = arguments[arguments.length - 1], image = new Image();
        image.onload = () => {
          const canvas = document.createElement("canvas");
          canvas.width = image.width; canvas.height = image.height;
          const context = canvas.getContext("2d");
          context.drawImage(image, 0, 0);
          const code = jsQR(context.getImageData(0, 0, image.width, image.height).data, image.width, image.height);
          done(code ? code.data : null);
        };
        image.src = arguments[0];""", "data:image/png;base64," + base64.b64encode(png.getvalue()).decode())


def test_the_pages_qr_reader_reads_a_key_behind_an_address(browser, kit, tmp_path):
    """A --verify-url QR is two segments (the address in bytes, the key alphanumeric): the
    page's reader returns the whole text and the page shows the key after the '#'."""
    import subprocess
    import sys

    url = "https://example.org/kit/verify.html"
    result = subprocess.run([sys.executable, "-m", "kitgen", "build", "--verify-url", url, "--keys", "2", "--out",
                             str(tmp_path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "classic-en" / "manifest.json").read_text())
    page = render_page(tmp_path / "classic-en" / "keys.pdf", 0, 200)
    open_page(browser, kit)
    text = read_with_jsqr(browser, page, manifest["keys"][1]["qr"])
    assert text == manifest["keys"][1]["qr"]
    from selenium.webdriver.common.by import By

    box = browser.find_element(By.ID, "payload")
    box.send_keys(text)
    expect_key(browser, manifest["keys"][1]["payload"])


# --- duet keys (docs/design.md §4.6, §5.4): two sides, side B as its player sees it ---

DUET_SEED = "kitgen classic-duet 2026"
DUET_NAMES = {"G": "green agent", "N": "bystander", "A": "assassin"}


def duet_payload(number: int = 1) -> str:
    deck = duet_keys.generate(DUET_SEED, 3)
    return key_payload.encode_duet("classic-duet", deck[number - 1], key_deck.kit_secret(DUET_SEED))


@pytest.fixture(scope="module")
def duet_kit(tmp_path_factory):
    """The built-in duet kit with 3 keys, built by the command line: (folder, manifest)."""
    import subprocess
    import sys

    out = tmp_path_factory.mktemp("duet")
    done = subprocess.run([sys.executable, "-m", "kitgen", "build", "--edition", "duet", "--keys", "3", "--out",
                           str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    folder = out / "classic-duet"
    return folder, json.loads((folder / "manifest.json").read_text())


def side_cells(browser, table: str):
    from selenium.webdriver.common.by import By

    return [(td.get_attribute("data-cell"), td.get_attribute("aria-label"))
            for td in browser.find_elements(By.CSS_SELECTOR, f"#{table} td[data-cell]")]


def expect_duet_key(browser, payload: str):
    """#grid-a is side A as in the payload; #grid-b is side B turned 180°: row r, column c of what
    B sees is the payload's side B at row 4 - r, column 4 - c."""
    fields = payload.split(":")
    side_a, side_b = fields[4].split("/"), fields[5].split("/")
    seen_by_b = ["".join(side_b[4 - r][4 - c] for c in range(5)) for r in range(5)]
    for table, grid in (("grid-a", side_a), ("grid-b", seen_by_b)):
        assert side_cells(browser, table) == [(letter, f"row {r + 1}, column {c + 1}: {DUET_NAMES[letter]}")
                                              for r, row in enumerate(grid) for c, letter in enumerate(row)]
    assert cells(browser) == []


def css_colour(hex_colour: str) -> str:
    return "rgba({}, {}, {}, 1)".format(*bytes.fromhex(hex_colour.lstrip("#")))


def green_of(name):
    from kitgen import layouts

    layout = layouts.load(name)
    return layout.colours[layout.types.green.colour].rgb


def test_a_duet_key_shows_both_sides_each_as_its_player_sees_it(browser, duet_kit):
    from selenium.webdriver.common.by import By

    payload = duet_kit[1]["keys"][0]["payload"]
    assert payload == duet_payload(1)
    open_page(browser, duet_kit, payload)
    expect_duet_key(browser, payload)
    assert browser.find_element(By.ID, "key-title").text == "Key 1/3 of kit CLASSIC-DUET (duet edition)"
    assert not browser.find_element(By.ID, "starts").is_displayed()
    assert not browser.find_element(By.ID, "grid").is_displayed()
    captions = [c.text for c in browser.find_elements(By.CSS_SELECTOR, "#duet caption")]
    assert captions[0] == "Player A: your side, as you see the board" and captions[1].startswith("Player B: your side")
    green = browser.find_element(By.CSS_SELECTOR, "#grid-b td[data-cell=G]")
    assert green.value_of_css_property("background-color") == css_colour(green_of("duet"))
    assert "\u25cf" in green.text and "green agent" in green.text


def test_each_player_can_show_only_their_own_side(browser, duet_kit):
    from selenium.webdriver.common.by import By

    open_page(browser, duet_kit, duet_payload(2))
    shown = lambda: [browser.find_element(By.ID, t).is_displayed() for t in ("grid-a", "grid-b")]  # noqa: E731
    assert shown() == [True, True]
    for side, expected in (("B", [False, True]), ("A", [True, False]), ("both", [True, True]), ("B", [False, True])):
        button = browser.find_element(By.CSS_SELECTOR, f"button[data-side={side}]")
        button.click()
        assert shown() == expected and button.get_attribute("aria-pressed") == "true"
    box = browser.find_element(By.ID, "payload")                # the next key keeps player B's choice
    box.clear()
    box.send_keys(duet_payload(3))
    expect_duet_key(browser, duet_payload(3))
    assert shown() == [False, True]


def _sides(payload: str):
    fields = payload.split(":")
    return fields, list(fields[4].replace("/", "")), list(fields[5].replace("/", ""))


def _with_sides(fields, a, b) -> str:
    rows = lambda s: "/".join("".join(s[i:i + 5]) for i in range(0, 25, 5))  # noqa: E731
    return ":".join(fields[:4] + [rows(a), rows(b)] + fields[6:])


def _counts_off(payload: str, side: str) -> str:
    """One bystander of a side made a green agent: 10/3/12."""
    fields, a, b = _sides(payload)
    cells_ = a if side == "A" else b
    cells_[cells_.index("N")] = "G"
    return _with_sides(fields, a, b)


def _overlap_off(payload: str) -> str:
    """Side B's letters of a G/G cell and an N/N cell swapped: each side's counts hold, the overlap not."""
    fields, a, b = _sides(payload)
    pairs = list(zip(a, b))
    i, j = pairs.index(("G", "G")), pairs.index(("N", "N"))
    b[i], b[j] = b[j], b[i]
    return _with_sides(fields, a, b)


@pytest.mark.parametrize("damage, message", [
    (lambda p: p.rsplit(":", 1)[0],
     "it has 6 fields separated by \":\", not 7 (KG1:KIT:N/TOTAL:D:ROWS-A:ROWS-B:CHECK)"),
    (lambda p: p + ":X", "not 7"),
    (lambda p: p.replace(":D:N", ":D:R", 1), "side A's grid is not 5 rows of 5 letters G, N or A"),
    (lambda p: ":".join(p.split(":")[:5] + [p.split(":")[5][:-1]] + p.split(":")[6:]), "side B's grid is not 5 rows"),
    (lambda p: p.replace("CLASSIC-DUET", "CLASSIC_DUET"),
     "damaged: it should read KG1:KIT:N/TOTAL:R|B:ROWS:CHECK, or KG1:KIT:N/TOTAL:D:ROWS-A:ROWS-B:CHECK for a duet key"),
    (lambda p: p.replace(":1/3:", ":4/3:"), "Key 4 of 3 cannot be."),
    (lambda p: _counts_off(p, "A"), "Side A of this key has 10/3/12 cards (green/assassins/bystanders); each side of "
                                    "a duet key has 9/3/13."),
    (lambda p: _counts_off(p, "B"), "Side B of this key has 10/3/12 cards"),
    (_overlap_off, "This key's sides overlap wrongly, cells side A/side B: G/G 2 (needs 3), G/N 6 (needs 5), "
                   "N/G 6 (needs 5), N/N 6 (needs 7)."),
])
def test_a_damaged_duet_payload_gets_a_message(browser, duet_kit, damage, message):
    from selenium.webdriver.common.by import By

    payload = duet_payload(1)
    assert payload.startswith("KG1:CLASSIC-DUET:1/3:D:N")
    open_page(browser, duet_kit, damage(payload))
    shown = browser.find_element(By.ID, "message")
    assert message in shown.text and "problem" in shown.get_attribute("class")
    assert not browser.find_element(By.ID, "key").is_displayed()
    assert side_cells(browser, "grid-a") == side_cells(browser, "grid-b") == []
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors


def test_a_words_kits_page_shows_a_duet_key_in_the_duet_layouts_green(browser, kit):
    """Any kit's page reads a duet key; a words layout has no green, so the page takes the duet layout's.
    A words key after it is shown as before, alone."""
    from selenium.webdriver.common.by import By

    payload = duet_payload(3)
    open_page(browser, kit, payload)
    expect_duet_key(browser, payload)
    green = browser.find_element(By.CSS_SELECTOR, "#grid-a td[data-cell=G]")
    assert green.value_of_css_property("background-color") == css_colour(green_of("duet"))
    box = browser.find_element(By.ID, "payload")
    box.clear()
    words = kit[1]["keys"][4]["payload"]
    box.send_keys(words)
    expect_key(browser, words)
    assert side_cells(browser, "grid-a") == side_cells(browser, "grid-b") == []
    assert not browser.find_element(By.ID, "duet").is_displayed() and browser.find_element(By.ID, "grid").is_displayed()
    assert browser.find_element(By.ID, "starts").text.endswith("(words edition).")
    box.clear()
    box.send_keys(payload)                                  # and back: no starting team line for duet
    expect_duet_key(browser, payload)
    assert browser.find_element(By.ID, "starts").text == ""


def test_the_page_takes_green_from_the_layout_else_from_the_duet_layout(tmp_path, duet_kit):
    from kitgen import layouts
    from kitgen.games.codenames import web

    duet_green = green_of("duet")
    assert f"--green: {duet_green};".encode() in (duet_kit[0] / "verify.html").read_bytes()
    assert f"--green: {duet_green};".encode() in web.page(layouts.load("default"))
    own = tmp_path / "mine.yaml"
    own.write_text("extends: duet\ncolours:\n  green: {rgb: \"#123456\", cmyk: [0.9, 0.5, 0.1, 0.3]}\n")
    assert b"--green: #123456;" in web.page(layouts.load(own))


def test_a_duet_qr_opens_the_page_from_an_address_and_the_pages_reader_reads_it(browser, duet_kit):
    """Both faces of a duet key carry its payload, a version 5 QR: the page's jsQR reads it from the
    printed back (side B's face), and URL#payload in the box shows the key."""
    folder, manifest = duet_kit
    entry = manifest["keys"][1]
    page = render_page(folder / "keys.pdf", entry["side_b"]["page"] - 1, 200)
    open_page(browser, duet_kit)
    text = read_with_jsqr(browser, page, entry["payload"])
    assert text == entry["payload"]
    from selenium.webdriver.common.by import By

    browser.find_element(By.ID, "payload").send_keys(f"https://example.org/kit/verify.html#{text}")
    expect_duet_key(browser, entry["payload"])


def test_the_forum_section_takes_a_duet_key(browser, duet_kit):
    """Duet has no forum games yet, but the section checks a duet key's commitment (§3.7) as any other."""
    from selenium.webdriver.support.ui import WebDriverWait

    payload = duet_payload(2)
    verdict = commit_on_page(browser, duet_kit, payload, "0123456789abcdef0123456789abcdef")
    WebDriverWait(browser, 10).until(lambda d: verdict() == "ok")
    expect_duet_key(browser, payload)
