"""Issue 16, point 5: each seat's score over the game, as a chart, in the scores panel (F2 at 80x24)
of local and network games, and in the replay."""

from __future__ import annotations

import pytest

from lanterne.client.local_play import make_local_game
from lanterne.client.local_games import local_folder, unfinished_local
from lanterne.client.local_record import resume_local
from lanterne.client.screens.game import game_screen_for
from lanterne.client.screens.replay import ReplayScreen
from lanterne.client.widgets.score_chart import BARS, ScoreChart, chart_text, columns_of
from lanterne.client.widgets.scoreboard import ScoreBoard
from lanterne.engines.bots import RandomBot
from lanterne.engines.registry import get_game
from tests.support.apps import make_app, no_blink, settled
from tests.support.waiting import until


# -- the drawing


def test_columns_keep_every_point_that_fits_and_always_end_on_the_last():
    assert columns_of(5, 10) == [0, 1, 2, 3, 4]
    picks = columns_of(517, 30)
    assert len(picks) == 30 and picks[-1] == 516 and picks == sorted(set(picks))


def test_the_chart_is_one_line_per_seat_on_one_scale_with_the_score_at_the_end():
    series = [[0, 0], [2, 0], [2, 5], [9, 5]]
    text = chart_text(series, ["P1", "P2"], width=40, title="points").plain.splitlines()
    assert text == ["points over the game", f"P1 {BARS[0]}{BARS[2]}{BARS[2]}{BARS[7]} 9",
                    f"P2 {BARS[0]}{BARS[0]}{BARS[4]}{BARS[4]} 5"]


def test_a_long_game_fits_the_width_and_the_position_on_screen_is_marked():
    series = [[i, 2 * i] for i in range(300)]
    text = chart_text(series, ["P1", "P2"], width=30, at=100)
    lines = text.plain.splitlines()
    assert all(len(line) <= 30 for line in lines)
    assert lines[1].endswith(" 100") and lines[2].endswith(" 200")     # the scores at the position shown
    marked = [s for s in text.spans if "reverse" in str(s.style)]
    dimmed = [s for s in text.spans if str(s.style) == "dim"]
    assert len(marked) == 2 and dimmed                                  # one mark per seat, what follows dimmed
    assert chart_text([], ["P1"], 30).plain == "" and chart_text([[1]], [], 30).plain == ""


# -- a local game


async def wait_for_turn(pilot, controller) -> None:
    await until(lambda: controller.waiting.kind in ("human", "over"), pilot,
                what=lambda: f"the computer's move ({controller.status()})")


async def play_moves(pilot, controller, moves: int, seed: str = "c") -> None:
    bot = RandomBot(seed)
    for _ in range(moves):
        await wait_for_turn(pilot, controller)
        if controller.waiting.kind == "over":
            return
        w = controller.waiting
        controller.submit(w.seat, bot.choose(controller.game, controller.view(w.seat), w.seat))
        await pilot.pause()
    await wait_for_turn(pilot, controller)


def chart_of(app) -> ScoreChart:
    screen = next(s for s in app.screen_stack if hasattr(s, "controller"))
    return screen.query_one(ScoreChart)


@pytest.mark.parametrize("game_id", ["pagode", "pueblo"])
async def test_f2_at_80x24_shows_each_seats_score_over_the_game(game_id, tmp_path):
    game = get_game(game_id)
    controller = make_local_game(game, mode="vs", bot="random", seed="7", you="Ann", save_to=tmp_path,
                                 variant="quick" if "quick" in game.variants else "standard")
    app = make_app(lambda: game_screen_for(controller))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await play_moves(pilot, controller, 12)
        await pilot.press("f2")
        await pilot.pause()
        chart = chart_of(app)
        shown = game.display_scores(controller.view(None))
        lines = str(chart.render()).splitlines()
        assert lines[0] == f"{game.score_name} over the game"
        assert [line.split()[0] for line in lines[1:]] == ["P1", "P2"]
        assert [int(line.split()[-1]) for line in lines[1:]] == list(shown)
        assert chart.points[-1] == list(shown) and len(chart.points) > 12       # a point per change of the log
        assert chart.points[0] == [0, 0]
        region = chart.region
        assert region.height == 3 and region.bottom <= 24 and region.right <= 80     # in view at 80x24
        if game_id == "pueblo":           # the penalties panel replaces the scores; the chart stays in view
            assert not app.screen.query_one(ScoreBoard).display
        await app.action_quit()


