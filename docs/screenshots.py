"""Redraw the README's screenshots from the demo campaign: `.venv/bin/python docs/screenshots.py`.

Serves the demo as `make run` does (bin/serve, a throwaway VAR_DIR), logs in as a player in
Debian's Chromium, and writes the sheet at 1280 px and the table at 390 px to docs/img/.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "altherion.settings")
import django  # noqa: E402

django.setup()
from altherion.demo import DEMO_PASSWORD  # noqa: E402 (after the checkout is on the path)
from campaigns.demo import DEMO_CAMPAIGN  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "img"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit("the server stopped")
        try:
            urllib.request.urlopen(url + "healthz", timeout=1)  # noqa: S310 (our own server)
            return
        except OSError:
            time.sleep(0.5)
    sys.exit("the server did not answer")


def log_in(page, base: str, username: str) -> None:
    page.goto(base + "accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def main() -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    env = {
        **os.environ,
        "VAR_DIR": tempfile.mkdtemp(prefix="altherion-shots-"),
        "PORT": str(port),
        "PY": sys.executable,
    }
    server = subprocess.Popen(["bin/serve"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    try:
        wait_for(base, server)
        OUT.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="fr-FR")
            log_in(page, base, "aelis")
            page.goto(base + "campaigns/")
            page.goto(
                base + page.get_by_role("link", name=DEMO_CAMPAIGN).first.get_attribute("href")[1:]
            )
            campaign = page.url
            sheet = page.locator('a[href^="/characters/"]', has_text="Aelis").first
            page.goto(base + sheet.get_attribute("href")[1:])
            page.wait_for_load_state("networkidle")
            page.screenshot(path=OUT / "sheet-1280.png")
            page.set_viewport_size({"width": 390, "height": 844})
            page.goto(campaign.rstrip("/") + "/table/")
            page.wait_for_load_state("networkidle")
            page.get_by_label("Difficulté").fill("8")
            page.get_by_role("button", name="Lancer").click()
            page.locator("#roll-result:focus").wait_for()  # the answer came: focus is on it
            page.screenshot(path=OUT / "table-390.png")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"written: {sorted(p.name for p in OUT.glob('*.png'))}")


if __name__ == "__main__":
    main()
