"""What many tower tests do with a rendered scene: judge it, or run the analyzer to its last,
still-coloured observation to look at one step of the judgment."""

import dataclasses

import numpy as np
import pytest

import vision.synth.tower_scene as tower_scene_module
from vision.synth.tower_scene import make_tower_scene
from vision.tower import judge_tower
from vision.tower.judge import TowerAnalyzer

# Seed 450020 of the accuracy bench (the fifteenth pass's ring, whose reference the sixteenth
# pass's painted tests reuse): a dim, very noisy room (7 x 7 average), pale paper behind.
DIM_ROOM_450020 = dict(frames=2, dim=True, nudge_px=2.01471832514156, exposure_drift=0.11910640890289613,
                       off_spot_mm=2.5855069392189804, distractors=0, noise=5.060273522128608, pile=False,
                       near=0.09460778390065128)

# Top_pair 790104 of the accuracy bench (the thirty-fifth pass's wrong fail on b80dbc8, which the
# thirty-sixth pass's tests reuse): 3 light cubes, off the spot by 10 mm, the spot printed in light
# wood's hue.
TOP_PAIR_790104 = dict(frames=5, dim=False, nudge_px=2.512710883968864, exposure_drift=0.07962972422885202,
                       off_spot_mm=10.10357350414984, distractors=3, noise=5.915261440431085, pile=False,
                       near=0.2326591557982849)


def judge_scene(scene):
    """The judge's verdict on a rendered scene, for the fighter's own cubes."""
    return judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)


def analyzer_and_last(scene, *, likeness: bool = False):
    """The analyzer over the scene's reference, and its final observation with the still frames'
    averaged colour, as ``judge_tower`` builds them; with ``likeness`` also with the faces before a
    background of their own colour read by their likeness to the tower's (the thirty-third pass's
    ``_with_camouflaged_faces``), as the judge reads a still scene's structure."""
    analyzer = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)
    observations = [analyzer.observe(frame) for frame in scene.frames[1:]]
    last = analyzer._with_still_colour(analyzer._final_observation(observations[-1]), observations)
    if likeness:
        last = analyzer._with_camouflaged_faces(last)
    return analyzer, last


def heavy_short_without(rule: str, analyzer, last, monkeypatch) -> bool:
    """Whether the view counts fewer heavy cubes than the fighter owns with the analyzer's cube-reading
    rule ``rule`` (a method that returns the cubes it reads) switched off: where the renderer gives
    a seeded scene that premise, a test can ask the rule to be what reads the cube."""
    with monkeypatch.context() as patched:
        patched.setattr(TowerAnalyzer, rule, lambda *args, **kwargs: [])
        boxes = analyzer._structure(last, last.view).boxes
    return sum(b.heavy for b in boxes) < analyzer.heavy


def structure_without_hue_rule(analyzer, last, monkeypatch):
    """The structure the view gives with the twenty-seventh pass's hue rule off (every cube-coloured
    pixel a new hue): where a seeded scene's renderer gives a rule's premise there, a test can ask
    the rule to be what doubts it."""
    with monkeypatch.context() as patched:
        patched.setattr(TowerAnalyzer, "_hue_changed", lambda self, obs, view: np.ones(obs.changed.shape, bool))
        return analyzer._structure(last, last.view)


def slit_verdicts(analyzer, last, monkeypatch) -> list[int]:
    """How the judge read each pair side by side it looked into (``_side_gap``), bottom layer first."""
    seen: list[int] = []
    look = TowerAnalyzer._side_gap

    def recording(self, obs, lo, hi, split, *, pair_width):
        seen.append(look(self, obs, lo, hi, split, pair_width=pair_width))
        return seen[-1]

    monkeypatch.setattr(TowerAnalyzer, "_side_gap", recording)
    analyzer._structure(last, last.view)
    return seen


class PaintedView:
    """The last frame's observation of ``scene`` with its cube masks emptied, to paint a structure
    on: ``paint`` marks a box (height ``z0``-``z1`` mm over the table, across ``x0``-``x1`` mm) in
    one of the masks ``light``, ``heavy`` or ``unread`` (changed in no cube colour) and colours it."""

    def __init__(self, analyzer, scene):
        self.obs = analyzer.observe(scene.frames[-1])
        self.light, self.heavy, self.unread = (np.zeros_like(self.obs.light) for _ in range(3))
        self.colour = self.obs.colour.copy()

    def paint(self, mask, z0, z1, x0, x1, rgb):
        view = self.obs.view
        place = slice(view.row(z1), view.row(z0)), slice(view.col(x0), view.col(x1))
        mask[place] = True
        self.colour[place] = rgb

    def observation(self, *, still: bool = True):
        """The painted observation: every painted box changed; the colours averaged over still
        frames too, or (not ``still``) no averaged colour, as when the frames were not still."""
        return dataclasses.replace(self.obs, light=self.light, heavy=self.heavy,
                                   changed=self.light | self.heavy | self.unread, colour=self.colour,
                                   still_colour=self.colour if still else None)


def missing_with_cube_on_top(seed, counts, *, on_top=None, yaw=None):
    """The `missing` scene of ``seed`` with ``counts`` (heavy, light, options); with ``on_top`` the
    missing light cube is built on top of the tower (the fighter's counts unchanged: a legal tower),
    in that RGB, or of the colour ``on_top(colours)`` gives from the box's (light, heavy) wood, turned
    to ``yaw`` degrees if given, else as the top cube.  The cube is added after the tower's wood is
    drawn, so the room, the light and the clutter are the seed's.  Returns (scene, the tower's cubes)."""
    heavy, light, options = counts
    real_wood = tower_scene_module._real_wood
    drawn = []

    def with_cube_on_top(cubes, rng, colours, spread):
        cubes = real_wood(cubes, rng, colours, spread)
        drawn.append(cubes)
        if on_top is None or len(drawn) > 1:
            return cubes
        top = max(cubes, key=lambda c: c.centre[2])
        rgb = on_top(colours) if callable(on_top) else on_top
        centre = (top.centre[0], top.centre[1], top.centre[2] + tower_scene_module.CUBE_MM)
        return cubes + [dataclasses.replace(top, centre=centre, heavy=False, rgb=rgb,
                                            yaw_deg=top.yaw_deg if yaw is None else yaw)]

    patched = pytest.MonkeyPatch()
    patched.setattr(tower_scene_module, "_real_wood", with_cube_on_top)
    try:
        scene = make_tower_scene("missing", seed=seed, heavy=heavy, light=light, **options)
    finally:
        patched.undo()
    return scene, drawn[0]


def tower_camera_config(directory, picture=None, *, more: str = ""):
    """A config file whose tower camera is a folder with one picture -- by default a calibration shot
    (the build mat, one light and one heavy cube on the build spot) -- read through the service's own
    camera seam (``open_camera``: source "folder", looped) and no arena camera; ``more`` is appended
    TOML. Returns (config path, the picture)."""
    import cv2

    from vision.synth.tower_scene import make_calibration_shot

    if picture is None:
        picture, _ = make_calibration_shot(seed=2, light_rgb=(235, 200, 150), heavy_rgb=(90, 35, 30))
    folder = directory / "tower-camera"
    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / "shot.png"), picture)
    config = directory / "knockdown.toml"
    config.write_text(f'[cameras.tower]\nsource = "folder"\npath = "{folder}"\nfps = 120\n\n'
                      f'[cameras.arena]\nsource = "none"\n\n[http]\nport = 9000\n{more}', encoding="utf-8")
    return config, picture
