"""Control flow for random_programs.py: ifelse, Scan loops that stop early (until), loops
with taps on their state and on their sequence, and OpFromGraph subgraphs, each over
values the generator knows the shape and the bound of."""

from random_program_values import Value, broadcast


class ProgramControl:
    """Mixed into random_programs.Program, which provides rng, values, inputs, lines,
    count, new(), bounded() and the op families."""

    def branch(self, x):
        """ifelse on the sign of an input's sum (never a value that is zero up to rounding,
        which would pick either branch), between two values shaped like x."""
        r = self.rng
        cond_on = r.choice([v for v in self.values if v.name in "abcdefgh"])
        same = [v for v in self.values if v is not x and v.shape == x.shape and v.bcast == x.bcast]
        other = r.choice(same) if same and r.random() < 0.7 else self.new(f"pt.tanh({x.name}) * 2.0", x.shape,
                                                                             2.0, bcast=x.bcast)
        cond = f"pt.gt(pt.sum({cond_on.name}), {r.choice([0.0, 0.5, -0.5])})"
        return self.new(f"ifelse({cond}, {x.name}, {other.name})", x.shape, max(x.bound, other.bound),
                        bcast=x.bcast)

    def _state_terms(self, state, name, other):
        """The body's expression of the state `name`, mixed with the non-sequence w."""
        r = self.rng
        if other is None:
            return name
        w = "w" if broadcast(state, other) == state.shape else "pt.mean(w)"
        return f"({name} {r.choice(['+', '*', '-'])} {w})"

    def while_loop(self, x):
        """A Scan that stops when its state settles (until), at most n_steps; its last
        state or the sum of its trace, whose length only the run knows."""
        r = self.rng
        k = self.count
        state = self.bounded(x, 3.0)
        other = r.choice(self.values) if r.random() < 0.4 else None
        args = ["h"] + (["w"] if other is not None else [])
        rate = r.choice([0.3, 0.5, 0.8])
        self.lines += [f"def step{k}({', '.join(args)}):",
                       f"    new = {1 - rate} * h + {rate} * pt.tanh({self._state_terms(state, 'h', other)})",
                       f"    return new, until(pt.max(pt.abs(new - h)) < {r.choice([0.3, 0.05, 1e-3])})"]
        limit = r.choice([1, 4, 12])
        opts = [f"outputs_info=[{state.name}]", f"n_steps={limit}"]
        if other is not None:
            opts.append(f"non_sequences=[{other.name}]")
        call = f"pytensor.scan(step{k}, {', '.join(opts)})[0]"
        if r.random() < 0.5:
            return self.new(call + "[-1]", state.shape, max(state.bound, 1.0), bcast=state.bcast)
        return self.new(f"pt.sum({call}, axis=0)", state.shape, limit * max(state.bound, 1.0), bcast=state.bcast)

    def tapped_loop(self, x):
        """A Scan whose state reads its last two values (taps -2 and -1), maybe over a
        sequence read at two taps; its trace, its last state, or a slice of the trace."""
        r = self.rng
        k = self.count
        state = self.bounded(x, 3.0)
        init = self.new(f"pt.stack([{state.name}, 0.5 * {state.name}])", (2,) + state.shape, state.bound,
                        bcast=(False,) + state.bcast)
        # Rows of at least one axis: PyTensor 2.34 fails to run the gradient of a
        # Scan over 0-d rows whose state reads taps -2 and -1 ("expected an ndarray"
        # from a Mul of the gradient Scan's inner function).
        seqs = [v for v in self.values if v.ndim >= 2 and v.shape[0] >= 3 and v is not init]
        seq = r.choice(seqs) if seqs and r.random() < 0.6 else None
        seq_taps = r.choice([[-1, 0], [0, 1], [-2, 0]])
        args, extra = [], ""
        if seq is not None:
            args += ["s_a", "s_b"]
            row = Value("s_a", seq.shape[1:], seq.bound, bcast=seq.bcast[1:])
            extra = " + 0.1 * " + ("(s_a - s_b)" if broadcast(state, row) == state.shape else "pt.sum(s_a - s_b)")
        args += ["h2", "h1"]
        self.lines += [f"def step{k}({', '.join(args)}):",
                       f"    return 0.6 * h1 - 0.3 * pt.tanh(h2){extra}"]
        opts = [f"outputs_info=[dict(initial={init.name}, taps=[-2, -1])]"]
        if seq is not None:
            opts.insert(0, f"sequences=[dict(input={seq.name}, taps={seq_taps})]")
            steps = seq.shape[0] - (max(seq_taps) - min(seq_taps))
        else:
            steps = r.choice([1, 3, 6])
            opts.append(f"n_steps={steps}")
        call = f"pytensor.scan(step{k}, {', '.join(opts)})[0]"
        bound = 2 * state.bound + 1 + (seq.bound if seq is not None else 0)
        how = r.randrange(3)
        if how == 0:
            return self.new(call, (steps,) + state.shape, bound, bcast=(False,) + state.bcast)
        if how == 1 or steps < 2:
            return self.new(call + "[-1]", state.shape, bound, bcast=state.bcast)
        return self.new(call + "[-2:]", (2,) + state.shape, bound, bcast=(False,) + state.bcast)

    def subgraph(self, x):
        """An OpFromGraph of one or two fresh inputs typed like x and a partner, applied to
        them; inline or not, one output or two."""
        r = self.rng
        k = self.count
        y = self.partner(x)
        if y.name[0] not in "abcdefghv":
            y = x
        s = broadcast(x, y)
        b = self.bounded(x, 10.0)
        two = r.random() < 0.4
        outs = f"pt.exp(_p{k}) * _q{k} + 1.0" + (f", pt.sum(_p{k} * _q{k})" if two else "")
        self.lines += [f"_p{k}, _q{k} = {b.name}.type(), {y.name}.type()",
                       f"ofg{k} = OpFromGraph([_p{k}, _q{k}], [{outs}], inline={r.random() < 0.3})"]
        bound = 2.72 ** b.bound * y.bound + 1
        if two:
            call = f"ofg{k}({b.name}, {y.name})"
            first = self.new(call + "[0]", s, bound)
            return self.new(f"{first.name} - {call}[1]", s, bound * (1 + first.size))
        return self.new(f"ofg{k}({b.name}, {y.name})", s, bound)
