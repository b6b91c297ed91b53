"""Fold a long random valid Skull & Shackles campaign and print events per second (not a test; never fails a build).

    .venv/bin/python benchmarks/pacg_fold.py [--scenarios 200] [--seed 1] [--profile]

The campaign is generated (and checked) first; only the fold of the already-decoded events is timed, as a
projection rebuild would run it: `projections.game.fold` over `(event, meta)` pairs from campaign.started.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from events.campaign import CampaignStarted  # noqa: E402
from projections.game import Meta, fold  # noqa: E402
from projections.pacg import GAME  # noqa: E402
from tests.unit.pacg.campaigns import Campaign  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    events = Campaign(random.Random(args.seed)).play(args.scenarios)
    started = CampaignStarted(name="bench", game=GAME.id, options={})
    log = [(started, Meta(1))] + [(event, Meta(i + 2)) for i, event in enumerate(events)]
    print(f"{len(log)} events over {args.scenarios} scenarios (seed {args.seed})")

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        fold(GAME, log)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return

    # Wall time suffers when other work shares the machine; the process's CPU time much less so. Both are shown.
    best = best_cpu = float("inf")
    for _ in range(args.repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fold(GAME, log)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
        best = min(best, time.perf_counter() - start)
    print(
        f"best of {args.repeat}: {best:.3f} s wall, {len(log) / best:,.0f} events/s; "
        f"{best_cpu:.3f} s CPU, {len(log) / best_cpu:,.0f} events/s"
    )


if __name__ == "__main__":
    main()
