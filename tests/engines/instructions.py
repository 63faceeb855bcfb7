"""Instructions a random game costs, counted by valgrind's callgrind: a speed A/B that load cannot move.

Usage (from the repository root; needs ``valgrind``)::

    .venv/bin/python tests/engines/instructions.py GAME PLAYERS GAMES [COMMIT]

plays the games of the ``lanterne bench`` row (seeds ``bench/0`` to
``bench/GAMES-1``, random players on the open table) under callgrind, with the
engine of ``COMMIT`` (``git archive``, first on ``sys.path``; commits from
before the ``lanterne`` package, whose engine was the top-level ``engines``,
too) or the working tree's, and prints the instructions per game: the count of
GAMES games minus that of none (the imports). On a machine shared with other
work a timed A/B of two copies of one commit moved by 1-2 %; this count moves
by 0.05 %. It is not time (caches and branches are left out), so a change is
judged by both.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PLAY = """
import importlib, sys
sys.path[:0] = {paths!r}
RandomBot = importlib.import_module({package!r} + ".bots.simple").RandomBot
core = importlib.import_module({package!r} + ".core")
OpenTable, play_out = core.OpenTable, core.play_out
game = importlib.import_module({package!r} + ".registry").get_game({game!r})
assert type(game).__module__.startswith({package!r}), type(game).__module__
for g in range({games}):
    play_out(game, game.setup(players={players}), OpenTable(f"bench/{{g}}"),
             [RandomBot(f"bench/{{g}}/{{i}}") for i in range({players})])
"""


def engine_paths(commit: str, into: Path) -> tuple[list[str], str]:
    """What to put first on ``sys.path`` for the engine of ``commit``, and the engines' package name there."""
    names = subprocess.run(["git", "ls-tree", "--name-only", commit], cwd=REPO, check=True, capture_output=True,
                           text=True).stdout.split()
    if "lanterne" not in names:
        archive = subprocess.run(["git", "archive", commit, "engines"], cwd=REPO, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
        return [str(into)], "engines"
    sys.path.insert(0, str(REPO / "tests" / "engines"))
    import old_and_new

    return [str(old_and_new.old_tree(commit, into))], "lanterne.engines"


def instructions(engine: tuple[list[str], str], game: str, players: int, games: int) -> int:
    """Instructions of the whole process (imports included) playing ``games`` games."""
    code = PLAY.format(paths=engine[0], package=engine[1], game=game, players=players, games=games)
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", code],
                         capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if not found:
        raise SystemExit(f"no count from valgrind: {run.stderr[-300:]}")
    return int(found.group(1))


USAGE = "usage: tests/engines/instructions.py GAME PLAYERS GAMES [COMMIT]"


def main(argv: list[str]) -> int:
    try:
        game, players, games = argv[1], int(argv[2]), int(argv[3])
    except (IndexError, ValueError):
        raise SystemExit(USAGE) from None
    if len(argv) > 5 or players < 2 or games < 1:
        raise SystemExit(USAGE)
    with tempfile.TemporaryDirectory() as tmp:
        engine = engine_paths(argv[4], Path(tmp)) if len(argv) == 5 else ([], "lanterne.engines")
        per_game = (instructions(engine, game, players, games) - instructions(engine, game, players, 0)) / games
    print(f"{game} {players}p, {games} games of the bench row, engine of {argv[4] if len(argv) == 5 else 'the working tree'}:"
          f" {per_game / 1e6:.3f} M instructions a game")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
