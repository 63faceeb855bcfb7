"""Real games played to the end on fair tables: each peer holds only its own view.

This is the session's loop without signatures: table operations go through
the fair tables, a move that plays hidden cards carries its author's proof,
and every peer's public digest must agree after every step. The engines run
unchanged: they cannot tell the fair table from the open one.
"""

import pytest

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import TABLE, RulesError, as_action
from lanterne.engines.registry import get_game
from lanterne.protocol.fair import audit_transcript
from lanterne.protocol.fair.driver import run_op, seeded_entropy, wire
from lanterne.protocol.fair.table import FairTable

GAME_ID = b"\x42" * 32


def made_public(before, after) -> list[int]:
    return [s for s in range(len(after.cards.ids))
            if after.cards.is_public(s) and not before.cards.is_public(s)]


def play_fair(game_id: str, players: int, seed: int, max_steps: int = 4000):
    try:
        game = get_game(game_id)
    except RulesError as e:
        pytest.skip(str(e))
    state = game.setup(players=players)
    views = [game.view(state, s) for s in range(players)]
    tables = [FairTable(GAME_ID, s, players, seeded_entropy((game_id, seed, s))) for s in range(players)]
    bots = [RandomBot(f"{seed}-{s}") for s in range(players)]
    log: list = []
    for _ in range(max_steps):
        if game.is_over(views[0]):
            break
        actor = game.next_actor(views[0])
        if actor == TABLE:
            op = game.table_op(views[0])
            assert all(game.table_op(v) == op for v in views)
            outcomes = run_op(tables, op, views, log)
            views = [game.apply(v, o)[0] for v, o in zip(views, outcomes)]
        else:
            action = as_action(wire({"a": list(bots[actor].choose(game, views[actor], actor))})["a"])
            before = views[actor]
            after = game.apply(before, action)[0]
            slots = made_public(before, after)
            if slots:
                ids = [after.cards.ids[s] for s in slots]
                proof = wire(tables[actor].prove(slots))
                log.append((actor, "fair_claim", {"slots": slots, "ids": ids, "proof": proof}))
                for t in tables:
                    if t.seat != actor:
                        t.check_claims(actor, slots, ids, proof)
            views = [after if s == actor else game.apply(v, action)[0] for s, v in enumerate(views)]
        digests = {game.digest(v) for v in views}
        assert len(digests) == 1, "the peers' public states differ"
    assert game.is_over(views[0])
    finals = {}
    for t in tables:
        finals[t.seat] = wire(t.final_reveal()[1])
    for t in tables:
        for seat, body in finals.items():
            if seat != t.seat:
                t.consume_final(seat, body)
    return game, views, log, finals


@pytest.mark.parametrize("game_id,players", [("pagode", 2), ("pandoria", 2), ("pandoria", 3),
                                             ("pandoria", 4), ("pacal", 5), ("pueblo", 4)])
def test_a_whole_game_on_fair_tables_is_consistent_and_audits_clean(game_id, players):
    game, views, log, finals = play_fair(game_id, players, seed=1)
    assert audit_transcript(GAME_ID, players, log, finals) == []
    assert len({tuple(game.scores(v)) for v in views}) == 1
    kinds = [kind for _, kind, _ in log]
    if game_id in ("pagode", "pandoria"):        # hidden hands: cards were played with proofs
        assert "fair_claim" in kinds and "fair_keys" in kinds
    if game_id == "pagode":                      # the discard pile was reshuffled into new decks
        assert len(finals[0]["decks"]) >= 2
