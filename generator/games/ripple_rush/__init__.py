"""Ripple Rush: flip-and-write, 1-5 players; reference rules, policies, compiled self-play, balance and
generated sheet variants, all driven by the kit spec (`generator.games.ripple_rush.spec.RippleRushGame`). This
package holds only its plugin record."""

from generator.contract.plugin import GamePlugin

GAME = GamePlugin(
    id="ripple_rush",
    name="Ripple Rush",
    compile_seconds=5,  # bench/bench_compile.py: the compile's wall time, 2 cores
    ruleset="1.1",
    package=__name__,
    spec=".spec:RippleRushGame",
    print_data=".figures:print_data",
    tunables=".tunables:TUNABLES",
    slots=".layout:SLOTS",
)

__all__ = ["GAME"]
