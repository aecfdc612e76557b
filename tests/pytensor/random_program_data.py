"""Integer and index data, special functions and batched products for random_programs.py:
integer arithmetic, boolean masks, gathers and scatters through integer index inputs
(negative and repeated indices included), the special functions of PyMC's log-densities,
and batched, outer and tensor products."""


class ProgramData:
    """Mixed into random_programs.Program, which provides rng, values, new(), bounded(),
    positive(), add_index_input() and the op families."""

    def integer(self, x):
        """Integer arithmetic on floor(3x + 0.37) (the offset keeps a value that is zero up to
        rounding away from a floor's jump), used as a value again."""
        r = self.rng
        n = self.new(f"pt.cast(pt.floor({x.name} * 3.0 + 0.37), 'int64')", x.shape, 3 * x.bound + 1, bcast=x.bcast)
        k = r.randrange(6)
        if k == 0:
            m = self.new(f"{n.name} // {r.choice([2, 3, -2])} + {n.name} % {r.choice([3, 4])}", x.shape, n.bound,
                         bcast=x.bcast)
        elif k == 1:
            m = self.new(f"pt.maximum({n.name}, 1) * pt.sign({n.name}) - pt.abs({n.name})", x.shape, 2 * n.bound ** 2,
                         bcast=x.bcast)
        elif k == 2:
            m = self.new(f"pt.switch(pt.eq({n.name} % 2, 0), {n.name} // 2, 3 * {n.name} + 1)", x.shape,
                         3 * n.bound + 1, bcast=x.bcast)
        elif k == 3:
            m = self.new(f"pt.cast(pt.and_(pt.gt({n.name}, 0), pt.lt({n.name}, 4)), 'int64')"
                         f" + pt.cast(pt.or_(pt.eq({n.name}, -1), pt.invert(pt.ge({n.name}, -3))), 'int8')",
                         x.shape, 2.0, bcast=x.bcast)
        elif k == 4 and x.ndim >= 1:
            ax = r.randrange(x.ndim)
            shape = x.shape[:ax] + x.shape[ax + 1:]
            m = self.new(f"pt.sum({n.name}, axis={ax}) - pt.max({n.name}, axis={ax})", shape,
                         n.bound * (x.shape[ax] + 1), bcast=x.bcast[:ax] + x.bcast[ax + 1:])
        else:
            m = self.new(f"pt.true_div({n.name}, 4) + pt.int_div({n.name}, -3)", x.shape, n.bound, bcast=x.bcast)
        y = self.new(f"pt.cast({m.name}, 'float64') * 0.25 + {r.choice(['0.0', x.name])}"
                     if m.shape == x.shape else f"pt.cast({m.name}, 'float64') * 0.25", m.shape,
                     m.bound * 0.25 + x.bound, bcast=m.bcast)
        # The integer values stay out of the values other families pick from: a Scan state
        # or an ifelse branch must keep one dtype.
        self.values = [v for v in self.values if v is not n and v is not m]
        return y

    def masked(self, x):
        """Boolean masks: the sum of the entries above a threshold, or those entries set."""
        r = self.rng
        if x.ndim == 0:
            return self.integer(x)
        c = r.choice([0.1234, -0.4321, 1.0123])
        k = r.randrange(3)
        if k == 0:
            return self.new(f"pt.sum({x.name}[pt.gt({x.name}, {c})])", (), x.bound * x.size)
        if k == 1:
            return self.new(f"pt.set_subtensor({x.name}[pt.lt({x.name}, {c})], {r.choice([0.0, -1.0])})", x.shape,
                            x.bound + 1, bcast=x.bcast)
        mask = f"pt.ge({x.name}[{':, ' * (x.ndim - 1)}0], {c})" if x.ndim >= 2 else f"pt.ge({x.name}, {c})"
        if x.ndim >= 2:
            return self.new(f"pt.sum({x.name}[{mask}.nonzero()[0]], axis=0)", x.shape[1:], x.bound * x.shape[0], bcast=x.bcast[1:])
        return self.new(f"pt.inc_subtensor({x.name}[{mask}], 1.5)", x.shape, x.bound + 1.5, bcast=x.bcast)

    def gather(self, x):
        """Gathers and scatters through an integer index input along one axis: negative and
        repeated indices, take, and inc_subtensor that adds a repeated row twice."""
        r = self.rng
        if x.ndim == 0:
            return self.integer(x)
        ax = r.randrange(x.ndim)
        n = x.shape[ax]
        m = r.choice([1, 3, 5])
        idx = self.add_index_input([r.randrange(-n, n) for _ in range(m)])
        pre = ":, " * ax
        shape = x.shape[:ax] + (m,) + x.shape[ax + 1:]
        bc = x.bcast[:ax] + (False,) + x.bcast[ax + 1:]
        k = r.randrange(4)
        if k == 0:
            return self.new(f"{x.name}[{pre}{idx}]", shape, x.bound, bcast=bc)
        if k == 1:
            return self.new(f"pt.take({x.name}, {idx}, axis={ax})", shape, x.bound, bcast=bc)
        if k == 2:
            upd = self.new(f"pt.tanh({x.name}[{pre}{idx}]) * 2.0", shape, 2.0, bcast=bc)
            return self.new(f"pt.inc_subtensor({x.name}[{pre}{idx}], {upd.name})", x.shape, x.bound + 2.0 * m,
                            bcast=x.bcast)
        return self.new(f"pt.set_subtensor({x.name}[{pre}{idx}], {r.choice(['0.0', '-2.5'])})", x.shape,
                        x.bound + 2.5, bcast=x.bcast)

    def special(self, x):
        """The special functions of log-densities, on arguments in their domains."""
        r = self.rng
        s = x.shape
        k = r.randrange(12)
        if k == 0:
            return self.new(f"pt.digamma(1.0 + pt.sqr({x.name}))", s, 2 * x.bound + 2)
        if k == 1:
            a = self.bounded(x, 4.0)
            return self.new(f"pt.gammainc(1.5 + pt.sqr({a.name}), pt.softplus({x.name}))", s, 1.0, True)
        if k == 2:
            a = self.bounded(x, 4.0)
            return self.new(f"pt.gammaincc(0.5 + pt.sigmoid({x.name}), 1.0 + pt.sqr({a.name}))", s, 1.0, True)
        if k == 3:
            return self.new(f"pt.special.betaln(1.0 + pt.sqr({self.bounded(x, 6.0).name}), 2.5)", s, 40.0)
        if k == 4:
            return self.new(f"pt.log1mexp(-pt.softplus({x.name}) - 0.01)", s, x.bound + 6)
        if k == 5:
            y = self.partner(x)
            return self.new(f"pt.logaddexp({x.name}, {y.name})", s if y.ndim <= x.ndim else y.shape,
                            max(x.bound, y.bound) + 1)
        if k == 6:
            a = self.bounded(x, 4.0)
            return self.new(f"pt.erfcx({a.name})", s, 2.72 ** (a.bound ** 2) * 2, True)
        if k == 7:
            return self.new(f"pt.erfinv(0.9 * pt.tanh({x.name}))", s, 1.2)
        if k == 8:
            a = self.bounded(x, 10.0)
            return self.new(f"pt.special.logit(0.05 + 0.9 * pt.sigmoid({a.name}))", s, 3.0)
        if k == 9:
            a = self.bounded(x, 6.0)
            return self.new(f"pt.i0({a.name}) - pt.j0({a.name}) + pt.ive(1.0, {a.name})", s, 70.0)
        if k == 10:
            p = self.positive(x)
            return self.new(f"xlogx({p.name}) + xlogy0({p.name}, 1.0 + {p.name})", s,
                            2 * (p.bound + 1) ** 2)
        a = self.bounded(x, 3.0)
        return self.new(f"pt.gamma(1.5 + pt.sigmoid({a.name}) * 2.0) + pt.betainc(2.0, 3.0, pt.sigmoid({x.name}))",
                        s, 4.0, True)

    def batched(self, x):
        """matmul over a batch axis, einsum, outer and tensordot products."""
        r = self.rng
        k = r.randrange(4)
        b = self.bounded(x, 3.0)
        if k == 0 and x.ndim == 3:
            others = [v for v in self.values if v.ndim in (2, 3) and v.shape[-2] == x.shape[-1]]
            if others:
                y = self.bounded(r.choice(others), 3.0)
                shape = x.shape[:-1] + y.shape[-1:]
                return self.new(f"pt.matmul({b.name}, {y.name})", shape, b.bound * y.bound * x.shape[-1])
        if k == 1 and x.ndim == 2:
            others = [v for v in self.values if v.ndim == 2 and v.shape[0] == x.shape[1]]
            if others:
                y = self.bounded(r.choice(others), 3.0)
                shape = (x.shape[0], y.shape[1])
                return self.new(f"pt.einsum('ij,jk->ik', {b.name}, {y.name})", shape,
                                b.bound * y.bound * x.shape[1], bcast=(False, False))
        if k == 2 and x.ndim == 1:
            y = self.bounded(r.choice([v for v in self.values if v.ndim == 1]), 3.0)
            return self.new(f"pt.outer({b.name}, {y.name})", x.shape + y.shape, b.bound * y.bound,
                            bcast=(False, False))
        if k == 3 and x.ndim >= 1:
            y = self.new(f"pt.ones_like({b.name}) * 0.5 + {b.name}", x.shape, b.bound + 0.5)
            return self.new(f"pt.tensordot({b.name}, {y.name}, axes={x.ndim})", (), b.bound * y.bound * x.size)
        return self.special(x)

