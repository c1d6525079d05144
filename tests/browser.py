"""Debian's Chromium, headless, driven by selenium through Debian's chromedriver (browser downloads
are not available here; .ci/run installs both): what tests/test_web.py and tests/test_serve_browser.py
share."""

import shutil
from pathlib import Path

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
MISSING = "Debian's chromium and chromium-driver are not installed"


def chromium(profile: Path, *flags: str, size: str = "390,844"):
    """A headless Chromium with a phone-sized window, quiet (no background requests), logging every
    network event; ``flags`` are added to its command line."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--window-size={size}", f"--user-data-dir={profile}", *flags):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(30)
    return driver
