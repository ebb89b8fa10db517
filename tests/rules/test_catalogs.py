"""Card catalogs and arena layouts are data, validated with errors naming file, item and field."""

import pytest

from assistant import boxes
from assistant.boxes import BoxError, load_box, load_layout, new_setup
from assistant.rules import InvalidData
from assistant.rules.schema import ArenaLayout, Range


@pytest.fixture
def box_dir(tmp_path, monkeypatch):
    """A user box folder on KNOCKDOWN_BOXES; caches are cleared before and after (global state)."""
    monkeypatch.setenv("KNOCKDOWN_BOXES", str(tmp_path))
    boxes.load_box.cache_clear()
    yield tmp_path
    boxes.load_box.cache_clear()


def write_box(root, cards, *, name="mybox"):
    folder = root / name
    folder.mkdir()
    (folder / "box.toml").write_text(f'id = "{name}"\nname = "My box"\narenas = ["line-9"]\n')
    (folder / "cards.toml").write_text(cards)
    src = boxes.DATA_DIR / "practice"
    for f in ("skills.toml", "fighters.toml"):
        (folder / f).write_text((src / f).read_text())
    return folder


def test_practice_box_is_complete_and_labelled():
    box = load_box("practice")
    assert box.info.practice and box.deck_size == 36
    assert len(box.skills) == 12 and len(box.fighters) == 3


def test_bad_card_field_names_file_card_and_field(box_dir):
    write_box(box_dir, '[[cards]]\nname = "Bad Hook"\nheavy = -1\ncopies = 40\n')
    with pytest.raises(InvalidData) as info:
        load_box("mybox")
    message = str(info.value)
    assert "cards.toml" in message and "card 'Bad Hook'" in message and "field 'heavy' = -1" in message


def test_bad_range_and_unknown_field(box_dir):
    write_box(box_dir, '[[cards]]\nname = "Odd"\nrange = "far"\ncolour = "red"\ncopies = 40\n')
    with pytest.raises(InvalidData) as info:
        load_box("mybox")
    assert "range 'far'" in str(info.value) and "colour" in str(info.value)


def test_unknown_effect_op_is_named(box_dir):
    write_box(box_dir, '[[cards]]\nname = "Odd"\ncopies = 40\neffect = [{ op = "teleport" }]\n')
    with pytest.raises(InvalidData, match="unknown effect op 'teleport'"):
        load_box("mybox")


def test_small_deck_is_refused(box_dir):
    write_box(box_dir, '[[cards]]\nname = "Lonely"\ncopies = 3\n')
    with pytest.raises(InvalidData, match="the deck holds 3 cards"):
        load_box("mybox")


def test_unknown_box_and_fighter():
    with pytest.raises(BoxError, match="unknown box 'chess'"):
        load_box("chess")
    with pytest.raises(BoxError, match="no fighter 'Pawn'"):
        new_setup(["practice"], fighters=["Pawn", "Brawler"])


def test_default_layout_line_9():
    layout = load_layout("line-9")
    assert [s.id for s in layout.spaces] == [f"S{i}" for i in range(1, 10)]
    assert layout.starting == ("S3", "S7") and layout.edges == ("S1", "S9") and layout.centre == "S5"
    assert layout.neighbours["S1"] == ("S2",) and layout.neighbours["S5"] == ("S4", "S6")
    assert {m.id: m.board_mm for m in layout.markers}[10] == (-195, 55)
    assert layout.by_id["S9"].board_mm == (160, 0)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"starting": ["S3", "S99"]}, "starting: 'S99' is not a space"),
        ({"starting": ["S3", "S3"]}, "the two starting spaces must differ"),
        ({"centre": "S0"}, "centre: 'S0' is not a space"),
        ({"spaces": [{"id": "S1", "grid": [0, 0]}, {"id": "S3", "grid": [2, 0]}, {"id": "S7", "grid": [5, 0]}]},
         "not connected"),
        ({"spaces": [{"id": "S3", "grid": [0, 0]}, {"id": "S7", "grid": [0, 0]}]}, "share one grid cell"),
    ],
)
def test_layout_validation(change, message):
    base = load_layout("line-9").to_dict()
    base.update(change)
    if "spaces" in change:
        base["edges"], base["centre"] = [], ""
    with pytest.raises(ValueError, match=message):
        ArenaLayout.model_validate(base)


def test_unknown_layout_file():
    with pytest.raises(BoxError, match="unknown arena layout 'moon'"):
        load_layout("moon")


@pytest.mark.parametrize(("text", "kind", "low", "high"),
                         [("", "any", 0, 0), ("2", "fixed", 2, 2), ("1-3", "span", 1, 3), ("projectile", "projectile", 0, 0)])
def test_range_parsing(text, kind, low, high):
    r = Range.parse(text)
    assert (r.kind, r.low, r.high) == (kind, low, high)
    assert Range.parse(str(r)) == r


def test_range_refuses_nonsense():
    with pytest.raises(ValueError, match="low end is above the high end"):
        Range.parse("3-1")
