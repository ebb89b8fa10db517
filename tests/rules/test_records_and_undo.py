"""Match records (JSON lines), replay, undo and clear errors for bad input."""

import json

import pytest

from assistant.rules import IllegalAction, Match, RecordError
from assistant.rules.simulate import play_random

from tests.rules.table import practice_setup


@pytest.fixture(scope="module")
def played():
    m, result = play_random(practice_setup(), seed=7)
    assert result.finished and not result.violations
    return m


def test_record_replays_to_the_identical_state(played):
    text = played.to_record()
    header = json.loads(text.splitlines()[0])
    assert header["format"] == "knockdown-match" and header["version"] == 1
    assert header["setup"]["fighters"][0]["name"] == "Brawler"
    again = Match.from_record(text)
    assert again.snapshot() == played.snapshot()
    assert again.to_record() == text


def test_undo_is_replaying_one_event_fewer(played):
    m = Match.from_record(played.to_record())
    for _ in range(25):
        m.pop()
    fresh = Match.replay(played.setup, played.events[:-25])
    assert m.snapshot() == fresh.snapshot()
    assert m.events == played.events[:-25]


def test_pop_on_an_empty_match():
    with pytest.raises(IndexError):
        Match(practice_setup()).pop()


def test_events_cannot_be_changed_after_the_fact():
    m = Match(practice_setup())
    event = {"type": "deal_skills", "player": 0, "cards": ["Iron Jaw", "Light Feet", "Grappler"]}
    m.apply(event)
    event["cards"][0] = "Showboat"
    assert m.events[0]["cards"][0] == "Iron Jaw"


def header_line():
    return json.dumps(Match.header(practice_setup()))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1: empty record"),
        ('{"format": "chess"}\n', "line 1: not a knockdown-match record"),
        ('{"format": "knockdown-match", "version": 7, "setup": {}}\n', "line 1: unknown record version 7"),
        ('{"format": "knockdown-match", "version": 1, "setup": {"fighters": []}}\n', "line 1: bad setup"),
        ("not json\n", "line 1: not valid JSON"),
    ],
)
def test_bad_headers_name_line_one(text, message):
    with pytest.raises(RecordError, match=message) as info:
        Match.from_record(text)
    assert info.value.line == 1


def test_malformed_event_line_is_named():
    text = header_line() + '\n{"type": "deal_skills", "player": 0, "cards": ["Iron Jaw", "Light Feet", "Grappler"]}\n{oops\n'
    with pytest.raises(RecordError, match="line 3: not valid JSON") as info:
        Match.from_record(text)
    assert info.value.line == 3


def test_illegal_event_line_is_named_with_the_rule():
    text = header_line() + '\n{"type": "move", "player": 0, "to": "S4"}\n'
    with pytest.raises(RecordError, match="line 2: illegal event .*'move'.*Move: actions are taken only once"):
        Match.from_record(text)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"type": "fly"}, "unknown type 'fly'"),
        ({"type": "move", "player": 2, "to": "S4"}, "field 'player' = 2: must be 0 or 1"),
        ({"type": "move", "player": 0}, "'move' needs the field 'to'"),
        ({"type": "move", "player": 0, "to": "S4", "speed": 3}, "'move' has no field 'speed'"),
        ("move", "an event is a JSON object"),
        ({"type": "tower", "player": 0, "passed": True, "source": "guess"}, "field 'source' = 'guess'"),
    ],
)
def test_malformed_events_name_the_field_and_value(event, message):
    m = Match(practice_setup())
    with pytest.raises(IllegalAction, match=message) as info:
        m.apply(event)
    assert isinstance(info.value, ValueError)
    assert repr(event) in str(info.value)
