"""Causes of wrong or uncertain verdicts found on fresh seed ranges of the accuracy bench, each
rebuilt from the generator with the bench's options for that seed."""

from vision.tower import Reason, Verdict, judge_tower
from vision.tower.judge import TowerAnalyzer
from tower_judging import judge_scene


def test_a_shaded_top_cube_against_a_table_of_its_own_hue_is_not_counted_missing(tower_scene):
    # Light from behind the mat shades the top light cube's front face, which shows against a
    # grey-beige table past the mat: it looks exactly like a shadow on that table (darker by one
    # factor in every channel), so it shows no change.  It may be there: uncertain, never fail.
    scene = tower_scene("stand", 60005, heavy=1, light=3, frames=2, nudge_px=3.48, exposure_drift=0.03,
                        off_spot_mm=7.78, distractors=3, noise=1.16, near=0.3)
    assert judge_scene(scene).verdict is not Verdict.FAIL


DIM_NOISY_ROOM = dict(heavy=4, light=5, frames=4, dim=True, nudge_px=3.08, exposure_drift=0.17, off_spot_mm=5.73,
                      distractors=8, noise=4.79, near=0.17)


def _moving(scene) -> bool:
    analyzer = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)
    return analyzer.moving([analyzer.observe(f) for f in scene.frames[1:]])


def test_sensor_noise_in_a_dim_room_is_no_motion_but_a_fall_still_is(tower_scene):
    assert not _moving(tower_scene("stand", 60000, **DIM_NOISY_ROOM))
    assert _moving(tower_scene("falling", 60000, **DIM_NOISY_ROOM))


def test_a_turned_base_split_into_two_narrow_faces_in_a_dim_room_is_not_two_cubes_on_the_table(tower_scene):
    # The base of a top pair, turned ~40 degrees, shows two faces; in a dim room the colours miss
    # its nearest edge and leave two pieces 0.6 of a cube wide.  Two whole cubes would each show a
    # whole face: unsure, so no fail on two ground contacts.
    scene = tower_scene("top_pair", 70028, heavy=0, light=3, frames=3, dim=True, nudge_px=0.9331862959847101,
                        exposure_drift=0.1493419883358255, off_spot_mm=2.304386021292059, distractors=6,
                        noise=5.121421589744978, near=0.4362561701740357)
    assert judge_scene(scene).verdict is not Verdict.FAIL


def test_a_fork_whose_pair_seems_held_only_from_the_side_is_not_passed(tower_scene):
    # One cube of the fork's pair overlaps the cube carrying it less than the view can vouch for,
    # so it seems to touch only its partner: no cube is held from the side, so it rests on the
    # carrier (a third contact).  Not a side contact the benefit of the doubt may cover.
    scene = tower_scene("fork", 90019, heavy=3, light=4, frames=5, nudge_px=1.7892608327476949,
                        exposure_drift=0.029004570083017024, off_spot_mm=10.214352788853539, distractors=5,
                        noise=1.1970717813538503, near=0.5109095309097561)
    assert judge_scene(scene).verdict is not Verdict.PASS


def test_a_blob_narrower_than_any_cube_face_beside_the_tower_is_no_sure_ground_contact(tower_scene):
    # A leaning tower in a dim room: beside it a blob of cube colour 5 mm wide and 16 mm tall,
    # narrower than any face a cube on the table shows.  It was counted as a second cube on the
    # table (a fail at 0.92); it may be a mostly hidden cube or none at all.
    scene = tower_scene("lean", 110011, heavy=4, light=4, frames=2, dim=True, nudge_px=3.53, exposure_drift=0.042,
                        off_spot_mm=3.81, distractors=4, noise=5.92, pile=False, near=0.436)
    assert judge_scene(scene).verdict is not Verdict.FAIL


TALL_TOWER_IN_A_DIM_ROOM = dict(heavy=2, light=2, frames=6, dim=True, nudge_px=1.51, exposure_drift=0.054,
                                off_spot_mm=11.42, distractors=3, noise=4.24, pile=False, near=0.596)


def test_a_top_face_against_a_dark_table_is_not_one_more_cube(tower_scene):
    # A far, high camera in a dim room: the top light cube's lit top face shows against the dark
    # table past the mat, reaching past where the next layer's band starts, and was read as a
    # fifth, thin cube (a wrong fail on cube_count at 0.85).  The top of that layer, where a cube's
    # front face would show, is unchanged background: no cube there.
    scene = tower_scene("stand", 50027, **TALL_TOWER_IN_A_DIM_ROOM)
    verdict = judge_scene(scene)
    assert verdict.verdict is not Verdict.FAIL
    assert verdict.heavy_seen + verdict.light_seen == 4


def test_a_real_cube_on_top_of_that_tower_still_counts(tower_scene):
    # The same room and camera with one cube more on the tower than the fighter owns: still a fail.
    scene = tower_scene("stand", 50027, **dict(TALL_TOWER_IN_A_DIM_ROOM, light=3))
    verdict = judge_tower(scene.frames, heavy=2, light=2)
    assert verdict.verdict is Verdict.FAIL
    assert Reason.CUBE_COUNT in verdict.reasons


def test_an_arm_joined_to_a_piece_of_its_colour_behind_it_is_no_sure_third_neighbour(tower_scene):
    # A legal ring before a red piece behind the spot: a heavy arm took in part of the piece
    # (1.5 cube widths wide) and seemed to rest on both arms below it (a fail at 0.85 on
    # cube_neighbours).  Where a wide cube stands partly in front of cube colour, which cube
    # rests on which is unsure.
    scene = tower_scene("ring", 130000, heavy=4, light=2, frames=4, nudge_px=3.21, exposure_drift=0.056,
                        off_spot_mm=10.714, distractors=9, noise=5.382, pile=False, near=0.427)
    assert judge_scene(scene).verdict is not Verdict.FAIL


def test_a_cap_the_colours_miss_in_a_dim_room_is_not_counted_missing(tower_scene):
    # A dim room: the ring's heavy cap against a dark table shows as change but hardly as heavy
    # colour, and the count came out one heavy short (a fail at 0.85).  Where a cube is missing
    # and the place on top of the tower changed, it may stand there.
    scene = tower_scene("ring", 130015, heavy=3, light=5, frames=4, dim=True, nudge_px=1.082275547820764,
                        exposure_drift=0.0748770523149513, off_spot_mm=3.398419946082202, distractors=7,
                        noise=4.643695756382339, pile=False, near=0.5418984500440046)
    assert judge_scene(scene).verdict is not Verdict.FAIL


def test_a_dark_arm_the_colours_miss_under_an_overhang_is_not_counted_missing(tower_scene):
    # A dim room: one arm of a ring is a heavy cube nearly black against the dark table; it shows
    # as change but not as heavy colour, and the count came out one heavy short (a fail at 0.85,
    # seed 150020, unseen before).  With a cube missing from the count, an overhang over change
    # the colours cannot read may rest on it.
    scene = tower_scene("ring", 150020, heavy=1, light=5, frames=6, dim=True, nudge_px=2.835747268796888,
                        exposure_drift=0.05660100927742982, off_spot_mm=9.110942634011538, distractors=1,
                        noise=4.854030721292094, pile=False, near=0.5243500122125605)
    assert judge_scene(scene).verdict is not Verdict.FAIL
