"""`lanterne serve` in a real browser: Debian's chromium, driven by selenium.

The test starts ``lanterne serve`` on a free port with a data folder of its
own, opens the page in headless chromium, waits for the home screen, starts
a local Pagode game against the computer with the keyboard (``p``, Ctrl+S),
plays the first legal move from the list (``?``, Enter) and checks that the
move is in the game's signed log. The page draws the terminal on a canvas,
so what the app shows is read from the bytes its websocket received (a hook
installed before the page's own script). A screenshot is saved in the test's
folder and named in every failure. Without chromium and chromedriver (Debian:
``apt-get install chromium chromium-driver``; ``.ci/run`` installs them) the
test is skipped with that reason.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.commands import lanterne
from tests.support.waiting import Hopeless, until_sync

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
WAIT = 30.0
"""Longest wait for any one step (a slow CI machine); the whole test takes a few seconds here."""

needs_browser = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)")

# Records what the terminal receives, before the page's script opens its websocket.
RECORD_WEBSOCKET = r"""
window.__lanterne = {text: "", opened: 0};
const Native = window.WebSocket;
const decoder = new TextDecoder("utf-8");
window.WebSocket = function (url, protocols) {
  const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
  window.__lanterne.opened += 1;
  socket.addEventListener("message", (event) => {
    if (typeof event.data !== "string") {
      window.__lanterne.text += decoder.decode(new Uint8Array(event.data), {stream: true});
    }
  });
  return socket;
};
window.WebSocket.prototype = Native.prototype;
Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
"""

ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def private_env(tmp_path: Path) -> dict[str, str]:
    """HOME and the XDG folders in tmp_path: the served app never touches the real player's data."""
    env = dict(os.environ)
    for var in ("LANTERNE_HOME", "LANTERNE_LOG_DIR"):
        env.pop(var, None)
    home = tmp_path / "home"
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"),
               XDG_STATE_HOME=str(home / ".local/state"), XDG_CACHE_HOME=str(home / ".cache"),
               USER="browserplayer", PYTHONUNBUFFERED="1")
    home.mkdir()
    return env


def start_serve(tmp_path: Path, *args: str, out: Path) -> subprocess.Popen:
    """``lanterne serve ARGS`` with a data folder in tmp_path, its output (stdout and stderr) in ``out``."""
    with out.open("wb") as sink:
        return subprocess.Popen(
            [sys.executable, "-c", "import sys; from lanterne.client.cli import main; sys.exit(main(sys.argv[1:]))",
             "serve", *args],
            env=private_env(tmp_path), cwd=tmp_path, stdout=sink, stderr=subprocess.STDOUT,
            start_new_session=True)   # its own process group: the apps it starts end with it


def stop(server: subprocess.Popen) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(10)


def local_games(tmp_path: Path) -> Path:
    return tmp_path / "home/.local/share/lanterne/games/local"


def my_moves(log: Path) -> int:
    """Moves in the log signed by seat 1 (the player at the page: the table's first entry is theirs)."""
    from lanterne.protocol.log import LogFormatError, open_entry, read_log

    try:
        raws, _cut = read_log(log)
        entries = [open_entry(raw) for raw in raws]
    except (OSError, LogFormatError, ValueError):
        return 0
    return sum(e.kind == "move" and e.author == entries[0].author for e in entries[1:])