async def test_a_resumed_local_game_charts_the_scores_from_its_start(tmp_path):
    game = get_game("pagode")
    c = make_local_game(game, mode="hot-seat", seed="r", you="Ann", save_to=local_folder(), variant="quick")
    bot = RandomBot("r")
    while c.moves < 40:
        w = c.waiting
        c.submit(w.seat, bot.choose(game, c.view(w.seat), w.seat))
    scores_then = game.display_scores(c.view(None))
    c.close()
    [meta] = unfinished_local()
    resumed = resume_local(meta)
    history = resumed.score_history
    assert history[0] == [0, 0] and history[-1] == list(scores_then)
    assert len(history) == 1 + len(resumed.log)           # the start, then every move and table operation
    app = make_app(lambda: game_screen_for(resumed))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        if app.screen is not next(s for s in app.screen_stack if hasattr(s, "controller")):
            await pilot.press("enter")     # the pass-the-keyboard dialog
            await pilot.pause()
        assert chart_of(app).points[:len(history) - 1] == history[:-1]
        assert chart_of(app).points[-1] == list(scores_then)
        await app.action_quit()


# -- a network game (two apps over the LAN, the toy game)


@pytest.mark.slow
async def test_both_seats_of_a_network_game_chart_the_same_scores(tmp_path):
    from tests.support.lobby import lobby_app, play_by_clicks, seated, unique

    ann, bob = unique("Ann"), unique("Bob")
    app_a = lobby_app(ann, tmp_path / "a")
    app_b = lobby_app(bob, tmp_path / "b")
    async with app_a.run_test(size=(120, 40)) as pa, app_b.run_test(size=(120, 40)) as pb:
        screens = await seated(pa, pb, ann, bob)
        await play_by_clicks(screens, moves=4)
        await pa.pause()
        await pb.pause()
        charts = [screens[p].query_one(ScoreChart) for p in (pa, pb)]
        for pilot, chart in zip((pa, pb), charts):
            controller = screens[pilot].controller
            assert chart.points[-1] == list(controller.game.display_scores(controller.view(None)))
            assert chart.points[-1] != chart.points[0]        # the +2 moves show
        assert charts[0].points[-1] == charts[1].points[-1]
        assert str(charts[0].render()) == str(charts[1].render())


# -- the replay


async def test_the_replay_charts_the_whole_game_and_marks_the_step_on_screen(pueblo_log):
    app = make_app(lambda: ReplayScreen(pueblo_log))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        screen = app.screen
        replay = screen.replay
        series = replay.score_series()
        assert len(series) == len(replay.states) and series[-1] == list(replay.game.display_scores(replay.states[-1]))
        chart = screen.query_one("#replay-chart")
        await pilot.press(*["right"] * 30)
        await pilot.pause()
        text = chart.content          # the Text given to the Static
        lines = text.plain.splitlines()
        assert lines[0] == "penalties over the game"
        assert [int(line.split()[-1]) for line in lines[1:]] == series[30]
        assert sum("reverse" in str(s.style) for s in text.spans) == 2
        await pilot.press("end")
        await pilot.pause()
        lines = str(chart.render()).splitlines()
        assert [int(line.split()[-1]) for line in lines[1:]] == series[-1]
        assert chart.region.bottom <= 24


# -- snapshots at 80x24


def test_snapshot_f2_panel_with_the_chart_at_80x24(snap_compare, tmp_path):
    game = get_game("pagode")
    controller = make_local_game(game, mode="hot-seat", seed="snap", you="Ann", variant="quick")
    bot = RandomBot("snap")

    async def run_before(pilot):
        await no_blink(pilot)
        screen = next(s for s in pilot.app.screen_stack if hasattr(s, "controller"))
        if pilot.app.screen is not screen:
            pilot.app.pop_screen()
        screen.hot_seat = False
        for _ in range(16):
            w = controller.waiting
            controller.submit(w.seat, bot.choose(game, controller.view(w.seat), w.seat))
            await pilot.pause()
        screen.viewer = controller.waiting.seat
        await pilot.press("f2")
        await pilot.pause()

    assert snap_compare(make_app(lambda: game_screen_for(controller)), terminal_size=(80, 24),
                        run_before=run_before)


def test_snapshot_replay_with_the_chart_at_80x24(snap_compare, pueblo_log):
    async def run_before(pilot):
        await settled(pilot)
        await pilot.press(*["right"] * 25)
        await pilot.pause()

    assert snap_compare(make_app(lambda: ReplayScreen(pueblo_log)), terminal_size=(80, 24), run_before=run_before)
