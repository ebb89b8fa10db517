"""The configuration schema: frozen pydantic models, one per TOML table.

The values of the defaults live only in ``default.toml`` (the single source of
truth, with its comments); these models say what is allowed. Cross-field rules
(two devices on one pin, a tonal buzzer on a pin without hardware PWM) raise a
``PydanticCustomError`` whose context names the offending key, so the loader can
report it as ``gpio.led_pin`` rather than just ``gpio``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

# Hardware PWM channels on a Raspberry Pi header (PWM0/PWM1 on two pins each).
HARDWARE_PWM_PINS = frozenset({12, 13, 18, 19})
# BCM numbers on the 40-pin header; GPIO0/1 carry the HAT ID EEPROM bus.
FIRST_USABLE_PIN, LAST_USABLE_PIN = 2, 27

PinFactoryKind = Literal["auto", "lgpio", "rpigpio", "mock"]
BuzzerKind = Literal["active", "passive"]
CameraSourceKind = Literal["auto", "picamera2", "usb", "folder", "synthetic", "none"]
Variant = Literal["tower", "dice"]

# Strict scalars: TOML is typed, so "17" for a pin or 1 for a flag is a mistake, not a
# value to coerce. Floats accept integers (TOML `seconds = 2` means 2.0).
Pin = Annotated[StrictInt, Field(ge=FIRST_USABLE_PIN, le=LAST_USABLE_PIN)]
Number = Annotated[float, Field(strict=True, allow_inf_nan=False)]
Byte = Annotated[StrictInt, Field(ge=0, le=255)]
Rgb = Annotated[list[Byte], Field(min_length=3, max_length=3)]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


def _rule_error(key: str, value: object, message: str, **context: object) -> PydanticCustomError:
    """A cross-field rule broken; ``key`` (within the table) is the one to blame."""
    return PydanticCustomError("config_rule", message, {"key": key, "value": value, **context})


class GpioConfig(_Section):
    pin_factory: PinFactoryKind
    button_pin: Pin
    buzzer_pin: Pin
    # TOML has no null: `false` (or "none") means "no status LED".
    led_pin: Pin | None
    buzzer_kind: BuzzerKind
    button_bounce_ms: Annotated[StrictInt, Field(ge=0, le=500)]
    long_press_seconds: Annotated[Number, Field(ge=0.5, le=10.0)]

    @field_validator("led_pin", mode="before")
    @classmethod
    def _led_may_be_disabled(cls, value: object) -> object:
        if value is False or value == "none":
            return None
        if value is True:
            raise ValueError("use a BCM pin number 2-27, or false for no LED")
        return value

    @model_validator(mode="after")
    def _pins_are_usable(self) -> GpioConfig:
        used: dict[int, str] = {}
        for key in ("button_pin", "buzzer_pin", "led_pin"):
            pin = getattr(self, key)
            if pin is None:
                continue
            if pin in used:
                # `also`: the loader blames whichever of the two keys the user actually set.
                raise _rule_error(
                    key, pin, f"GPIO{pin} is also gpio.{used[pin]}; each device needs its own pin",
                    also=used[pin],
                )
            used[pin] = key
        if (
            self.buzzer_kind == "passive"
            and self.pin_factory != "mock"
            and self.buzzer_pin not in HARDWARE_PWM_PINS
        ):
            raise _rule_error(
                "buzzer_pin", self.buzzer_pin,
                "a passive (tonal) buzzer needs PWM: use a hardware-PWM pin "
                f"({', '.join(map(str, sorted(HARDWARE_PWM_PINS)))}) or buzzer_kind = \"active\"",
            )
        if self.long_press_seconds * 1000 <= self.button_bounce_ms:
            raise _rule_error(
                "long_press_seconds", self.long_press_seconds,
                "must be longer than gpio.button_bounce_ms",
            )
        return self


class CountdownConfig(_Section):
    seconds: Annotated[StrictInt, Field(ge=1, le=60)]
    # A beep must end well inside its second.
    beep_ms: Annotated[StrictInt, Field(ge=10, le=500)]
    final_tone_ms: Annotated[StrictInt, Field(ge=50, le=3000)]
    beep_hz: Annotated[Number, Field(ge=100, le=5000)]
    final_hz: Annotated[Number, Field(ge=100, le=5000)]

    @model_validator(mode="after")
    def _final_tone_is_distinct(self) -> CountdownConfig:
        # An active buzzer has one pitch, so length is what makes the final tone distinct.
        if self.final_tone_ms <= self.beep_ms:
            raise _rule_error(
                "final_tone_ms", self.final_tone_ms,
                f"must be longer than countdown.beep_ms ({self.beep_ms}) so the final tone is distinct",
            )
        return self


class CameraConfig(_Section):
    source: CameraSourceKind
    index: Annotated[StrictInt, Field(ge=0, le=63)]
    path: StrictStr
    resolution: tuple[
        Annotated[StrictInt, Field(ge=16, le=4096)], Annotated[StrictInt, Field(ge=16, le=4096)]
    ]
    fps: Annotated[Number, Field(gt=0, le=120)]
    exposure_lock: StrictBool

    @field_validator("resolution", mode="before")
    @classmethod
    def _list_is_a_pair(cls, value: object) -> object:
        # TOML arrays arrive as lists; strict mode would refuse a list for a tuple.
        if isinstance(value, list):
            if len(value) != 2:
                raise ValueError("must be [width, height] in pixels")
            return tuple(value)
        return value

    @model_validator(mode="after")
    def _folder_needs_a_path(self) -> CameraConfig:
        if self.source == "folder" and not self.path:
            raise _rule_error("path", self.path, 'source = "folder" needs a path (a folder of images or a video file)')
        return self


class CamerasConfig(_Section):
    tower: CameraConfig
    arena: CameraConfig


class TowerVisionConfig(_Section):
    light_rgb: Rgb
    heavy_rgb: Rgb
    cube_mm: Annotated[Number, Field(gt=0, le=100)]
    marker_ids: Annotated[list[Annotated[StrictInt, Field(ge=0, le=1023)]], Field(min_length=2, max_length=2)]
    marker_mm: Annotated[Number, Field(gt=0, le=500)]
    marker_offset_mm: Annotated[Number, Field(ge=0, le=1000)]
    settle_seconds: Annotated[Number, Field(ge=0, le=30)]
    auto_confirm_confidence: Annotated[Number, Field(ge=0.5, le=1.0)]
    # Written by `knockdown calibrate tower`; absent (None) in a config never calibrated.
    tallest_tower_cubes: Annotated[StrictInt, Field(ge=1)] | None = Field(
        None,
        description="cubes a straight tower on the build spot may have before its top leaves the tower "
        "camera's picture (measured by `knockdown calibrate tower`); absent = not measured, no warning",
    )

    @field_validator("marker_ids")
    @classmethod
    def _markers_differ(cls, value: list[int]) -> list[int]:
        if len(set(value)) != len(value):
            raise ValueError("the two marker ids must differ")
        return value


_HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def _hex_colour(value: str) -> str:
    if not _HEX_COLOUR.fullmatch(value):
        raise ValueError('must be a colour "#rrggbb"')
    return value.lower()


class ArenaVisionConfig(_Section):
    base_colors: dict[Literal["0", "1"], Annotated[StrictStr, AfterValidator(_hex_colour)]]
    base_mm: Annotated[Number, Field(gt=0, le=200)]
    read_hz: Annotated[Number, Field(gt=0, le=30)]
    drift_tolerance_mm: Annotated[Number, Field(ge=0, le=200)]
    stable_frames: Annotated[StrictInt, Field(ge=1, le=100)]


class VisionConfig(_Section):
    tower: TowerVisionConfig
    arena: ArenaVisionConfig


class StoreConfig(_Section):
    data_dir: Path

    @field_validator("data_dir", mode="before")
    @classmethod
    def _expand_home(cls, value: object) -> object:
        if not isinstance(value, (str, Path)) or not str(value):
            raise ValueError("must be a non-empty path string")
        return Path(value).expanduser()


class HttpConfig(_Section):
    host: Annotated[StrictStr, Field(min_length=1)]
    port: Annotated[StrictInt, Field(ge=1, le=65535)]


class RefereeConfig(_Section):
    pin: StrictStr
    auto_confirm_seconds: Annotated[Number, Field(ge=0, le=60)]
    auto_confirm_fail: StrictBool

    @field_validator("pin", mode="before")
    @classmethod
    def _pin_is_a_digit_string(cls, value: object) -> object:
        if isinstance(value, int) and not isinstance(value, bool):
            raise ValueError('must be a quoted string (a number would lose leading zeros), e.g. pin = "0420"')
        if isinstance(value, str) and value and not re.fullmatch(r"[0-9]{4,8}", value):
            raise ValueError('must be 4-8 digits, or "" for the PIN kept in the data dir')
        return value


class MatchConfig(_Section):
    variant: Variant
    arena: Annotated[StrictStr, Field(pattern=r"^([a-z0-9][a-z0-9-]*)?$")]


class Config(_Section):
    gpio: GpioConfig
    countdown: CountdownConfig
    cameras: CamerasConfig
    vision: VisionConfig
    store: StoreConfig
    http: HttpConfig
    referee: RefereeConfig
    match: MatchConfig
