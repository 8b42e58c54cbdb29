"""The `sprouts-ray` command (also `python -m sprouts_ray`)."""

import argparse
import json
import sys

import sprouts

from .driver import Driver
from .executors import LocalExecutor, RayExecutor


def parser():
    p = argparse.ArgumentParser(
        prog="sprouts-ray",
        description="Solve Sprouts positions (normal play) on a Ray cluster or on local threads.",
    )
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("solve", help="the outcome of each position for the player to move")
    s.add_argument("positions", nargs="+", help="positions in GLOP notation, e.g. 0*16")
    where = s.add_mutually_exclusive_group()
    where.add_argument("--address", help="the Ray cluster (HOST:PORT, or auto); without it and "
                       "without --local, a Ray instance is started on this machine")
    where.add_argument("--local", type=int, metavar="WORKERS",
                       help="no Ray: run the jobs on this many threads of this process")
    s.add_argument("--db", help="the database file: read first if it exists, written as facts "
                   "arrive (a stopped run goes on from it)")
    s.add_argument("--budget", type=int, default=200_000,
                   help="nodes a job may expand before it gives its leaf back (default 200000)")
    s.add_argument("--slots", type=int, help="jobs run at once (default: the cluster's CPUs "
                   "divided by --threads)")
    s.add_argument("--threads", type=int, default=1, help="solver threads in each job")
    s.add_argument("--share-seconds", type=float, default=10.0,
                   help="the longest wait before new facts are saved and shared with new jobs; "
                   "they are shared sooner while sharing takes at most 5%% of the time "
                   "(default 10)")
    s.add_argument("--json", action="store_true", help="one JSON object per position")
    s.add_argument("--trace", help="append one JSON line per finished job to this file")
    s.add_argument("-v", "--verbose", action="store_true", help="say each job on stderr")
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    if args.budget < 1 or args.threads < 1 or (args.slots is not None and args.slots < 1):
        print("error: --budget, --threads and --slots must be at least 1", file=sys.stderr)
        return 2
    if not args.share_seconds >= 0:
        print("error: --share-seconds must be a number of seconds, 0 or more", file=sys.stderr)
        return 2
    positions = []
    for text in args.positions:
        try:
            positions.append((text, sprouts.Position(text)))
        except sprouts.NotationError as e:
            print(f"error: cannot read the position {text!r}: {e}", file=sys.stderr)
            return 2
    if args.local is not None:
        if args.local < 1:
            print("error: --local needs at least 1 worker", file=sys.stderr)
            return 2
        executor = LocalExecutor(workers=args.local, threads=args.threads)
    else:
        executor = RayExecutor(address=args.address, slots=args.slots, threads=args.threads)
    trace = open(args.trace, "a") if args.trace else None
    try:
        for text, pos in positions:
            driver = Driver(executor, db=args.db, budget=args.budget,
                            share_seconds=args.share_seconds, trace=trace,
                            log=sys.stderr if args.verbose else None)
            verdict = driver.solve(pos)
            if args.json:
                print(json.dumps({"position": text, **driver.stats}))
            else:
                print(f"{text} {verdict}")
            sys.stdout.flush()
    finally:
        if trace is not None:
            trace.close()
        executor.close()
    return 0
