"""Trials for tuning the search player: a setting against greedy (or OpenSpiel's ISMCTS) on numbered seeds,
one line per game.

    python -m lanterne.engines.bots.trial GAME --idx 0-39 [--seeds tune|measure] [--iterations N]
        [--kw '{"root_top": 4}'] [--against greedy|openspiel|ismcts:LEVEL] [--name NAME] [--out FILE.jsonl]
    python -m lanterne.engines.bots.trial GAME --probe INDEX:DECISION [--kw ...]
    python -m lanterne.engines.bots.trial GAME --idx 0-31 --sees-all [...]   # a bound: it sees every card

Match ``i`` is ``arena.Match(GAME, "greedy", i, "normal", seeds)``: the same
seed as ``lanterne strength``'s match (by default the ``tune`` seeds, the
only ones tuning may look at), the search player in seat ``i % 2``, but the
search player is ``IsmctsBot(**kw)`` at ``--iterations`` (default ``normal``'s in that game)
instead of the shipped settings. The settings left out of ``--kw`` are the
game's ``tuning`` (``GAME_TYPE.search``), so ``--kw '{}'`` replays the shipped player: its games are
the same as the records of ``lanterne strength --seeds tune`` (same moves,
same scores). Each line gives the result, the final scores and the median
CPU seconds of the search player's moves (``time.thread_time``).

``--against ismcts:normal`` plays the shipped search player at ``normal`` instead of greedy
(``arena.opponent_player``: the same opponent as ``lanterne strength --against ismcts:normal``),
so that a setting for a level can be tried against the level below it.

``--against openspiel`` plays ``Match(GAME, "openspiel", i, "normal", seeds)``
instead, as ``lanterne strength --against openspiel`` does
(``openspiel.play_openspiel_match``: OpenSpiel's bot gets the search player's
CPU time a move; needs the extra ``bench``). Its games do not replay: the
other side stops at a CPU deadline.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics

from lanterne.engines.bots.arena import Match, TimedSearch, check_opponent, opponent_player
from lanterne.engines.bots.ismcts import IsmctsBot
from lanterne.engines.bots.by_name import make_bot
from lanterne.engines.core import TABLE, OpenTable, RulesError, play_out
from lanterne.engines.registry import get_game


def play(game_id: str, index: int, settings: dict, iterations: int | None = None, seeds: str = "tune",
         against: str = "greedy", sees_all: bool = False) -> dict:
    """One trial game: the search player with ``settings`` against greedy (``openspiel``, or the shipped search
    player at a level, ``ismcts:LEVEL``) on match ``index``'s seed (``iterations``: None is ``normal``'s in
    that game). ``sees_all``: the search player is given the whole state instead of its view (every hidden
    card, the draw pile in its order): not a player, a bound on what hidden information costs it."""
    if iterations is None:
        iterations = IsmctsBot.level_iterations("normal", game_id)
    if against == "openspiel":
        return _play_openspiel(game_id, index, settings, iterations, seeds)
    match = Match(game_id, against, index, "normal", seeds)
    game = get_game(game_id)
    search = TimedSearch(IsmctsBot(f"{match.seed}/search", iterations=iterations, **settings))
    other = opponent_player(match)
    seat = match.search_seat
    players = [other, other]
    players[seat] = search
    start = game.setup(players=2)
    seer = _SeesAll(search, start) if sees_all else None
    if seer is not None:
        players[seat] = seer
    final, _ = play_out(game, start, OpenTable(match.seed), players, on_step=seer.step if seer else None)
    cpu = [ms / 1000.0 for ms in search.move_ms]
    winners = game.winners(final)
    return {"game": game_id, **({"against": against} if against != "greedy" else {}),
            **({"sees_all": True} if sees_all else {}), "seeds": seeds,
            "index": index, "settings": settings, "iterations": iterations,
            "score": 1.0 / len(winners) if seat in winners else 0.0, "scores": list(game.scores(final)),
            "seat": seat, "cpu_median": round(statistics.median(cpu), 3) if cpu else None}


class _SeesAll:
    """A player given the whole state (``current``, kept by ``core.play_out``'s ``on_step``) instead of its view."""

    def __init__(self, player, state):
        self.player, self.current = player, state

    def choose(self, game, view, seat):
        return self.player.choose(game, self.current, seat)

    def step(self, state, action, events) -> None:
        self.current = state


def _play_openspiel(game_id: str, index: int, settings: dict, iterations: int, seeds: str) -> dict:
    from lanterne.engines.bots.openspiel import play_openspiel_match  # OpenSpiel is the optional extra 'bench'

    match = Match(game_id, "openspiel", index, "normal", seeds)
    record = play_openspiel_match(match, iterations=iterations, settings=settings)
    cpu, sims = record["move_cpu_ms"], record["openspiel"]["simulations"]
    return {"game": game_id, "against": "openspiel", "seeds": seeds, "index": index, "settings": settings,
            "iterations": iterations, "score": record["score"], "scores": record["scores"],
            "seat": match.search_seat, "cpu_median": round(statistics.median(cpu) / 1000.0, 3) if cpu else None,
            "openspiel_simulations": statistics.median(sims) if sims else None}


def probe(game_id: str, index: int, decision: int, settings: dict, iterations=(600, 6000), seeds: str = "tune",
          top: int = 8) -> list[str]:
    """The root's most visited children at the shipped player's ``decision``-th real decision of match ``index``,
    searched again with ``settings`` at each of ``iterations``: how the search sees that position."""
    match = Match(game_id, "greedy", index, "normal", seeds)
    game = get_game(game_id)
    bot = IsmctsBot(f"{match.seed}/search", iterations=IsmctsBot.level_iterations("normal", game_id))
    other = make_bot("greedy", f"{match.seed}/greedy")
    seat = match.search_seat
    state, table = game.setup(players=2), OpenTable(match.seed)
    seen = 0
    while not game.is_over(state):
        actor = game.next_actor(state)
        if actor == TABLE:
            state, _ = game.apply(state, table.resolve(state, game.table_op(state)))
            continue
        if actor == seat and len(game.legal_actions(state, actor)) > 1:
            seen += 1
            if seen == decision:
                break
        state, _ = game.apply(state, (bot if actor == seat else other).choose(game, game.view(state, actor), actor))
    view = game.view(state, seat)
    lines = [f"match {index}, decision {seen}: scores {game.scores(state)}, seat {seat + 1} to play"]
    for n in iterations:
        search = IsmctsBot("probe", iterations=n, **settings)
        roots = []
        iterate = search._iterate

        def first_root(g, s, root, players, iterate=iterate, roots=roots):
            if not roots:
                roots.append(root)
            iterate(g, s, root, players)

        search._iterate = first_root
        choice = search.choose(game, view, seat)
        lines.append(f"{n} iterations: {game.format_action(state, choice)}")
        children = sorted(roots[0].children.items(), key=lambda kv: -kv[1].visits)[:top]
        for (_, action), child in children:
            lines.append(f"  {game.format_action(state, action):16s} visits {child.visits:6d} "
                         f"value {child.reward[seat] / child.visits:.3f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="The search player with given settings against greedy (or OpenSpiel's "
                                            "ISMCTS), seed by seed.")
    p.add_argument("game")
    p.add_argument("--idx", default="0-19", help="match indices, FIRST-LAST (default 0-19)")
    p.add_argument("--seeds", default="tune", choices=("tune", "measure"))
    p.add_argument("--iterations", type=int, default=None, help="iterations a move (default: normal's in GAME)")
    p.add_argument("--kw", default="{}", help="IsmctsBot settings as JSON, e.g. '{\"root_top\": 4}'")
    p.add_argument("--against", default="greedy",
                   help="greedy (default), openspiel, or ismcts:LEVEL: the shipped search player at that level")
    p.add_argument("--name", default="trial")
    p.add_argument("--out", default=None, help="append each game's JSON line to this file too")
    p.add_argument("--sees-all", action="store_true",
                   help="the search player sees every hidden card and the draw pile's order (a bound, not a player)")
    p.add_argument("--probe", default=None, metavar="INDEX:DECISION",
                   help="print the root's children at that decision of that match instead")
    args = p.parse_args(argv)
    try:                                       # a one-line error, not a traceback after minutes of play
        check_opponent(args.against)
        settings = json.loads(args.kw)
        if not isinstance(settings, dict):
            raise ValueError(f"--kw is not a JSON object: {args.kw}")
        if not re.fullmatch(r"[0-9]+-[0-9]+", args.idx):
            raise ValueError(f"--idx is not FIRST-LAST: {args.idx}")
        first, last = (int(x) for x in args.idx.split("-"))
        if args.sees_all and args.against == "openspiel":
            raise ValueError("--sees-all plays against greedy or ismcts:LEVEL, not openspiel")
        if args.probe and not re.fullmatch(r"[0-9]+:[0-9]+", args.probe):
            raise ValueError(f"--probe is not INDEX:DECISION: {args.probe}")
    except (RulesError, ValueError) as e:
        p.error(str(e))
    if args.probe:
        index, decision = (int(x) for x in args.probe.split(":"))
        print("\n".join(probe(args.game, index, decision, settings, seeds=args.seeds)))
        return 0
    total = 0.0
    for index in range(first, last + 1):
        record = {"name": args.name, **play(args.game, index, settings, args.iterations, args.seeds,
                                                args.against, args.sees_all)}
        total += record["score"]
        line = json.dumps(record)
        print(line, flush=True)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as f:
                f.write(line + "\n")
    print(f"# {args.name} {args.game} {args.seeds} {args.idx}: {total} / {last - first + 1}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
