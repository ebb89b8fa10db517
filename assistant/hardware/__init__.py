"""GPIO and camera adapters, one module per device family (gpiozero style).

* :mod:`~assistant.hardware.pins`      -- pin factories (real or mock) and what they are;
* :mod:`~assistant.hardware.buzzer`    -- :class:`Beeper` (active or passive buzzer);
* :mod:`~assistant.hardware.button`    -- :class:`RefereeButton` (debounce, long press);
* :mod:`~assistant.hardware.led`       -- :class:`StatusLed`;
* :mod:`~assistant.hardware.countdown` -- :class:`Countdown` (beeps on absolute deadlines);
* :mod:`~assistant.hardware.board`     -- :class:`RefereeBoard`, all of them from a config;
* :mod:`~assistant.hardware.cameras`   -- camera sources from a config.
"""
