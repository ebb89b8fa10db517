"""The Flask web API and the dashboard pages on top of the referee service.

``create_app`` follows the Flask tutorial's factory: configuration, then one
``init_app`` per subsystem. Production runs it under waitress (``knockdown serve``).
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from assistant.service.credentials import session_key, table_pin


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.config.from_mapping(
        DATA_DIR="data",
        SIMULATE=False,
        CONFIG_FILE=None,
        PIN=None,  # the table PIN; None means the one stored in the data dir
        SERVICE=None,  # an already built RefereeService (tests, `knockdown serve`)
        SSE_KEEPALIVE_SECONDS=15.0,
        LOGIN_MAX_FAILURES=5,
        LOGIN_WINDOW_SECONDS=60.0,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        MAX_CONTENT_LENGTH=1 << 20,
    )
    if test_config:
        app.config.update(test_config)

    service = app.config["SERVICE"]
    if service is None:
        from assistant.service.wiring import build_service, load_config

        config = load_config(data_dir=app.config["DATA_DIR"], simulate=app.config["SIMULATE"],
                             config_file=app.config["CONFIG_FILE"])
        app.config["DATA_DIR"] = str(config.data_dir)
        app.config["PIN"] = app.config["PIN"] or config.pin
        service = build_service(config)
    app.extensions["knockdown"] = service
    data_dir = Path(app.config["DATA_DIR"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = session_key(data_dir)
    app.config["REFEREE_PIN"] = table_pin(data_dir, app.config["PIN"])

    from assistant.web import api, auth, dashboard, errors, events

    errors.init_app(app)
    auth.init_app(app)
    api.init_app(app)
    events.init_app(app)
    dashboard.init_app(app)
    return app
