"""The bracket sheet's layout (`rules.topcut.bracket_layout`), without a database."""

from rules.topcut import BracketBox, bracket_layout


def test_a_top_8_before_its_first_round_is_paired_is_three_columns_of_open_boxes():
    columns = bracket_layout(4, [])

    assert [c.title for c in columns] == ["Top 8", "Top 4", "Final"]
    assert [len(c.boxes) for c in columns] == [4, 2, 1]
    assert all(box == BracketBox(None, None, None, None) for c in columns for box in c.boxes)


def test_played_boxes_sit_at_their_table_and_winners_move_into_the_open_boxes():
    first = {
        1: ("s1", "s8", "s1"),
        2: ("s4", "s5", "s5"),
        3: ("s2", "s7", None),
        4: ("s3", "s6", "s3"),
    }

    top8, top4, final = bracket_layout(4, [first])

    assert [b.table for b in top8.boxes] == [1, 2, 3, 4]
    assert top8.boxes[1] == BracketBox(table=2, a="s4", b="s5", winner="s5")
    # Box k of a column is fed by boxes 2k and 2k + 1 of the one before.
    assert top4.boxes == (
        BracketBox(table=None, a="s1", b="s5", winner=None),
        BracketBox(table=None, a=None, b="s3", winner=None),
    )
    assert final.boxes == (BracketBox(None, None, None, None),)
    assert [c.round_index for c in (top8, top4, final)] == [0, 1, 2]


def test_a_finished_top_4_has_its_champion_in_the_last_box():
    semis = {1: ("s1", "s4", "s1"), 2: ("s2", "s3", "s3")}
    final = {1: ("s1", "s3", "s3")}

    columns = bracket_layout(2, [semis, final])

    assert [c.title for c in columns] == ["Top 4", "Final"]
    assert columns[-1].boxes == (BracketBox(table=1, a="s1", b="s3", winner="s3"),)


def test_a_top_2_is_one_column_called_final():
    columns = bracket_layout(1, [{1: ("a", "b", None)}])
    assert [(c.title, len(c.boxes)) for c in columns] == [("Final", 1)]
