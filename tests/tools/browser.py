"""The headless Chromium the browser tests drive (tools/track's dashboard, tools/report --html):
Debian's chromium under chromedriver (Debian chromium-driver), through Debian python3-selenium."""
import tempfile


def chromium(width=1280, height=1600, prefix="sb-chromium-"):
    """(driver, profile folder) of a headless Chromium under chromedriver; driver.quit() stops
    both, the caller removes the profile folder."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    profile = tempfile.mkdtemp(prefix=prefix)
    opts = Options()
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # driver.get_log("browser")
    opts.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    return driver, profile
