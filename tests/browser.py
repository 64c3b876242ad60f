"""A headless Chromium for the tests that open the package's HTML pages (reports, replays)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest


def headless_chromium(window_size: str) -> Iterator[Any]:
    """Yields a Selenium driver of the system's Chromium, and quits it afterwards.

    Skips when Chromium or chromedriver is missing, except under ``CI=true``, where that fails
    (``.ci/run`` installs both).
    """
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if chromium is None or driver_path is None:
        message = "Chromium and chromedriver are needed (apt-get install chromium chromium-driver)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={window_size}"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()