@needs_browser
def test_a_browser_plays_a_local_pagode_move_through_lanterne_serve(tmp_path):
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    port = free_port()
    shot = tmp_path / "browser.png"
    out = tmp_path / "serve.out"
    server = start_serve(tmp_path, "--port", str(port), out=out)
    driver = None

    def said() -> str:
        return out.read_text(errors="replace") if out.exists() else ""

    def screen_text() -> str:
        """Everything the page's terminal received so far, without the escape sequences."""
        try:
            return ESCAPES.sub("", driver.execute_script("return window.__lanterne ? window.__lanterne.text : ''"))
        except WebDriverException:
            return ""

    def screenshot() -> str:
        try:
            driver.save_screenshot(str(shot))
        except Exception:  # noqa: BLE001 - the screenshot is for the message only
            pass
        return f"screenshot {shot}; lanterne serve said:\n{said()[-2000:]}"

    def wait_for(what: str, condition, timeout: float = WAIT):
        def met():
            if server.poll() is not None:
                raise Hopeless(f"lanterne serve ended (status {server.returncode}) while waiting for {what}; "
                               f"{said()}")
            return condition()

        return until_sync(met, timeout=timeout, every=0.1,
                          what=lambda: f"{what}; {screenshot() if driver else said()}")

    try:
        wait_for("lanterne serve to listen", lambda: "Serving Lanterne on" in said())
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800",
                    f"--user-data-dir={tmp_path / 'chromium'}",
                    # offline: the page's web font (Google Fonts) fails at once instead of holding the page's load
                    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"):
            options.add_argument(arg)
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        driver.set_page_load_timeout(WAIT)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_WEBSOCKET})
        driver.get(served_address(said()))

        wait_for("the home screen", lambda: "Play locally" in screen_text() and "Play on the LAN or online" in screen_text())
        wait_for("the page to say whose player it plays as", lambda: "you play as browserplayer" in screen_text())
        keys = driver.find_element(By.CSS_SELECTOR, "#terminal .xterm-helper-textarea")
        keys.send_keys("p")
        wait_for("the local game setup", lambda: "Against the computer" in screen_text())
        keys.send_keys(Keys.CONTROL, "s")    # Start: Pagode (the first game) against the computer
        games = local_games(tmp_path)
        log = wait_for("the local game's log", lambda: next(iter(sorted(games.glob("*.log"))), None)
                       if games.is_dir() else None)
        assert my_moves(log) == 0
        wait_for("the seat at the page to have the turn", lambda: "Your turn" in screen_text())
        mark = len(screen_text())
        keys.send_keys("?")                  # the list of legal moves, the first one highlighted
        wait_for("the list of legal moves", lambda: re.search(r"P1 browserplayer: \d+ legal moves?", screen_text()[mark:]))
        mark = len(screen_text())
        keys.send_keys(Keys.ENTER)           # plays it
        wait_for("the move played from the browser, in the game's log", lambda: my_moves(log) == 1)
        wait_for("the move on the page (the game's list of moves)",
                 lambda: re.search(r"\d+\. P1 browserplayer \w", screen_text()[mark:]))
        screenshot()
        assert shot.is_file(), f"no screenshot at {shot}"
    finally:
        if driver is not None:
            driver.quit()
        stop(server)


# --------------------------------------------------------------------------
# no browser needed


@pytest.mark.parametrize("args, says", [
    (["--port", "0"], "port 0: give 1..65535"),
    (["--port", "http"], "'http' is not a port number"),
    (["--port", "70000"], "port 70000: give 1..65535"),
    (["--host", "no-such-host.invalid"], "--host 'no-such-host.invalid' is not an address of this machine"),
    (["--host", ""], "--host is empty"),
    (["--host", "192.0.2.1"], "cannot listen on 192.0.2.1 port 8000"),   # TEST-NET-1: no interface has it
])
def test_wrong_serve_arguments_are_one_line(args, says):
    r = lanterne("serve", *args)
    assert r.returncode == 2, r
    assert says in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr


def test_a_taken_port_is_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = lanterne("serve", "--port", str(port))
    assert r.returncode == 2, r
    assert f"cannot listen on 127.0.0.1 port {port}: " in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr


def served_address(said: str) -> str:
    """The address ``lanterne serve`` printed, with its token."""
    found = re.search(r"Serving Lanterne on (http://\S+/\?token=[\w-]+)", said)
    assert found, said
    return found.group(1)


def http_status(port: int, path: str, headers: dict[str, str]) -> tuple[int, str]:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        return response.status, response.read().decode(errors="replace")
    finally:
        conn.close()


