"""The fifty-sixth pass's A/B read: each scene read once with `main`'s covered-marker rule and, where
that raised "the change at ... runs up to marker N", again with this branch's (the only reads the
branch can change: it drops that doubt and nothing else). The first reading is `main`'s: the reader is
the same but for ``reader._covered_marker_reached``, put back to the thirty-fourth pass's
``hiding.reaches_covered_marker``.

Run from the repository root (PYTHONPATH=$PWD):
  python bench/arena_covered_marker_ab.py accuracy --start S --count N [--fighters] [--touching-tokens]
  python bench/arena_covered_marker_ab.py hands --start S --count N   (spec scenes with marker 10 or 11
      always under a hand, every third on a board near the hand's colour)
  python bench/arena_covered_marker_ab.py corner                      (arena_corner_sweep, S1 S2 S8 S9)
  python bench/arena_covered_marker_ab.py stacked --set X [--fighters] (arena_stacked_tokens)
``corner`` and ``stacked`` read only scenes where a plain marker search misses a marker (the rule
cannot apply with all four found) and say how many they skipped. One process, no pool.
"""
import sys, argparse, collections, importlib
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parents[1])); sys.path.insert(0, str(Path(__file__).resolve().parent))
from vision.arena import load_geometry, read_arena, reader
from vision.arena.hiding import reaches_covered_marker
from vision.synth.arena_scene import random_match_scene, render_scene
G = load_geometry(Path(__file__).resolve().parents[1] / 'assistant' / 'boxes' / 'data' / 'arenas' / 'line-9.toml')
NEW = reader._covered_marker_reached
def OLD(base, region, view, geometry, markers_found, camera):
    return reaches_covered_marker(region, view, geometry, markers_found, camera)
def verdict(r, truth):
    if r.ok: return 'right' if r.occupied == truth else 'WRONG'
    return 'markers' if len(r.markers_found) < 3 else 'doubt'
from vision.arena.registration import register
PREPARED = {}
SKIPPED = [0]
def both(live_img, ref_img, truth, count, key=None, prefilter=False):
    if prefilter and len(register(live_img, G).markers_found) == len(G.markers):
        SKIPPED[0] += 1
        return None
    if key is None or key not in PREPARED:
        prep = reader.prepare_reference(ref_img() if callable(ref_img) else ref_img, G)
        if key is not None:
            PREPARED[key] = prep
    prep = PREPARED[key] if key is not None else prep
    reader._covered_marker_reached = OLD
    old = read_arena(live_img, prep, G, annotate=False, fighters=count)
    reader._covered_marker_reached = NEW
    new = read_arena(live_img, prep, G, annotate=False, fighters=count) if old.error and 'runs up to marker' in old.error else old
    return verdict(old, truth), verdict(new, truth), old, new
ap = argparse.ArgumentParser()
ap.add_argument('what'); ap.add_argument('--start', type=int); ap.add_argument('--count', type=int)
ap.add_argument('--fighters', action='store_true'); ap.add_argument('--touching-tokens', action='store_true')
ap.add_argument('--set', default='all'); ap.add_argument('--kind', default='all')
a = ap.parse_args()
results = []
if a.what == 'accuracy':
    for seed in range(a.start, a.start + a.count):
        ref, live, truth = random_match_scene(np.random.default_rng(seed), G, touching_tokens=a.touching_tokens)
        results.append((seed, truth) + both(render_scene(live, G), render_scene(ref, G), truth, len(live.miniatures) if a.fighters else None))
elif a.what == 'hands':
    import dataclasses
    for seed in range(a.start, a.start + a.count):
        rng = np.random.default_rng(seed)
        ref, live, truth = random_match_scene(rng, G)
        marker = (10, 11)[seed % 2]
        board = live.board_bgr
        if seed % 3 == 0:  # a board close to the hand's colour (the hand is (120, 150, 205))
            board = tuple(int(np.clip(v + d, 0, 255)) for v, d in zip((120, 150, 205), rng.integers(-30, 31, 3)))
            space = tuple(int(np.clip(v * 0.9, 0, 255)) for v in board)
            ref = dataclasses.replace(ref, board_bgr=board, space_bgr=space)
            live = dataclasses.replace(live, board_bgr=board, space_bgr=space)
        live = dataclasses.replace(live, hidden_markers=(marker,))
        results.append((seed, truth) + both(render_scene(live, G), render_scene(ref, G), truth, len(live.miniatures) if a.fighters else None))
elif a.what == 'corner':
    cs = importlib.import_module('arena_corner_sweep')
    for job in cs.jobs(a.kind):
        if job[1][2] not in ('S1', 'S2', 'S8', 'S9'):
            continue  # (a fighter on S3-S7 cannot change the view up to a corner marker's square)
        live, ref, truth = cs.build(job)
        out = both(render_scene(live, G), lambda: render_scene(ref, G), truth, len(live.miniatures) if a.fighters else None, key=ref, prefilter=True)
        if out is not None:
            results.append(((job[0],) + tuple(job[1]), truth) + out)
elif a.what == 'stacked':
    st = importlib.import_module('arena_stacked_tokens')
    for job in st.jobs(a.set):
        kind, label, pose, minis, tokens, truth = job
        if truth is None:
            truth = tuple(sorted({G.space_at(m.x_mm, m.y_mm) for m in minis} - {None}))
        ref = st._scene(pose, seed=99)
        out = both(render_scene(st._scene(pose, minis, tokens), G), lambda: render_scene(ref, G), truth, len(minis) if a.fighters else None, key=ref, prefilter=True)
        if out is not None:
            results.append(((kind,) + tuple(label), truth) + out)
print('skipped (all four markers found by a plain search: the rule cannot apply):', SKIPPED[0])
for name, i in (('main', 2), ('branch', 3)):
    c = collections.Counter(r[i] for r in results)
    print(f"{name}: {len(results)} scenes: right {c['right']} / WRONG {c['WRONG']} / doubts {c['doubt']} / <3 markers {c['markers']}")
for r in results:
    if r[2] != r[3]:
        print('changed', r[0], 'truth', r[1], r[2], '->', r[3], r[5].occupied, r[5].error)
    if r[3] == 'WRONG':
        print('WRONG(branch)', r[0], r[1], r[5].occupied)
