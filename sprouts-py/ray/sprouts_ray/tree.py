"""The top of the proof tree, kept by the driver: a proof-number search over sums of lands.

A node is a sum `L1 + L2 + ... + *k` (canonical lands beside a nim heap), written as its key: the
sorted tuple of the lands whose nimbers are not known and the heap. Lands whose nimbers the
database knows are folded into the heap (XOR), and two equal lands cancel (`G + G` has nimber 0),
so equal sums meet in one node and the tree is a directed acyclic graph: every move uses up a
life or lowers the heap.

Proof and disproof numbers are in negamax form, as the Rust solver's: the proof number of a node
is how many leaves must at least be decided to show the player to move wins, the disproof number
how many to show they lose. A node wins when one child loses (its proof number is the least
disproof number of its children) and loses when every child wins (its disproof number is the sum
of their proof numbers).

Leaves are not searched here: each is a job for a worker (the Rust solver with a node budget).
A job that decides its leaf proves it; a job that runs out of budget makes the driver expand the
leaf, whose children become new leaves. Several jobs run at once: the leaves sent out are marked
busy, and the next leaf is the most-proving one that is not busy (a pseudo most-proving node, as
in the PNS-PDFPN of T. Čížek, M. Balko, M. Schmid, "Massively Parallel Proof-Number Search for
Impartial Games and Beyond", arXiv:2511.10339, 2025).
"""

import sprouts

INF = 1 << 60
WIN = (0, INF)
LOSS = (INF, 0)


def add(a, b):
    """The sum of two proof numbers, infinite when either is."""
    return INF if a >= INF or b >= INF else min(a + b, INF - 1)


class Node:
    """One sum in the tree, with its numbers, children and parents."""

    __slots__ = ("key", "pn", "dn", "children", "parents", "busy")

    def __init__(self, key):
        self.key = key
        self.pn = 1
        self.dn = 1
        self.children = None  # None: a leaf, not expanded
        self.parents = []
        self.busy = False

    @property
    def lands(self):
        return self.key[0]

    @property
    def heap(self):
        return self.key[1]

    @property
    def proved(self):
        return self.pn == 0 or self.dn == 0

    @property
    def verdict(self):
        """`"W"`, `"L"` or `None`, for the player to move."""
        if self.pn == 0:
            return "W"
        if self.dn == 0:
            return "L"
        return None

    def text(self):
        """The lands as one position in GLOP notation (`!` when none is left)."""
        return "+".join(self.lands) if self.lands else "!"


def normalize(lands, heap, known_nimber):
    """The key of the sum `lands + *heap`: known nimbers folded into the heap, pairs of equal
    lands cancelled, the rest sorted."""
    odd = {}
    for land in lands:
        n = known_nimber(land)
        if n is not None:
            heap ^= n
        else:
            odd[land] = not odd.get(land, False)
    return tuple(sorted(land for land, keep in odd.items() if keep)), heap


def child_keys(key, known_nimber):
    """The keys of the sums one move from `key`: a move in one land, or a smaller heap."""
    lands, heap = key
    out = []
    seen = set()

    def push(k):
        if k not in seen:
            seen.add(k)
            out.append(k)

    for i, land in enumerate(lands):
        rest = lands[:i] + lands[i + 1 :]
        for child in sprouts.Position(land).children():
            push(normalize(rest + tuple(sprouts.Position(child).lands()), heap, known_nimber))
    for j in range(heap):
        push(normalize(lands, j, known_nimber))
    return out


class Tree:
    """The driver's proof tree. `probe(node)` answers a new node from the database when it can
    (`"W"`, `"L"` or `None`); `known_nimber(land)` is what the database knows of a land."""

    def __init__(self, root_key, known_nimber, probe):
        self.known_nimber = known_nimber
        self.probe = probe
        self.nodes = {}
        self.root = self.node(root_key)

    def node(self, key):
        """The node of `key`, made (and answered from the database if it can be) if new."""
        node = self.nodes.get(key)
        if node is None:
            node = Node(key)
            self.nodes[key] = node
            lands, heap = key
            if not lands:
                node.pn, node.dn = WIN if heap else LOSS
            else:
                verdict = self.probe(node)
                if verdict is not None:
                    node.pn, node.dn = WIN if verdict == "W" else LOSS
        return node

    def expand(self, node):
        """Makes the children of a leaf and updates the numbers above it."""
        if node.children is not None or node.proved:
            return
        node.children = []
        for key in child_keys(node.key, self.known_nimber):
            child = self.node(key)
            child.parents.append(node)
            node.children.append(child)
        self.update(node)

    def settle(self, node, verdict):
        """Records a leaf's verdict from a job and updates the numbers above it."""
        if node.proved:
            return
        node.pn, node.dn = WIN if verdict == "W" else LOSS
        self.propagate(node)

    def update(self, node):
        """Recomputes a node's numbers from its children, then its ancestors'."""
        if self.recompute(node):
            self.propagate(node)

    def recompute(self, node):
        if node.proved or node.children is None:
            return False
        pn, dn = INF, 0
        for c in node.children:
            pn = min(pn, c.dn)
            dn = add(dn, c.pn)
        if not node.children:
            pn, dn = LOSS
        elif pn == 0:
            dn = INF
        elif dn == 0:
            pn = INF
        changed = (pn, dn) != (node.pn, node.dn)
        node.pn, node.dn = pn, dn
        return changed

    def propagate(self, node):
        todo = list(node.parents)
        while todo:
            p = todo.pop()
            if self.recompute(p):
                todo.extend(p.parents)

    def select(self):
        """The most-proving leaf that is not busy (nor proved), or `None` when every unproved
        leaf under the root is busy."""
        seen = set()

        def walk(node):
            if node.proved or node.key in seen:
                return None
            seen.add(node.key)
            if node.children is None:
                return None if node.busy else node
            # Proving the node a win needs one child lost: the child with the least disproof
            # number first; the others in order as fallbacks when its leaves are all busy.
            for c in sorted(node.children, key=lambda c: (c.dn, c.pn)):
                leaf = walk(c)
                if leaf is not None:
                    return leaf
            return None

        return walk(self.root)
