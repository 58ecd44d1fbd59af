from rules.league_points import PointsTable, leaderboard


def test_points_table_from_season_json():
    table = PointsTable.from_json({"placements": {"1": 10, "2": 8}, "attendance": 1})
    assert table.points_for(1) == 11
    assert table.points_for(2) == 9
    assert table.points_for(40) == 1


def test_best_finishes_limit_and_shared_ranks():
    finishes = [("ann", 10), ("ann", 2), ("ann", 8), ("bob", 10), ("bob", 8), ("cy", 5)]
    rows = leaderboard(finishes, best=2)
    assert [(r.player, r.rank, r.points, r.events_played, r.events_counted) for r in rows] == [
        ("ann", 1, 18, 3, 2),
        ("bob", 1, 18, 2, 2),
        ("cy", 3, 5, 1, 1),
    ]
    assert leaderboard(finishes)[0].points == 20
