"""Request checks the dashboard adds in front of the service's API.

Each one closes a hole the API fuzz test found in an endpoint this branch does not own;
the service should check the same itself, and then the guard can go.
"""

from __future__ import annotations

from flask import request

from assistant.web.errors import ApiError

SQLITE_MAX_INT = 2**63 - 1
# New-match options whose values are names (a string, or a list of strings).
NAME_OPTIONS = {"arena": False, "arena_box": False, "skills_box": False, "variant": False,
                "boxes": True, "fighters": True, "players": True}


def refuse_impossible_ids():
    """An id beyond SQLite's 64-bit integers names no match: 404, not an OverflowError (500)."""
    for name, value in (request.view_args or {}).items():
        if isinstance(value, int) and not -SQLITE_MAX_INT <= value <= SQLITE_MAX_INT:
            raise ApiError(404, "not_found", f"no match with {name} {value!r}")


def check_new_match_names():
    """``POST /api/matches``: names must be strings (a list where there are several), not 500s."""
    if request.method != "POST" or request.endpoint != "api.new_match":
        return
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return  # the API itself answers a body that is not an object
    for option, is_list in NAME_OPTIONS.items():
        if option not in body or body[option] is None:
            continue
        value = body[option]
        ok = (isinstance(value, list) and all(isinstance(v, str) for v in value)) if is_list else isinstance(value, str)
        if not ok:
            shape = "a list of names" if is_list else "a name (a string)"
            raise ApiError(422, "invalid", f"new match: {option!r} must be {shape}, got {value!r}")


def check_action_type():
    """``POST /api/actions``: the event's ``type`` must be a string (a list or object made the engine 500)."""
    if request.method != "POST" or request.endpoint != "api.actions":
        return
    body = request.get_json(silent=True)
    if isinstance(body, dict) and "type" in body and not isinstance(body["type"], str):
        raise ApiError(422, "invalid", f"an action's 'type' must be a string such as 'move', got {body['type']!r}")
