"""Every API error is JSON ``{"error": code, "message": ...}`` with the right 4xx."""

from __future__ import annotations

import logging

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from assistant.knockdown import FlowError, FlowInputError
from assistant.service import ServiceError
from assistant.store import MatchNotFound, StoreError

log = logging.getLogger("knockdown.web")


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, *, headers: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers or {}


def error_response(status: int, code: str, message: str, headers: dict | None = None):
    response = jsonify(error=code, message=message)
    response.status_code = status
    response.headers.update(headers or {})
    return response


def init_app(app: Flask) -> None:
    engine = app.extensions["knockdown"].engine

    @app.errorhandler(ApiError)
    def api_error(error: ApiError):
        return error_response(error.status, error.code, error.message, error.headers)

    @app.errorhandler(ServiceError)
    def service_error(error: ServiceError):
        return error_response(error.status, error.code, str(error))

    @app.errorhandler(FlowError)
    def flow_error(error: FlowError):
        return error_response(409, "flow_state", str(error))

    @app.errorhandler(FlowInputError)
    def flow_input_error(error: FlowInputError):
        return error_response(422, "invalid", str(error))

    @app.errorhandler(MatchNotFound)
    def match_not_found(error: MatchNotFound):
        return error_response(404, "not_found", str(error))

    @app.errorhandler(StoreError)
    def store_error(error: StoreError):
        return error_response(409, "store", str(error))

    @app.errorhandler(engine.IllegalAction)
    def illegal_action(error: Exception):
        return error_response(409, "illegal_action", str(error))

    malformed = getattr(engine, "MalformedEvent", None)
    if malformed is not None:
        # Not an event at all (unknown type, bad field): unprocessable, not a rules conflict.
        @app.errorhandler(malformed)
        def malformed_event(error: Exception):
            return error_response(422, "invalid", str(error))

    @app.errorhandler(engine.RecordError)
    def bad_record(error: Exception):
        return error_response(422, "bad_record", str(error))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        code = (error.name or "error").lower().replace(" ", "_").replace("'", "")
        return error_response(error.code or 500, code, error.description or error.name)

    @app.errorhandler(Exception)
    def internal_error(error: Exception):
        log.exception("unhandled error")
        return error_response(500, "internal_error", f"{type(error).__name__}: {error}")
