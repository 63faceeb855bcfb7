"""Guard for speed work: random games must stay byte-identical.

Seeds 0..99 are played exactly as ``lanterne bench --only pagode.games``
plays them (RandomBot per seat, OpenTable, core.play_out). The final public
digest and the whole record of actions of every game, plus the legal action
lists at every step of the first 10 games, are hashed and compared with the
hash recorded before any optimisation. Any change of behaviour (an action
more or less, another order, another outcome) changes the hash.

Only a deliberate rules change may re-record the hashes:
``.venv/bin/python tests/engines/pagode/test_same_games.py`` prints them.
"""

from __future__ import annotations

import hashlib

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import OpenTable, canonical_pack, play_out
from lanterne.engines.pagode import GAME

GAMES = 100
LEGAL_GAMES = 10

RECORDS_SHA256 = "3ba64b198bfc6b2dff2e6463af7e8e1d0e3a5167895f82c0875e4455a609b60c"
LEGAL_SHA256 = "db07a2e0d7307ead5f384e94a1989474bddf80639c9a015b4496ada4bec30cf8"


def _play(g: int, on_step=None):
    bots = [RandomBot(f"bench/{g}/{i}") for i in range(2)]
    return play_out(GAME, GAME.setup(players=2), OpenTable(f"bench/{g}"), bots, on_step=on_step)


def records_hash() -> str:
    """SHA-256 over, per seed, the final digest and the packed (actor, action) record."""
    h = hashlib.sha256()
    for g in range(GAMES):
        final, record = _play(g)
        h.update(GAME.digest(final))
        h.update(canonical_pack(record))
    return h.hexdigest()


def legal_hash() -> str:
    """SHA-256 over the legal actions of the seat to move, at every step of the first games."""
    h = hashlib.sha256()
    for g in range(LEGAL_GAMES):
        lists: list = []

        def note(state, action, events) -> None:
            if not GAME.is_over(state):
                seat = state.current
                lists.append((GAME.next_actor(state), GAME.legal_actions(state, seat),
                              GAME.legal_actions(GAME.view(state, seat), seat)))

        _play(g, on_step=note)
        h.update(canonical_pack(lists))
    return h.hexdigest()


def test_random_games_are_unchanged() -> None:
    assert records_hash() == RECORDS_SHA256


def test_legal_actions_are_unchanged() -> None:
    assert legal_hash() == LEGAL_SHA256


if __name__ == "__main__":
    print(records_hash())
    print(legal_hash())
