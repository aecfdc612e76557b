"""The op families of random_programs.py: each method appends one value computed from
x (and values it picks) to the program, knowing its shape, the dims PyTensor knows to be 1
and a bound on its magnitude, so that what it writes is well defined and finite."""

from random_program_values import Value, broadcast


class ProgramOps:
    """Mixed into random_programs.Program, which provides rng, values, count, new(),
    bounded() and positive()."""

    def unary(self, x):
        r = self.rng
        k = r.randrange(22)
        s, b = x.shape, x.bound
        if k == 0:
            y = self.bounded(x, 30.0)
            return self.new(f"pt.exp({y.name})", s, 2.72 ** y.bound, True)
        if k == 1:
            p = self.positive(x)
            return self.new(f"pt.log({p.name})", s, max(abs(p.bound), 1) + 30)
        if k == 2:
            return self.new(f"pt.tanh({x.name})", s, 1.0)
        if k == 3:
            return self.new(f"pt.sigmoid({x.name})", s, 1.0, True)
        if k == 4:
            return self.new(f"pt.softplus({x.name})", s, b + 1, True)
        if k == 5:
            return self.new(f"pt.log1p(pt.exp({self.bounded(x, 30.0).name}))", s, b + 1, True)
        if k == 6:
            return self.new(f"pt.log(pt.sigmoid({x.name}))", s, b + 1)
        if k == 7:
            return self.new(f"pt.sqr({x.name})", s, b * b)
        if k == 8:
            p = self.positive(x)
            return self.new(f"pt.sqrt({p.name})", s, p.bound ** 0.5 + 1, True)
        if k == 9:
            return self.new(f"-(-{x.name})", s, b)
        if k == 10:
            return self.new(f"{x.name} * 1.0 + 0.0", s, b)
        if k == 11:
            return self.new(f"pt.erf({x.name})", s, 1.0)
        if k == 12:
            return self.new(f"pt.erfc({x.name})", s, 2.0)
        if k == 13:
            return self.new(f"pt.gammaln(1.0 + pt.sqr({self.bounded(x, 10.0).name}))", s, 400.0)
        if k == 14:
            return self.new(f"pt.clip({x.name}, -1.0, 1.5)", s, 1.5)
        if k == 15:
            return self.new(f"pt.switch(pt.gt({x.name}, 0), {x.name}, 0.1 * {x.name})", s, b)
        if k == 16:
            return self.new(f"pt.maximum({x.name}, 0.0)", s, b)
        if k == 17:
            y = self.bounded(x, 5.0)
            return self.new(f"{y.name} ** {r.choice([2, 3, 4])}", s, y.bound ** 4 + 1)
        if k == 18:
            p = self.positive(x)
            return self.new(f"pt.exp(pt.log({p.name}))", s, p.bound, True)
        if k == 19:
            return self.new(f"pt.abs(-{x.name})", s, b, True)
        if k == 20:
            return self.new(f"pt.sin({x.name}) * pt.cos({x.name})", s, 1.0)
        return self.new(f"{x.name} - {x.name} * 0.5", s, b)

    def partner(self, x):
        """A value that broadcasts with x, preferring a different one."""
        r = self.rng
        cands = [v for v in self.values if v is not x and broadcast(v, x) is not None]
        if cands and r.random() < 0.85:
            return r.choice(cands)
        if r.random() < 0.5:
            return Value(repr(r.choice([0.5, 2.0, 1.0, 0.0, -1.5, 3.0])), (), 3.0)
        return x

    def binary(self, x):
        r = self.rng
        y = self.partner(x)
        s = broadcast(x, y)
        k = r.randrange(9)
        if k == 0:
            return self.new(f"{x.name} + {y.name}", s, x.bound + y.bound)
        if k == 1:
            return self.new(f"{x.name} - {y.name}", s, x.bound + y.bound)
        if k == 2:
            return self.new(f"{x.name} * {y.name}", s, x.bound * y.bound)
        if k == 3:
            p = self.positive(y) if y.name[0] in "abcdefghv" else Value("2.0", (), 2.0, True)
            return self.new(f"{x.name} / {p.name}", s, x.bound / 0.1)
        if k == 4:
            return self.new(f"pt.maximum({x.name}, {y.name})", s, max(x.bound, y.bound))
        if k == 5:
            return self.new(f"pt.minimum({x.name}, {y.name})", s, max(x.bound, y.bound))
        if k == 6:
            return self.new(f"pt.switch(pt.lt({x.name}, {y.name}), {x.name}, {y.name})", s, max(x.bound, y.bound))
        if k == 7:
            p = self.positive(x)
            e = self.bounded(y, 3.0) if y.name[0] in "abcdefghv" else y
            return self.new(f"{p.name} ** {e.name}", s, (p.bound + 1) ** 3)
        return self.new(f"pt.where(pt.ge({x.name}, 0), {y.name}, {x.name})", s, max(x.bound, y.bound))

    def reduce(self, x):
        r = self.rng
        if x.ndim == 0:
            return self.unary(x)
        axis = r.choice([None] + list(range(x.ndim)) + [tuple(sorted(r.sample(range(x.ndim), min(2, x.ndim))))])
        keep = r.random() < 0.3
        axes = range(x.ndim) if axis is None else ([axis] if isinstance(axis, int) else axis)
        if keep:
            shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
            bc = tuple(i in axes or f for i, f in enumerate(x.bcast))
        else:
            shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
            bc = tuple(f for i, f in enumerate(x.bcast) if i not in axes)
        n = 1
        for i in axes:
            n *= x.shape[i]
        k = r.randrange(7)
        opt = f"axis={axis!r}, keepdims={keep}"
        if k == 0:
            return self.new(f"pt.sum({x.name}, {opt})", shape, x.bound * n, bcast=bc)
        if k == 1:
            return self.new(f"pt.mean({x.name}, {opt})", shape, x.bound, bcast=bc)
        if k == 2:
            return self.new(f"pt.max({x.name}, {opt})", shape, x.bound, bcast=bc)
        if k == 3:
            return self.new(f"pt.min({x.name}, {opt})", shape, x.bound, bcast=bc)
        if k == 4:
            y = self.bounded(x, 2.0)
            return self.new(f"pt.prod({y.name}, {opt})", shape, y.bound ** n, bcast=bc)
        if k == 5:
            y = self.bounded(x, 30.0)
            return self.new(f"pt.logsumexp({y.name}, {opt})", shape, y.bound + 5, bcast=bc)
        return self.new(f"pt.var({x.name}, {opt})", shape, x.bound ** 2, True, bcast=bc)

    def reshape(self, x):
        r = self.rng
        k = r.randrange(6)
        if x.ndim >= 2 and k == 0:
            return self.new(f"{x.name}.T", x.shape[::-1], x.bound, bcast=x.bcast[::-1])
        if k == 1:
            pos = r.randrange(x.ndim + 1)
            return self.new(f"pt.expand_dims({x.name}, {pos})", x.shape[:pos] + (1,) + x.shape[pos:], x.bound,
                            bcast=x.bcast[:pos] + (True,) + x.bcast[pos:])
        if k == 2 and x.ndim >= 1:
            n = 1
            for d in x.shape:
                n *= d
            return self.new(f"{x.name}.flatten()", (n,), x.bound, bcast=(False,))
        if k == 3 and x.ndim >= 2:
            return self.new(f"pt.swapaxes({x.name}, 0, {x.ndim - 1})",
                            (x.shape[-1],) + x.shape[1:-1] + (x.shape[0],), x.bound,
                            bcast=(x.bcast[-1],) + x.bcast[1:-1] + (x.bcast[0],))
        if k == 4 and 1 in x.shape:
            i = x.shape.index(1)
            return self.new(f"pt.specify_broadcastable({x.name}, {i}).squeeze({i})",
                            x.shape[:i] + x.shape[i + 1:], x.bound, bcast=x.bcast[:i] + x.bcast[i + 1:])
        if k == 5 and x.ndim >= 1:
            n = 1
            for d in x.shape:
                n *= d
            if n % 2 == 0:
                return self.new(f"{x.name}.reshape((2, -1))", (2, n // 2), x.bound, bcast=(False, False))
        return self.unary(x)

    def index(self, x):
        r = self.rng
        if x.ndim == 0:
            return self.unary(x)
        ax = r.randrange(x.ndim)
        n = x.shape[ax]
        pre = ":, " * ax
        choices = [("::-1", n), ("1:", n - 1), (":-1", n - 1), ("::2", (n + 1) // 2), ("0", None), ("-1", None)]
        if n >= 3:
            choices.append(("1:-1", n - 2))
        k, m = r.choice(choices)
        if m == 0:
            k, m = "::-1", n
        shape = x.shape[:ax] + ((m,) if m is not None else ()) + x.shape[ax + 1:]
        bc = x.bcast[:ax] + ((False,) if m is not None else ()) + x.bcast[ax + 1:]
        if r.random() < 0.2:
            idx = [r.randrange(n) for _ in range(r.choice([1, 2, 4]))]
            return self.new(f"{x.name}[{pre}{idx!r}]", x.shape[:ax] + (len(idx),) + x.shape[ax + 1:], x.bound,
                            bcast=x.bcast[:ax] + (False,) + x.bcast[ax + 1:])
        v = self.new(f"{x.name}[{pre}{k}]", shape, x.bound, bcast=bc)
        if r.random() < 0.3:
            upd = self.partner(v)
            if broadcast(upd, v) == v.shape and upd.ndim <= v.ndim:
                fn = r.choice(["set_subtensor", "inc_subtensor"])
                return self.new(f"pt.{fn}({x.name}[{pre}{k}], {upd.name})", x.shape, x.bound + upd.bound,
                                bcast=x.bcast)
        return v

    def combine(self, x):
        """A join, a product or a softmax."""
        r = self.rng
        k = r.randrange(5)
        if k == 0 and x.ndim >= 1:
            ax = r.randrange(x.ndim)
            others = [v for v in self.values if v.ndim == x.ndim
                      and all(d == e for i, (d, e) in enumerate(zip(v.shape, x.shape)) if i != ax)]
            y = r.choice(others)
            shape = x.shape[:ax] + (x.shape[ax] + y.shape[ax],) + x.shape[ax + 1:]
            return self.new(f"pt.concatenate([{x.name}, {y.name}], axis={ax})", shape, max(x.bound, y.bound),
                            bcast=[False] * len(shape))
        if k == 1 and x.ndim in (1, 2):
            others = [v for v in self.values if v.ndim in (1, 2) and v.shape[0] == x.shape[-1]]
            if others:
                y = r.choice(others)
                shape = x.shape[:-1] + y.shape[1:]
                return self.new(f"pt.dot({x.name}, {y.name})", shape, x.bound * y.bound * x.shape[-1],
                                bcast=[False] * len(shape))
        if k == 2 and x.ndim >= 1:
            ax = r.randrange(x.ndim)
            fn = r.choice(["softmax", "log_softmax"])
            y = self.bounded(x, 30.0)
            return self.new(f"pt.special.{fn}({y.name}, axis={ax})", x.shape, y.bound * 2 + 5, bcast=x.bcast)
        if k == 3 and x.ndim >= 1:
            ax = r.randrange(x.ndim)
            return self.new(f"pt.cumsum({x.name}, axis={ax})", x.shape, x.bound * x.shape[ax], bcast=x.bcast)
        if k == 4:
            return self.new(f"pt.zeros_like({x.name}) + pt.ones_like({x.name}) * {x.name}", x.shape, x.bound)
        return self.binary(x)

    def loop(self, x):
        """A Scan over a state shaped like x: a leaky tanh recurrence of the state, maybe a
        sequence's row and a non-sequence, maybe a second (nit-sot) output; its trace or its
        last state."""
        r = self.rng
        k = self.count
        state = self.bounded(x, 3.0)
        seqs = [v for v in self.values if v.ndim >= 1 and v.shape[0] >= 2]
        seq = r.choice(seqs) if seqs and r.random() < 0.6 else None
        other = r.choice(self.values) if r.random() < 0.5 else None
        args, terms = [], ["h"]
        if seq is not None:
            args.append("s_t")
            row = Value("s_t", seq.shape[1:], seq.bound, bcast=seq.bcast[1:])
            terms.append("s_t" if broadcast(state, row) == state.shape else "pt.sum(s_t)")
        args.append("h")
        if other is not None:
            args.append("w")
            terms.append("w" if broadcast(state, other) == state.shape else "pt.mean(w)")
        expr = terms[0]
        for t in terms[1:]:
            expr = f"({expr} {r.choice(['+', '*', '-'])} {t})"
        fn = r.choice(["pt.tanh", "pt.sin", "pt.sigmoid", ""])
        aux = r.random() < 0.3
        body = [f"def step{k}({', '.join(args)}):",
                f"    new = 0.5 * h + 0.5 * pt.tanh({fn}({expr}))"]
        body.append(f"    return new, pt.sqr(new) + {r.choice(['h', '1.0'])}" if aux else "    return new")
        self.lines += body
        steps = seq.shape[0] if seq is not None else r.choice([1, 2, 3, 5])
        opts = [f"outputs_info=[{state.name}{', None' if aux else ''}]"]
        if seq is not None:
            opts.insert(0, f"sequences=[{seq.name}]")
            if r.random() < 0.5:
                steps = r.randrange(1, seq.shape[0] + 1)
                opts.append(f"n_steps={steps}")
        else:
            opts.append(f"n_steps={steps}")
        if other is not None:
            opts.append(f"non_sequences=[{other.name}]")
        call = f"pytensor.scan(step{k}, {', '.join(opts)})[0]"
        trace_bc = (False,) + state.bcast
        if aux:
            call += "[0]"
        if r.random() < 0.5:
            return self.new(call, (steps,) + state.shape, max(state.bound, 1.0), bcast=trace_bc)
        return self.new(call + "[-1]", state.shape, max(state.bound, 1.0), bcast=state.bcast)

    def linalg(self, x):
        """A symmetric positive definite matrix made from x, and a determinant, an inverse,
        a solve or a Cholesky factor of it."""
        r = self.rng
        if x.ndim != 2:
            return self.combine(x)
        y = self.bounded(x, 2.0)
        n, m = x.shape
        spd = self.new(f"pt.dot({y.name}, {y.name}.T) + {float(n)} * pt.eye({n})", (n, n), 4.0 * m + n,
                       bcast=(n == 1 and y.bcast[0],) * 2)
        vecs = [v for v in self.values if v.ndim in (1, 2) and v.shape[0] == n and v is not spd]
        k = r.randrange(6)
        if k == 0:
            return self.new(f"pt.log(pt.linalg.det({spd.name}))", (), 50.0)
        if k == 1:
            return self.new(f"pt.linalg.slogdet({spd.name})[1]", (), 50.0)
        if k == 2:
            return self.new(f"pt.linalg.inv({spd.name})", (n, n), 1.0, bcast=spd.bcast)
        if k == 3 and vecs:
            b = r.choice(vecs)
            how = r.choice(["pt.linalg.solve({a}, {b}, assume_a='pos')", "pt.linalg.solve({a}, {b})",
                            "pt.dot(pt.linalg.inv({a}), {b})"])
            return self.new(how.format(a=spd.name, b=b.name), b.shape, b.bound, bcast=[False] * b.ndim)
        if k == 4 and vecs:
            b = r.choice(vecs)
            lo = self.new(f"pt.linalg.cholesky({spd.name})", (n, n), spd.bound ** 0.5, bcast=spd.bcast)
            return self.new(f"pt.linalg.solve_triangular({lo.name}, {b.name}, lower=True)", b.shape, b.bound,
                            bcast=[False] * b.ndim)
        lo = self.new(f"pt.linalg.cholesky({spd.name})", (n, n), spd.bound ** 0.5, bcast=spd.bcast)
        return self.new(f"pt.sum(pt.log(pt.diagonal({lo.name})))", (), 50.0)

    def structural(self, x):
        """Shapes used as values, arrays allocated from them, integer results used as
        indices (argsort, argmax), sorting, float32 and back, and the other array ops."""
        r = self.rng
        k = r.randrange(10)
        nb = [False] * x.ndim
        if k == 0 and x.ndim >= 1:
            i = r.randrange(x.ndim)
            return self.new(f"{x.name} / pt.cast({x.name}.shape[{i}], 'float64')", x.shape, x.bound, bcast=x.bcast)
        if k == 1 and x.ndim >= 1:
            return self.new(f"pt.zeros({x.name}.shape) + pt.alloc(0.5, *{x.name}.shape) * {x.name}", x.shape,
                            x.bound, bcast=nb)
        if k == 2 and x.ndim >= 1:
            # Rows reordered by a vector of x.shape[0] keys (x[:, 0, 0] of a 3-d x): a key
            # of more axes would give argsort's index, and the result, more axes.
            keys = f"{x.name}[:, {', '.join(['0'] * (x.ndim - 1))}]"
            return self.new(f"{x.name}[pt.argsort({x.name}.flatten()[:{x.shape[0]}])]" if x.ndim == 1 else
                            f"{x.name}[pt.argsort({keys})]", x.shape, x.bound, bcast=nb)
        if k == 3 and x.ndim >= 1:
            ax = r.randrange(x.ndim)
            shape = x.shape[:ax] + x.shape[ax + 1:]
            return self.new(f"pt.cast(pt.argmax({x.name}, axis={ax}), 'float64') - pt.max({x.name}, axis={ax})",
                            shape, x.bound + x.shape[ax], bcast=[False] * len(shape))
        if k == 4 and x.ndim >= 1:
            ax = r.randrange(x.ndim)
            return self.new(f"pt.sort({x.name}, axis={ax})", x.shape, x.bound, bcast=x.bcast)
        if k == 5:
            return self.new(f"pt.cast(pt.cast({x.name}, 'float32') * np.float32(2), 'float64')", x.shape,
                            x.bound * 2, bcast=x.bcast)
        if k == 6 and x.ndim >= 1:
            reps = r.choice([2, 3])
            ax = r.randrange(x.ndim)
            shape = x.shape[:ax] + (x.shape[ax] * reps,) + x.shape[ax + 1:]
            return self.new(f"pt.repeat({x.name}, {reps}, axis={ax})", shape, x.bound, bcast=[False] * len(shape))
        if k == 7 and x.ndim >= 1:
            shape = (2,) + x.shape
            return self.new(f"pt.broadcast_to({x.name}, (2, *{x.name}.shape))", shape, x.bound,
                            bcast=[False] * len(shape))
        if k == 8 and x.ndim >= 1:
            ax = r.randrange(x.ndim)
            shift = r.choice([1, -1, 2])
            return self.new(f"pt.roll({x.name}, {shift}, axis={ax}) - {x.name}", x.shape, 2 * x.bound, bcast=x.bcast)
        if k == 9:
            return self.new(f"pt.stack([{x.name}, {x.name} * 0.5])", (2,) + x.shape, x.bound,
                            bcast=(False,) + x.bcast)
        return self.unary(x)
