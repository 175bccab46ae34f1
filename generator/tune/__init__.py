"""`pnpkit tune`, one module per job: search a kit's declared tunable parameters until every balance tolerance
holds, then prove it.

A client of the check pipeline: a candidate kit is the original kit.yaml with some values changed; it must
validate and pass the game's legal checks, then the game's own `balance_report` judges it. The pipeline never
reaches into a game's kernels.

1. Search (optuna, TPE seeded by --seed): every trial plays the same seeded deals (common random numbers, so
   two candidates differ by their parameters, not by luck), a first batch of `tune.games` games per setting;
   a trial with a FAILING tolerance stops there (pruned: hopeless), the others play a second batch as large.
   Score: how far the point estimates lie outside their bounds (x 1000), plus the distance to the original kit
   (fewest changed parameters, then the smallest changes), or plus the distance to the targets.
   Several targets: one objective each (a multi-objective study).
2. Proof (`proof_order`): walking outward from the original (the nearer candidates first, for one integer
   parameter every value in between, then the `tune.candidates` nearest whose estimates held), or the best
   scores for a target, or the Pareto front for several, each is judged by the full sequential check
   (`balance.games` doubling to `balance.max_games`, family-wise `balance.confidence`) on seed streams the
   search never used; one that fails nothing but stays undecided gets the cap doubled up to
   `tune.proof_max_games`. The first whose every tolerance HOLDS on every stream wins.
3. The winner is written as `OUT/<kit>-tuned/` (the kit folder copied, kit.yaml edited in place with its
   comments kept and each changed value, a raised `balance.max_games` included, annotated with its old one),
   validated; the report beside it.

Modules: `plan` (what may change), `judge` (one candidate played and scored), `search` (optuna), `proof`
(the full check on fresh seeds), `edit` (the tuned kit.yaml), `report` (effects, importance, the report's
data), `run` (the command).
"""