def test_served_beyond_this_machine_it_warns_and_still_refuses_foreign_names_and_pages(tmp_path):
    port = free_port()
    out = tmp_path / "serve.out"
    server = start_serve(tmp_path, "--host", "0.0.0.0", "--port", str(port), out=out)
    try:
        def serving() -> bool:
            if server.poll() is not None:
                raise Hopeless(f"lanterne serve ended: {out.read_text()}")
            return "Serving Lanterne on" in out.read_text()

        until_sync(serving, timeout=WAIT, what="lanterne serve serving")
        said = out.read_text()
        warnings = [line for line in said.splitlines() if "warning" in line]
        assert warnings == [f"lanterne: warning: serving on 0.0.0.0, not only this machine: anyone who reaches "
                            f"port {port} plays as you (browserplayer)"], said
        token = served_address(said).rsplit("=", 1)[1]
        cookie = {"Cookie": f"lanterne-serve-{port}={token}"}
        # without the token, nothing: not the page, not the websocket (any local process or user reaches the port)
        assert wait_for_page(port, {"Host": f"127.0.0.1:{port}"}, "/")[0] == 403
        assert http_status(port, "/?token=" + "x" * len(token), {"Host": f"127.0.0.1:{port}"})[0] == 403
        # the page's websocket goes back to the address the browser used, not to 0.0.0.0
        status, page = wait_for_page(port, {"Host": f"127.0.0.1:{port}"}, f"/?token={token}")
        assert status == 200 and f"ws://127.0.0.1:{port}/ws" in page, page
        assert "you play as browserplayer" in page    # the page's title, until the app draws
        # a name that is not this machine's (DNS rebinding) is refused, page and websocket
        assert http_status(port, "/", {"Host": f"attacker.example:{port}"})[0] == 403
        upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                   "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
        assert http_status(port, "/ws", {**upgrade, "Host": f"attacker.example:{port}", **cookie})[0] == 403
        assert http_status(port, "/ws", {**upgrade, "Host": f"127.0.0.1:{port}", "Origin": f"http://127.0.0.1:{port}"}
                           )[0] == 403, "the websocket without the token's cookie (another local user, no Origin)"
        assert http_status(port, "/ws", {**upgrade, "Host": f"127.0.0.1:{port}"})[0] == 403
        # a page of another site cannot open the app in the background
        assert http_status(port, "/ws", {**upgrade, "Host": f"127.0.0.1:{port}", **cookie,
                                         "Origin": "http://attacker.example"})[0] == 403
        # the data folder taken (the terminal app, another tab): the tab is turned away, and told why
        from lanterne.client.single import only_instance

        with only_instance(tmp_path / "home/.local/share/lanterne"):
            status, why = http_status(port, "/ws", {**upgrade, "Host": f"127.0.0.1:{port}", **cookie,
                                                     "Origin": f"http://127.0.0.1:{port}"})
        assert status == 409 and "another Lanterne is already running" in why, (status, why)
        assert "a browser tab was turned away: another Lanterne is already running" in out.read_text()
    finally:
        stop(server)


def wait_for_page(port: int, headers: dict[str, str], path: str) -> tuple[int, str]:
    return until_sync(lambda: http_status(port, path, headers), timeout=WAIT, what=f"the page on port {port}")


FILLED = r"""
const page = window.innerHeight, width = window.innerWidth;
const screen = document.querySelector('#terminal .xterm-screen');
if (!screen) { return null; }
const box = screen.getBoundingClientRect();
return {page: page, width: width, top: box.top, bottom: box.bottom, right: box.right};
"""
"""Where the terminal's drawn cells end, against the page's own height and width."""


@needs_browser
@pytest.mark.parametrize("window", [(1280, 800), (900, 1000)], ids=lambda w: f"{w[0]}x{w[1]}")
def test_the_terminal_fills_the_browser_page(tmp_path, window):
    """The app's cells cover the page: what is left at the bottom and the right is less than a cell, never a
    black band (a sixth of the page was left black)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    port = free_port()
    out = tmp_path / "serve.out"
    server = start_serve(tmp_path, "--port", str(port), out=out)
    driver = None
    try:
        until_sync(lambda: "Serving Lanterne on" in out.read_text(errors="replace"), timeout=WAIT, every=0.1,
                   what="lanterne serve to listen")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={window[0]},{window[1]}",
                    f"--user-data-dir={tmp_path / 'chromium'}", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"):
            options.add_argument(arg)
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        driver.set_page_load_timeout(WAIT)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_WEBSOCKET})
        driver.get(served_address(out.read_text(errors="replace")))
        until_sync(lambda: "Play locally" in ESCAPES.sub("", driver.execute_script(
            "return window.__lanterne ? window.__lanterne.text : ''")), timeout=WAIT, every=0.1, what="the home screen")
        box = until_sync(lambda: driver.execute_script(FILLED), timeout=WAIT, every=0.1, what="the terminal drawn")
        rows = driver.execute_script("return document.querySelectorAll('#terminal .xterm-rows > div').length")
        cell = (box["bottom"] - box["top"]) / max(rows, 1)
        assert box["top"] < cell and box["page"] - box["bottom"] < cell, f"a band of {box['page'] - box['bottom']:.0f} px " \
            f"under the terminal (a cell is {cell:.0f} px): {box}"
        assert box["width"] - box["right"] < cell, f"a band at the right: {box}"
    finally:
        if driver is not None:
            driver.quit()
        stop(server)
