"""Standard logging to the platform's log folder; crash reports there, not in the settings folder."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import platformdirs
from textual.screen import Screen

from lanterne.client.logs import crash_line, log_dir, setup_logging
from lanterne.client.settings import config_dir
from tests.support.commands import REPO, lanterne



def test_the_log_folder_is_the_platforms_state_folder_not_the_config_folder(monkeypatch, lanterne_home):
    assert log_dir() == lanterne_home / "logs"
    monkeypatch.delenv("LANTERNE_HOME")
    assert log_dir() == Path(platformdirs.user_log_dir("lanterne"))
    assert log_dir() != config_dir() and config_dir() not in log_dir().parents


def test_a_command_logs_to_the_file(tmp_path):
    home = tmp_path / "home"
    r = lanterne("log", "show", str(tmp_path / "missing.log"), home=home)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1
    [line] = (home / "logs" / "lanterne.log").read_text().splitlines()
    assert " INFO lanterne: refused: " in line
    assert line.endswith("refused: " + r.stderr.removeprefix("lanterne: ").strip())


def test_a_command_with_nothing_to_log_leaves_no_trace(tmp_path):
    home = tmp_path / "home"
    r = lanterne("--version", home=home)
    assert r.returncode == 0
    r = lanterne("verify", str(tmp_path / "missing.log"), home=home)
    assert r.returncode == 2 and not home.exists()


def test_logging_follows_the_home_of_each_run(tmp_path, monkeypatch):
    for name in ("a", "b"):
        monkeypatch.setenv("LANTERNE_HOME", str(tmp_path / name))
        path = setup_logging()
        logging.getLogger("lanterne.protocol.somewhere").info("hello %s", name)
        logging.getLogger("zeroconf").info("not ours, not a warning")
        assert path == tmp_path / name / "logs" / "lanterne.log"
    for handler in logging.getLogger().handlers:
        handler.flush()
    assert "hello a" in (tmp_path / "a" / "logs" / "lanterne.log").read_text()
    b = (tmp_path / "b" / "logs" / "lanterne.log").read_text()
    assert "INFO lanterne.protocol.somewhere: hello b" in b and "hello a" not in b and "not ours" not in b


def test_a_crash_report_goes_to_the_log_folder(lanterne_home):
    try:
        {}["missing"]
    except KeyError as e:
        line = crash_line(e, "a test")
    report = lanterne_home / "logs" / "crash.log"
    assert line == f"lanterne: internal error: KeyError: 'missing' (details in {report})"
    text = report.read_text()
    assert "Traceback" in text and "KeyError: 'missing'" in text and 'line' in text
    assert not (config_dir() / "crash.log").exists()


class Broken(Screen):
    def compose(self):
        raise ZeroDivisionError("a screen that cannot be drawn")


async def test_the_app_crashes_in_one_line_with_the_report_in_the_log_folder(lanterne_home):
    from lanterne.client.app import LanterneApp

    app = LanterneApp(settings_path=lanterne_home / "settings.json", resilient=True)
    async with app.run_test() as pilot:
        await pilot.pause()
        app.push_screen(Broken())
        await pilot.pause()
    assert app.return_code == 1
    report = lanterne_home / "logs" / "crash.log"
    assert "ZeroDivisionError: a screen that cannot be drawn" in report.read_text()
    assert not (config_dir() / "crash.log").exists()


def test_a_command_that_breaks_is_one_line_and_exit_70_with_the_report_in_the_log_folder(tmp_path):
    """A real command module with a real bug, found the way every command is (client/commands' path)."""
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "boom.py").write_text(
        "NAME = 'boom'\nHELP = 'a command with a bug'\n"
        "def add_arguments(p):\n    pass\n"
        "def run(args):\n    return {}['no such key']\n")
    home = tmp_path / "home"
    code = ("import sys, lanterne.client.commands\n"
            f"lanterne.client.commands.__path__.append({str(plugins)!r})\n"
            "from lanterne.client.cli import main\nraise SystemExit(main(['boom']))\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=dict(os.environ, LANTERNE_HOME=str(home)),
                       capture_output=True, text=True, timeout=60)
    report = home / "logs" / "crash.log"
    assert r.returncode == 70
    assert r.stderr == f"lanterne: internal error: KeyError: 'no such key' (details in {report})\n"
    assert "boom.py" in report.read_text() and "Traceback" not in r.stderr
    assert "ERROR lanterne: crash in boom: KeyError" in (home / "logs" / "lanterne.log").read_text()
