"""Points written by `check --refit` (game.memory_cards.points.refit) replace the generated points."""

from generator.games.raindrops.memory import generate_memory_cards
from tests.games.raindrops.test_components_spec import SPEC, make_spec


def test_refit_points_override_generated_points():
    base = generate_memory_cards(make_spec(), 1)
    mc = dict(SPEC["memory_cards"])
    mc["points"] = dict(mc["points"], refit={1: 9, 3: 1})
    refit = generate_memory_cards(make_spec(memory_cards=mc), 1)
    assert refit[0].points == 9 and refit[2].points == 1
    assert [c.points for c in refit[3:]] == [c.points for c in base[3:]]
    assert [c.pattern for c in refit] == [c.pattern for c in base]
