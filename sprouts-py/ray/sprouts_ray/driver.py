"""The driver: keeps the top of the proof tree, sends its leaves as jobs, merges what they prove.

Every job is a couple (a sum of lands beside a heap) searched by the Rust solver with a node
budget on a fresh solver loaded from the driver's database image; it returns its verdict (or
none, when the budget ran out) and the facts it proved beyond that image. The driver merges those
facts into its own solver (the one database; a contradiction stops the run), saves the database
to its file, and shares a new image with the jobs sent after it, so that a land one worker
proved is known to all. A job whose worker dies is sent again by the executor; its facts reach
the database only when it finishes, so nothing is lost and nothing is counted twice.
"""

import json
import os
import time

import sprouts

from .tree import Tree, normalize

# Sharing the database waits until the time since the last share is at least this many times
# what that share cost (so sharing takes at most about 5% of the driver's time).
SHARE_COST_RATIO = 20


def save_atomically(solver, path):
    """Writes the solver's database to `path` through a temporary file, so that a run stopped
    while saving leaves the previous database whole."""
    tmp = f"{path}.tmp"
    solver.save(tmp)
    os.replace(tmp, path)


class Driver:
    """Solves one position with the jobs an executor runs.

    `executor` has `slots` (jobs run at once), `share(image)` (the database image for the next
    jobs), `submit(text, heap, budget)` returning a handle, and `wait(handles)` returning one
    finished `(handle, result)`, where `result` is a dict with `verdict`, `nodes`, `facts`, `pid`
    and `seconds`.
    """

    def __init__(self, executor, db=None, budget=200_000, share_seconds=10.0, trace=None,
                 log=None):
        self.executor = executor
        self.db = db
        self.budget = budget
        self.share_seconds = share_seconds
        self.trace = trace
        self.log = log
        self.solver = sprouts.Solver(threads=1)
        self.loaded = 0
        if db is not None and os.path.exists(db):
            self.loaded = self.solver.load(db)[0]
        self.stats = {"submitted": 0, "jobs": 0, "cancelled": 0, "decided": 0, "job_nodes": 0,
                      "expanded": 0, "merged": 0, "shares": 0}

    def _reduced(self, node):
        """The node's sum with the nimbers the database knows now folded into its heap."""
        return normalize(node.lands, node.heap, self._known)

    def _probe(self, node):
        """A node's verdict from the database as it stands (a lookup, no search), or `None`."""
        lands, heap = self._reduced(node)
        if not lands:
            return "W" if heap else "L"
        if len(lands) == 1:
            return self.solver.known_couple(lands[0], heap)
        return None

    def _known(self, land):
        return self.solver.known_nimber(land)

    def _say(self, text):
        if self.log is not None:
            print(text, file=self.log, flush=True)

    def solve(self, position):
        """`"W"` or `"L"` for the player to move in `position` (text or `sprouts.Position`)."""
        start = time.monotonic()
        pos = position if isinstance(position, sprouts.Position) else sprouts.Position(position)
        # The root is a sum of lands beside an empty heap; its normal-play outcome is the
        # outcome of that couple.
        root_key = normalize(tuple(pos.lands()), 0, self._known)
        tree = Tree(root_key, self._known, self._probe)
        # The root is expanded here, so the first jobs are its children, as many as there are
        # workers to run them.
        tree.expand(tree.root)
        shared_at, share_cost = self._share()
        unshared = False
        inflight = {}
        while not tree.root.proved:
            while len(inflight) < self.executor.slots and not tree.root.proved:
                leaf = tree.select()
                if leaf is None:
                    break
                # Facts merged since the leaf was made may decide it, or shrink its sum.
                verdict = self._probe(leaf)
                if verdict is not None:
                    tree.settle(leaf, verdict)
                    continue
                lands, heap = self._reduced(leaf)
                leaf.busy = True
                handle = self.executor.submit("+".join(lands), heap, self.budget)
                inflight[handle] = leaf
                self.stats["submitted"] += 1
            if tree.root.proved:
                break
            if not inflight:
                raise RuntimeError("no leaf to search and no job running: the tree is stuck")
            handle, result = self.executor.wait(list(inflight))
            leaf = inflight.pop(handle)
            leaf.busy = False
            unshared |= self._merge(result) > 0
            self._record(leaf, result)
            if result["verdict"] is not None:
                tree.settle(leaf, result["verdict"])
                self.stats["decided"] += 1
            else:
                tree.expand(leaf)
                self.stats["expanded"] += 1
            # New facts are shared as soon as sharing costs at most a twentieth of the time
            # since the last share, and at the latest after `share_seconds`: a job sent with an
            # old image proves again what the jobs before it proved.
            since = time.monotonic() - shared_at
            if unshared and since >= min(self.share_seconds, SHARE_COST_RATIO * share_cost):
                shared_at, share_cost = self._share()
                unshared = False
        for handle in inflight:
            self.executor.cancel(handle)
            self.stats["cancelled"] += 1
        verdict = tree.root.verdict
        # The root's own fact goes into the database too: with its children's facts merged, the
        # driver's solver proves it quickly (the tree's verdict stands whether it does or not).
        self.solver.couple(pos, 0, nodes=10_000)
        self._save()
        self.stats.update(
            outcome=verdict,
            tree_nodes=len(tree.nodes),
            seconds=round(time.monotonic() - start, 3),
            database_lands=len(self.solver),
            loaded=self.loaded,
        )
        return verdict

    def _merge(self, result):
        """Merges a job's facts into the database; returns how many entries the job sent (the
        facts it proved beyond its image)."""
        if not result["facts"]:
            return 0
        entries, new_lands = self.solver.load_bytes(result["facts"])
        self.stats["merged"] += new_lands
        return entries

    def _share(self):
        """Saves the database and shares its image with the next jobs; returns when the share
        ended and the seconds it took."""
        start = time.monotonic()
        self._save()
        self.executor.share(self.solver.to_bytes())
        self.stats["shares"] += 1
        end = time.monotonic()
        return end, end - start

    def _save(self):
        if self.db is not None:
            save_atomically(self.solver, self.db)

    def _record(self, leaf, result):
        self.stats["jobs"] += 1
        self.stats["job_nodes"] += result["nodes"]
        line = {
            "position": leaf.text(),
            "heap": leaf.heap,
            "verdict": result["verdict"],
            "nodes": result["nodes"],
            "pid": result["pid"],
            "seconds": round(result["seconds"], 4),
        }
        if self.trace is not None:
            self.trace.write(json.dumps(line) + "\n")
            self.trace.flush()
        self._say(f"job {self.stats['jobs']}: {line['position']} +*{line['heap']} -> "
                  f"{line['verdict'] or '?'} ({line['nodes']} nodes, pid {line['pid']})")
