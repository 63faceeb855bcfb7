"""The session's state machine walked as data, without a session (its table in protocol.session.phases)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lanterne.protocol.session.phases import (BACK, CLAIMABLE, LIVE_PHASES, OVER_PHASES, TRANSITIONS, Phase, PhaseError,
                                              PhaseState, Trigger, render)
from lanterne.protocol.session.rules import RULES

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def walk(*triggers: Trigger) -> PhaseState:
    state = PhaseState()
    for trigger in triggers:
        state.fire(trigger)
    return state


def test_a_game_played_to_its_end_goes_through_every_phase_of_a_finished_game():
    state = PhaseState()
    seen = [state.phase]
    for trigger in (Trigger.TABLE_SET, Trigger.NONCES_IN, Trigger.GAME_OVER, Trigger.REVEALED, Trigger.SIGNED):
        seen.append(state.fire(trigger))
    assert seen == [Phase.HELLO, Phase.GENESIS, Phase.PLAY, Phase.FINAL, Phase.END, Phase.OVER]


@pytest.mark.parametrize("back", CLAIMABLE)
@pytest.mark.parametrize("answer", [Trigger.REFUSED, Trigger.VOIDED])
def test_a_refused_or_voided_claim_goes_back_to_the_phase_it_interrupted(back, answer):
    lead = {Phase.GENESIS: [Trigger.TABLE_SET], Phase.PLAY: [Trigger.TABLE_SET, Trigger.NONCES_IN],
            Phase.TAKEBACK: [Trigger.TABLE_SET, Trigger.NONCES_IN, Trigger.TAKEBACK_ASKED],
            Phase.FINAL: [Trigger.TABLE_SET, Trigger.NONCES_IN, Trigger.GAME_OVER],
            Phase.DISPUTE: [Trigger.TABLE_SET, Trigger.NONCES_IN, Trigger.AUDIT],
            Phase.END: [Trigger.TABLE_SET, Trigger.NONCES_IN, Trigger.GAME_OVER, Trigger.REVEALED]}[back]
    state = walk(*lead)
    assert state.phase == back and state.fire(Trigger.CLAIMED) == Phase.CLAIM
    assert state.fire(answer) == back and state.back is None


def test_an_agreed_replace_goes_on_with_play_and_an_abort_or_a_lost_seat_ends_every_live_phase():
    assert walk(Trigger.TABLE_SET, Trigger.NONCES_IN, Trigger.CLAIMED, Trigger.SEAT_REPLACED).phase == Phase.PLAY
    for phase in LIVE_PHASES:
        assert TRANSITIONS[(phase, Trigger.ABORT)] == Phase.ABORTED
        assert TRANSITIONS[(phase, Trigger.OUT)] == Phase.REPLACED


def test_a_takeback_goes_back_to_play_whether_it_was_granted_or_refused_and_only_play_asks_one():
    for answer in (Trigger.TAKEN_BACK, Trigger.DENIED):
        assert walk(Trigger.TABLE_SET, Trigger.NONCES_IN, Trigger.TAKEBACK_ASKED, answer).phase == Phase.PLAY
    assert [source for (source, trigger) in TRANSITIONS if trigger == Trigger.TAKEBACK_ASKED] == [Phase.PLAY]
    with pytest.raises(PhaseError):
        walk(Trigger.TABLE_SET, Trigger.NONCES_IN, Trigger.TAKEBACK_ASKED, Trigger.TAKEBACK_ASKED)


def test_nothing_leaves_a_phase_of_a_game_over_and_a_trigger_without_its_row_is_refused():
    assert not [key for key in TRANSITIONS if key[0] in OVER_PHASES]
    state = walk(Trigger.TABLE_SET, Trigger.NONCES_IN, Trigger.GAME_OVER, Trigger.REVEALED, Trigger.SIGNED)
    for trigger in Trigger:
        with pytest.raises(PhaseError):
            state.fire(trigger)
    with pytest.raises(PhaseError):
        PhaseState().fire(Trigger.CLAIMED)      # no claim before the seats are set


def test_every_phase_is_reached_from_hello_and_every_trigger_has_a_row():
    reached, todo = {Phase.HELLO}, [Phase.HELLO]
    while todo:
        phase = todo.pop()
        for (source, _), target in TRANSITIONS.items():
            if source == phase and target is not BACK and target not in reached:
                reached.add(target)
                todo.append(target)
    assert reached == set(Phase)
    assert {trigger for _, trigger in TRANSITIONS} == set(Trigger)


def test_each_live_phase_has_a_row_of_what_it_reads_and_writes_whose_handlers_are_functions():
    assert set(RULES) == set(LIVE_PHASES)
    for rule in RULES.values():
        assert callable(rule.reader) and (rule.step is None or callable(rule.step))


def test_the_table_in_the_protocol_document_is_the_one_the_code_runs():
    text = DOC.read_text(encoding="utf-8")
    shown = re.search(r"<!-- transitions -->\n(.*?)\n<!-- /transitions -->", text, re.S)
    assert shown is not None, "docs/protocol.md lost its table of transitions"
    assert shown.group(1) == render(), "paste protocol.session.phases.render() into docs/protocol.md"
