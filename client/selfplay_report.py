"""What `lanterne selfplay` prints for each game, whatever carries it (open table, memory, TCP)."""

from __future__ import annotations

import json
import sys

from lanterne.client.i18n import _


def game_seed(seed: str, index: int) -> str:
    return f"{seed}/{index}"


def report(game, final, index: int, seed: str, steps: int) -> dict:
    return {"game": index, "seed": seed, "scores": game.display_scores(final), "counted": game.score_name,
            "winners": [w + 1 for w in game.winners(final)], "turns": game.turn(final), "steps": steps}


def emit(r: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(r))
    else:
        scores = f"{_(r['counted'])} " + " ".join(f"P{i + 1}={s}" for i, s in enumerate(r["scores"]))
        print(_("game {n}: {scores}  winner(s) {winners}  turns {turns}").format(
            n=r["game"], scores=scores, winners=",".join(f"P{w}" for w in r["winners"]), turns=r["turns"]))
    sys.stdout.flush()
