"""Knockdown Referee: the table-side service.

Layers, from the ground up (imports point down only):

* ``assistant.rules``   -- the pure rules tracker (no I/O, no clock, no randomness);
* ``assistant.boxes``   -- the box data (cards, fighters, arenas) and its loader;
* ``assistant.store``, ``assistant.hardware``, ``vision`` -- adapters;
* ``assistant.knockdown`` -- the Knockdown Test flow;
* ``assistant.service`` -- the one process that owns them all;
* ``assistant.web`` and ``assistant.cli`` -- on top.
"""

__version__ = "0.1.0"
