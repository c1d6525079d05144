"""verify.html in a real browser: Debian's Chromium, headless, driven by selenium through
Debian's chromedriver (browser downloads are not available here; .ci/run installs both).
The page is opened from a kit folder (file://), as a teacher would from a phone's files."""

import hashlib
import json
from pathlib import Path

import pytest

from kitgen.games.codenames import editions, key_deck, key_payload

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


def test_the_seed_tells_whether_the_key_belongs_to_the_kit(browser, kit):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    manifest = kit[1]
    open_page(browser, kit, manifest["keys"][0]["payload"])
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


def test_the_page_checks_a_forum_games_commitment(browser, kit):
    """The host's revealed key and salt against the commitment posted before the game (§3.7)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from kitgen import commitment

    payload, salt = kit[1]["keys"][5]["payload"], "0123456789abcdef0123456789abcdef"
    open_page(browser, kit, payload)
    browser.find_element(By.CSS_SELECTOR, "#forum summary").click()
    verdict = lambda: browser.find_element(By.ID, "commitment-verdict").get_attribute("data-verdict")  # noqa: E731
    browser.find_element(By.CSS_SELECTOR, "input[name=commitment]").send_keys(commitment.commit(payload, salt))
    browser.find_element(By.CSS_SELECTOR, "input[name=salt]").send_keys(salt)
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


def test_the_pages_qr_reader_reads_a_key_behind_an_address(browser, kit, tmp_path):
    """A --verify-url QR is two segments (the address in bytes, the key alphanumeric): the
    page's reader returns the whole text and the page shows the key after the '#'."""
    import base64
    import io
    import subprocess
    import sys

    import zxingcpp

    url = "https://example.org/kit/verify.html"
    result = subprocess.run([sys.executable, "-m", "kitgen", "build", "--verify-url", url, "--keys", "2", "--out",
                             str(tmp_path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "classic-en" / "manifest.json").read_text())
    page = render_page(tmp_path / "classic-en" / "keys.pdf", 0, 200)
    code = next(c for c in zxingcpp.read_barcodes(page) if c.text == manifest["keys"][1]["qr"])
    xs, ys = [p.x for p in (code.position.top_left, code.position.bottom_right)], \
             [p.y for p in (code.position.top_left, code.position.bottom_right)]
    pad = 30
    crop = page.crop((min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)).convert("RGB")
    png = io.BytesIO()
    crop.save(png, "PNG")
    open_page(browser, kit)
    text = browser.execute_async_script("""
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
    assert text == manifest["keys"][1]["qr"]
    from selenium.webdriver.common.by import By

    box = browser.find_element(By.ID, "payload")
    box.send_keys(text)
    expect_key(browser, manifest["keys"][1]["payload"])
