"""A game where a seat falls silent and a computer takes it over, played out in memory for the tests."""

from __future__ import annotations

from typing import Callable, Sequence

from lanterne.engines.core import Game, Player, RulesError
from lanterne.protocol.memory import Pipe, choice_of
from lanterne.protocol.session import REPLACE, Session
from lanterne.protocol.session.phases import Phase


def host_computer(claimer: Session, *, games: Callable[[str], Game] | None = None,
                  store: Callable[[bytes], None] | None = None) -> Session:
    """The session of the computer ``claimer`` hosts for the seat its last ``replace`` names, rebuilt from its log."""
    entry = next(e for e in reversed(claimer.chain) if e.kind == REPLACE and e.author == claimer.public)
    identity, seed = claimer.computer_secrets(entry.body["seat"])
    return Session.from_log([e.raw for e in claimer.chain], identity, seed, games=games, store=store,
                            name=entry.body["name"])


def play_replacing(sessions: Sequence[Session], players: Sequence[Player], computer: Player, *, gone: int,
                   after_moves: int, claimer: int = 0, max_steps: int = 100_000,
                   games: Callable[[str], Game] | None = None,
                   filter: Callable[[int, int, bytes], bytes | None] | None = None) -> tuple[Pipe, Session | None]:
    """A game where seat ``gone`` falls silent after ``after_moves`` moves, to the end.

    The sessions need a table whose policy is ``computer`` and a ``timeout``
    on the claimer. When nobody else can write, the claimer's clock runs out:
    it writes the ``replace`` and hosts the computer (``computer`` plays it),
    the others agree, the hands are re-dealt and the game goes on. Nothing
    reaches or leaves the gone session after the cut (it keeps its log as it
    stood). ``filter`` may change or drop frames (src, dst, bytes) as
    :meth:`Pipe.deliver` does. Returns the pipe and the computer's session
    (None if the game ended before the cut).
    """
    players = list(players)
    cut = False

    def silence(src: int, dst: int, raw: bytes) -> bytes | None:
        if cut and gone in (src, dst):
            return None
        return raw if filter is None else filter(src, dst, raw)

    pipe = Pipe(sessions)
    pipe.collect(0, sessions[0].start())
    pipe.deliver(silence)
    for i, s in enumerate(sessions[1:], 1):
        if not s.auto_join:
            pipe.collect(i, s.join())
            pipe.deliver(silence)
    comp: Session | None = None
    host = sessions[claimer]
    for _ in range(max_steps):
        pipe.deliver(silence)
        live = [i for i, s in enumerate(pipe.sessions) if not (cut and i == gone)]
        if all(pipe.sessions[i].over for i in live):
            return pipe, comp
        if not cut and sum(e.kind == "move" for e in host.chain) >= after_moves:
            cut = True
        movers = [i for i in live if pipe.sessions[i].my_turn]
        if not movers:
            if host.phase == Phase.CLAIM and not host.over:     # a table of two: the gone seat does not answer
                host.tick(0.0)
                pipe.collect(claimer, host.tick((host.timeout or 0.0) + 1.0))
                continue
            if comp is None and cut and not host.over:
                host.tick(0.0)
                pipe.collect(claimer, host.tick((host.timeout or 0.0) + 1.0))
                if (host.claiming is not None and host.claiming.replaces) or host.replaced:
                    comp = host_computer(host, games=games)
                    pipe.sessions.append(comp)
                    pipe.events.append([])
                    players.append(computer)
                    pipe.collect(len(pipe.sessions) - 1, [])
                continue
            stuck = [i for i in live if not pipe.sessions[i].over]
            raise RulesError(f"the sessions are stuck: nobody can write the next entry (open: {stuck})")
        i = movers[0]
        s = pipe.sessions[i]
        pipe.collect(i, s.act(choice_of(players[i], s)))
    raise RulesError(f"no end after {max_steps} moves")
