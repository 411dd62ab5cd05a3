"""The recognition overlay: a courtyard's warning stays readable beside the courtyard's value."""

import numpy as np

from tablesight.vision.castellan.annotate import _beside_labels


def test_a_warning_on_a_courtyard_label_moves_below_it():
    label = np.array([400.0, 300.0])
    moved = _beside_labels(np.array([405.0, 296.0]), [label], scale=1)
    assert moved[1] >= label[1] + 16  # below the text, which runs up from its origin
    assert moved[0] == 405.0


def test_a_warning_away_from_every_label_stays_where_it_is():
    where = np.array([100.0, 100.0])
    assert np.array_equal(_beside_labels(where, [np.array([400.0, 300.0])], scale=1), where)


def test_labels_are_measured_at_the_overlays_scale():
    label = np.array([1000.0, 1000.0])
    near_at_scale_3 = np.array([1090.0, 1000.0])  # 90 px right: inside a scale-3 label, outside a scale-1 one
    assert _beside_labels(near_at_scale_3, [label], scale=3)[1] > 1000.0
    assert _beside_labels(near_at_scale_3, [label], scale=1)[1] == 1000.0
