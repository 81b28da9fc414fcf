"""The wiring diagrams' lanes: a wire through a channel of parallel lanes, and the lane order
with the fewest crossings (exact search over each group of overlapping wires)."""


class Wire:
    """One wire through a channel of lanes: down (or up) from s at the channel's edge to its
    lane, along the lane to t, then on away from the edge (or back towards it)."""

    def __init__(self, name, s, t, back=False):
        self.name, self.s, self.t, self.back = name, s, t, back

    def inside(self, x):
        return min(self.s, self.t) < x < max(self.s, self.t)


def _pair_cost(u, w):
    """Crossings between u and w when u's lane is nearer the channel's edge than w's."""
    c = 0
    if u.inside(w.s):          # w comes down past u's lane
        c += 1
    if w.back and u.inside(w.t):  # w turns back past u's lane
        c += 1
    if not u.back and w.inside(u.t):  # u goes on past w's lane
        c += 1
    return c


def order_lanes(wires):
    """Lane order (nearest the edge first) with the fewest crossings; ties keep the input
    order. Wires whose spans do not overlap are ordered independently (exact search)."""
    n = len(wires)
    groups: list = []  # connected components of overlapping x spans
    spans = sorted(range(n), key=lambda i: (min(wires[i].s, wires[i].t), i))
    for i in spans:
        lo, hi = min(wires[i].s, wires[i].t), max(wires[i].s, wires[i].t)
        if groups and lo <= groups[-1][1]:
            groups[-1][0].append(i)
            groups[-1][1] = max(groups[-1][1], hi)
        else:
            groups.append([[i], hi])
    order = []
    total = 0
    for members, _ in groups:
        members.sort()
        best, cost = _best_order([wires[i] for i in members])
        order.append([members[k] for k in best])
        total += cost
    # Interleave the independent groups lane by lane so each channel stays shallow.
    lanes = {}
    for group in order:
        for depth, i in enumerate(group):
            lanes[i] = depth
    return lanes, total


def _best_order(ws):
    """(order, crossings) minimising crossings: exact over subsets (groups are small)."""
    n = len(ws)
    cost = [[_pair_cost(ws[i], ws[j]) if i != j else 0 for j in range(n)] for i in range(n)]
    full = (1 << n) - 1
    best: dict = {0: (0, ())}
    for mask in range(full + 1):
        if mask not in best:
            continue
        base, seq = best[mask]
        for j in range(n):
            if mask & (1 << j):
                continue
            add = 0
            for i in seq:
                add += cost[i][j]
            m2 = mask | (1 << j)
            cand = (base + add, seq + (j,))
            if m2 not in best or cand < best[m2]:
                best[m2] = cand
    c, seq = best[full]
    return list(seq), c
