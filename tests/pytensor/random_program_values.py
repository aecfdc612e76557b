"""Values of a random program (random_programs.py): shapes, static broadcastability, bounds."""


class Value:
    def __init__(self, name, shape, bound, positive=False, deps=frozenset(), bcast=None):
        self.name, self.shape, self.bound, self.positive = name, tuple(shape), bound, positive
        self.deps = deps  # the names of the inputs it is computed from
        self.read = False  # whether a later value reads it
        # Which dims PyTensor knows statically to be 1: only those broadcast against a
        # longer one (a dim of length 1 it cannot see is a runtime broadcast, an error).
        self.bcast = tuple(bcast) if bcast is not None else tuple(False for _ in self.shape)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n


def padded(v, n):
    return (1,) * (n - v.ndim) + v.shape, (True,) * (n - v.ndim) + v.bcast


def broadcast(a, b):
    """The shape of a and b broadcast together, or None where PyTensor would refuse it."""
    n = max(a.ndim, b.ndim)
    (sa, ba), (sb, bb) = padded(a, n), padded(b, n)
    out = []
    for x, y, px, py in zip(sa, sb, ba, bb):
        if x != y and not (x == 1 and px) and not (y == 1 and py):
            return None
        out.append(max(x, y))
    return tuple(out)
