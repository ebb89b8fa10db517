"""firmware_config: the referee's TOML configuration, validated on load.

>>> config = load_config()                       # the packaged defaults
>>> config = load_config("/etc/knockdown.toml")  # a file merged over the defaults
>>> config = load_config(overrides={"http.port": 9000})
>>> config.gpio.button_pin
17

Errors raise :class:`ConfigError` (a ``ValueError``) naming the file, the dotted key,
the value and the rule; nothing is half-applied. This package sits at the bottom of
the layering: it imports nothing from ``assistant`` or ``vision``.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

import tomlkit
from pydantic import BaseModel, ValidationError

from firmware_config.schema import (
    HARDWARE_PWM_PINS,
    ArenaVisionConfig,
    CameraConfig,
    CamerasConfig,
    Config,
    CountdownConfig,
    GpioConfig,
    HttpConfig,
    MatchConfig,
    RefereeConfig,
    StoreConfig,
    TowerVisionConfig,
    VisionConfig,
)

__all__ = [
    "DEFAULT_CONFIG_TEXT",
    "TOWER_CALIBRATION_FILE",
    "HARDWARE_PWM_PINS",
    "ArenaVisionConfig",
    "CameraConfig",
    "CamerasConfig",
    "Config",
    "ConfigError",
    "ConfigIssue",
    "CountdownConfig",
    "GpioConfig",
    "HttpConfig",
    "MatchConfig",
    "RefereeConfig",
    "StoreConfig",
    "TowerVisionConfig",
    "VisionConfig",
    "dump_config",
    "load_config",
    "update_config",
]

DEFAULT_CONFIG_TEXT: str = resources.files(__name__).joinpath("default.toml").read_text(encoding="utf-8")

# A service started without a config file keeps the tablet's tower calibration in its data
# dir, in a config file of this name, and reads it at start.
TOWER_CALIBRATION_FILE = "tower-calibration.toml"

_DEFAULTS_LABEL = "built-in defaults"
_OVERRIDE_LABEL = "override"


@dataclass(frozen=True)
class ConfigIssue:
    """One problem: where it came from, the dotted key, the value and the rule broken."""

    source: str
    key: str
    value: Any
    rule: str

    def __str__(self) -> str:
        shown = "(missing)" if self.value is _MISSING else _toml_value(self.value)
        return f"{self.source}: {self.key} = {shown}: {self.rule}"


class ConfigError(ValueError):
    """The configuration is invalid; ``issues`` lists every problem found."""

    def __init__(self, issues: list[ConfigIssue] | str, *, source: str | None = None):
        if isinstance(issues, str):
            self.issues: list[ConfigIssue] = []
            message = f"{source}: {issues}" if source else issues
        else:
            self.issues = list(issues)
            message = "\n".join(str(issue) for issue in self.issues)
        self.source = source
        super().__init__(message)


_MISSING = object()


def load_config(
    path: str | os.PathLike[str] | None = None, *, overrides: Mapping[str, Any] | None = None
) -> Config:
    """Load the defaults, merge ``path`` (a TOML file) and then ``overrides`` over them.

    ``overrides`` may be nested (``{"http": {"port": 9000}}``) or dotted
    (``{"http.port": 9000}``); ``None`` values are ignored so optional CLI flags can be
    passed straight through.
    """
    merged = _parse(DEFAULT_CONFIG_TEXT, _DEFAULTS_LABEL)
    origins: dict[str, str] = {}
    file_label = _DEFAULTS_LABEL
    if path is not None:
        file_label = os.fspath(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot read the config file: {exc.strerror or exc}", source=file_label) from None
        except UnicodeDecodeError:
            raise ConfigError("the config file is not UTF-8 text", source=file_label) from None
        _merge(merged, _parse(text, file_label), origins, file_label, prefix="")
    if overrides:
        _merge(merged, _nest(overrides), origins, _OVERRIDE_LABEL, prefix="")
    try:
        return Config.model_validate(merged)
    except ValidationError as exc:
        raise ConfigError(_issues(exc, merged, origins, file_label), source=file_label) from None


def _parse(text: str, label: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}", source=label) from None


def _nest(overrides: Mapping[str, Any]) -> dict[str, Any]:
    nested: dict[str, Any] = {}
    for key, value in overrides.items():
        if value is None:
            continue
        if isinstance(value, Mapping):
            value = _nest(value)
            if not value:
                continue
        *parents, leaf = str(key).split(".")
        table = nested
        for part in parents:
            table = table.setdefault(part, {})
        if isinstance(value, dict) and isinstance(table.get(leaf), dict):
            table[leaf].update(value)
        else:
            table[leaf] = value
    return nested


def _merge(base: dict[str, Any], update: Mapping[str, Any], origins: dict[str, str], label: str, *, prefix: str) -> None:
    """Merge ``update`` into ``base`` table by table, remembering where each key came from."""
    for key, value in update.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value, origins, label, prefix=f"{dotted}.")
        else:
            base[key] = value
            origins[dotted] = label


def _issues(exc: ValidationError, data: dict[str, Any], origins: dict[str, str], file_label: str) -> list[ConfigIssue]:
    issues: dict[str, ConfigIssue] = {}
    for error in exc.errors(include_url=False):
        parts, value = _input_path(error["loc"], data, missing=error["type"] == "missing")
        ctx = error.get("ctx") or {}
        if error["type"] == "config_rule":
            # A cross-field rule raised at the table names the key it blames.
            blamed, other = ctx["key"], ctx.get("also")
            if other and _dotted([*parts, blamed]) not in origins and _dotted([*parts, other]) in origins:
                # Two keys clash and the user set only `other`: blame it, name the default one.
                error["msg"] = error["msg"].replace(f".{other};", f".{blamed};")
                blamed = other
            parts = [*parts, blamed]
            value = ctx["value"]
        key = _dotted(parts)
        if key in issues:
            continue  # one message per key (a union reports once per branch)
        if error["type"] == "extra_forbidden":
            rule = f"unknown key; allowed in [{_dotted(parts[:-1]) or 'top level'}]: {_allowed_keys(parts[:-1])}"
        else:
            rule = error["msg"].removeprefix("Value error, ")
        source = origins.get(key) or _nearest_origin(key, origins) or file_label
        issues[key] = ConfigIssue(source, key, value, rule)
    return list(issues.values())


def _input_path(loc: tuple[Any, ...], data: Any, *, missing: bool) -> tuple[list[Any], Any]:
    """Keep the parts of a pydantic location that exist in the input (drop union branch tags)."""
    parts: list[Any] = []
    value = data
    for part in loc:
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, (list, tuple)) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]
        elif missing and isinstance(value, dict):
            return [*parts, part], _MISSING
        else:
            break
        parts.append(part)
    return parts, value


def _dotted(parts: list[Any]) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _nearest_origin(key: str, origins: dict[str, str]) -> str | None:
    # A cross-field problem blamed on a default key was caused by the file (or override)
    # that set a neighbour; name that source.
    table = key.rpartition(".")[0]
    for origin_key, label in origins.items():
        if origin_key.startswith(f"{table}."):
            return label
    return None


def _allowed_keys(table: list[Any]) -> str:
    model: type[BaseModel] = Config
    for part in table:
        annotation = model.model_fields[part].annotation
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return "(any)"
        model = annotation
    return ", ".join(model.model_fields)


def dump_config(config: Config) -> str:
    """The configuration as TOML text that :func:`load_config` reads back to an equal ``Config``."""
    return _dump_section(config, [])


def update_config(path: str | os.PathLike[str], overrides: Mapping[str, Any]) -> Config:
    """Set ``overrides`` in the config file at ``path`` (created when it does not exist yet),
    validated first, then replaced atomically: a crash or a bad value leaves the old file as it
    was. Returns the new configuration.

    Only the keys given change: the file's comments, order and other keys stay as the user wrote
    them, and a default the file does not set stays unset (a later release's default still reaches
    it)."""
    path = Path(path)
    load_config(path if path.exists() else None, overrides=overrides)  # a bad value is refused here
    document = tomlkit.parse(path.read_text(encoding="utf-8") if path.exists() else "")
    _set_in(document, _nest(overrides))
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as file:
            file.write(tomlkit.dumps(document))
            file.flush()
            os.fsync(file.fileno())  # the Pi may lose power right after: the new text is on disk first
        config = load_config(tmp)  # what is put in place is what reads back
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    os.replace(tmp, path)
    return config


def _set_in(table: Any, nested: Mapping[str, Any]) -> None:
    """Set each leaf of ``nested`` in a tomlkit ``table``, making the tables it needs."""
    for key, value in nested.items():
        if isinstance(value, Mapping):
            if key not in table:
                # A table holding only tables gets no header of its own: [vision.tower], not [vision].
                table[key] = tomlkit.table(is_super_table=all(isinstance(v, Mapping) for v in value.values()))
            _set_in(table[key], value)
        else:
            table[key] = value


def _dump_section(section: BaseModel, path: list[str]) -> str:
    fields = type(section).model_fields
    # An optional key left unset (None) is not written: absent reads back as unset.
    values = {name: getattr(section, name) for name, field in fields.items()
              if field.is_required() or getattr(section, name) is not None}
    lines = [f"[{'.'.join(path)}]"] if path else []
    lines += [f"{k} = {_toml_value(v)}" for k, v in values.items() if not isinstance(v, BaseModel)]
    text = "\n".join(lines) + "\n" if len(lines) > bool(path) else ""
    for name, sub in values.items():
        if isinstance(sub, BaseModel):
            text += ("\n" if text else "") + _dump_section(sub, [*path, name])
    return text


def _toml_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if 0x20 <= ord(c) != 0x7F else f"\\u{ord(c):04x}" for c in escaped) + '"'


def _toml_value(value: Any) -> str:
    if value is None:
        return "false"  # the only optional value is led_pin, where false means "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (str, os.PathLike)):
        return _toml_string(os.fspath(value))
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_string(str(k))} = {_toml_value(v)}" for k, v in value.items()) + "}"
    return _toml_string(str(value))
