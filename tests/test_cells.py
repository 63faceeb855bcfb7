"""Names are measured in terminal cells: a wide character takes two columns."""

import pytest
from rich.cells import cell_len

from lanterne.client.cells import cut, fit
from lanterne.client.settings import MAX_NAME, check_name, default_name


@pytest.mark.parametrize("name", ["Ana", "漢字の名前", "Zoë", "🎲 dice", "ｆｕｌｌ"])
@pytest.mark.parametrize("width", [1, 4, 9, 16])
def test_fit_gives_exactly_the_width_in_cells(name, width):
    left, right = fit(name, width), fit(name, width, ">")
    assert cell_len(left) == cell_len(right) == width
    assert left.rstrip() == right.lstrip() == cut(name, width).rstrip()
    assert name.startswith(cut(name, width))


def test_a_wide_character_is_never_cut_in_half():
    assert cut("漢字かな", 5) == "漢字"                 # 4 cells; the third would straddle
    assert fit("漢字かな", 5) == "漢字 "
    assert fit("ab", 5) == "ab   " and fit("ab", 5, ">") == "   ab"
    assert f"{'漢字かな'[:5]:<5}" != fit("漢字かな", 5)    # what len() does: 8 cells, misaligned


def test_columns_line_up_after_wide_names():
    rows = [fit(name, 10) + "|" for name in ("Ana", "漢字の名前です", "🎲🎲🎲🎲🎲🎲")]
    assert len({cell_len(row) for row in rows}) == 1


def test_the_display_name_is_limited_in_cells():
    assert check_name("漢" * (MAX_NAME // 2)) == "漢" * (MAX_NAME // 2)
    with pytest.raises(ValueError, match=f"at most {MAX_NAME} columns"):
        check_name("漢" * (MAX_NAME // 2 + 1))      # 13 characters, 26 cells
    check_name("a" * MAX_NAME)
    with pytest.raises(ValueError):
        check_name("a" * (MAX_NAME + 1))


def test_the_default_name_is_cut_in_cells(monkeypatch):
    monkeypatch.setenv("USER", "漢" * 20)
    assert default_name() == "漢" * (MAX_NAME // 2)
    check_name(default_name())
