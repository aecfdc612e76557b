"""The array functions of statistical and neural-network models for random_programs.py:
softmax and log-softmax, cumulative products and differences, triangles of matrices,
Kronecker products, padding, norms, eigenvalues and singular values, sorted search,
take_along_axis, rounding and 1-d convolutions."""


class ProgramModels:
    """Mixed into random_programs.Program, which provides rng, values, new(), bounded(),
    positive(), partner() and the other op families."""

    def models(self, x):
        r = self.rng
        k = r.randrange(11)
        if x.ndim == 0 or k == 0:
            return self._softmax_or_round(x)
        ax = r.randrange(x.ndim)
        nb = [False] * x.ndim
        if k == 1:
            if x.shape[ax] >= 2 and r.random() < 0.5:
                shape = x.shape[:ax] + (x.shape[ax] - 1,) + x.shape[ax + 1:]
                return self.new(f"pt.diff({x.name}, axis={ax})", shape, 2 * x.bound, bcast=x.bcast[:ax] + (False,) + x.bcast[ax + 1:])
            return self.new(f"pt.cumprod(0.75 + 0.25 * pt.tanh({x.name}), axis={ax})", x.shape, 1.0, True, bcast=x.bcast)
        if k == 2 and x.ndim == 2:
            # Another dtype's zeros above (or below) a diagonal, the entries kept exactly.
            fn = r.choice(["pt.tril", "pt.triu"])
            return self.new(f"{fn}({x.name}, {r.choice([-1, 0, 1])})", x.shape, x.bound, bcast=nb)
        if k == 3 and x.ndim == 2:
            mats = [v for v in self.values if v.ndim == 2 and v.size <= 9]
            y = self.bounded(r.choice(mats) if mats else x, 3.0)
            a = self.bounded(x, 3.0)
            shape = (a.shape[0] * y.shape[0], a.shape[1] * y.shape[1])
            return self.new(f"pt.linalg.kron({a.name}, {y.name})", shape, a.bound * y.bound, bcast=[False, False])
        if k == 4:
            mode = r.choice(["'constant', constant_values=0.5", "'edge'", "'wrap'"] +
                            (["'reflect'"] if min(x.shape) >= 2 else []))
            shape = tuple(d + 2 for d in x.shape)
            return self.new(f"pt.pad({x.name}, 1, mode={mode})", shape, x.bound + 0.5, bcast=nb)
        if k == 5:
            # Vector norms along an axis, ord given: PyTensor 2.34 cannot take the gradient
            # of its default one of a matrix (Real.grad of (x.conj() * x).real), nor build it
            # for a vector (abs(x) ** None).
            order = r.choice(["2", "1", "np.inf"])
            shape = x.shape[:ax] + x.shape[ax + 1:]
            return self.new(f"pt.linalg.norm({x.name}, ord={order}, axis={ax})", shape, x.bound * x.shape[ax], True,
                            bcast=x.bcast[:ax] + x.bcast[ax + 1:])
        if k == 6 and x.ndim == 2:
            return self._spectrum(x)
        if k == 7:
            y = self.partner(x)
            y = y if y.ndim >= 1 else x
            return self.new(f"pt.cast(pt.searchsorted(pt.sort({x.name}.flatten()), {y.name}.flatten() * 0.9 + 0.0123,"
                            f" side={r.choice(['left', 'right'])!r}), 'float64') * 0.25", (y.size,), 0.25 * x.size)
        if k == 8:
            return self.new(f"pt.take_along_axis({x.name}, pt.argsort({x.name}, axis={ax}), axis={ax})", x.shape,
                            x.bound, bcast=x.bcast)
        if k == 9:
            return self._convolution(x)
        return self._softmax_or_round(x)

    def _softmax_or_round(self, x):
        r = self.rng
        if x.ndim == 0 or r.random() < 0.3:
            # floor(3x + 0.37) keeps a value that is zero up to rounding off a half.
            return self.new(f"pt.round({x.name} * 3.0 + 0.37) - pt.clip({x.name}, -1.0, 1.5)", x.shape,
                            4 * x.bound + 2, bcast=x.bcast)
        ax = r.randrange(x.ndim)
        if r.random() < 0.5:
            return self.new(f"pt.special.softmax({x.name}, axis={ax})", x.shape, 1.0, True, bcast=x.bcast)
        return self.new(f"pt.special.log_softmax({x.name}, axis={ax})", x.shape, 2 * x.bound + 3, bcast=x.bcast)

    def _spectrum(self, x):
        """Eigenvalues of a symmetric matrix with distinct ones (a Gram matrix plus 1..m on
        the diagonal), or the singular values."""
        a = self.bounded(x, 2.0)
        m, n = a.shape
        if self.rng.random() < 0.5 or n < 2 or m < 2:
            return self.new(f"pt.linalg.eigh(pt.dot({a.name}, {a.name}.T) + pt.diag(pt.arange(1.0, {m + 1}.0)))[0]",
                            (m,), 4 * n + m, True)
        # Singular values with a fixed offset keep them apart and away from zero.
        return self.new(f"pt.linalg.svd({a.name} + pt.eye({m}, {n}) * 3.0, compute_uv=False)", (min(m, n),),
                        3 + 2 * max(m, n), True)

    def _convolution(self, x):
        """convolve1d of x (flattened) with a short kernel, in one of the three modes."""
        r = self.rng
        v = x.name if x.ndim == 1 else f"{x.name}.flatten()"
        n = x.size
        kernels = [w for w in self.values if w.ndim == 1 and w is not x and w.shape[0] <= 4]
        if kernels and r.random() < 0.5:
            w = self.bounded(r.choice(kernels), 2.0)
            kern, kn, kb = w.name, w.shape[0], w.bound
        else:
            kern, kn, kb = "np.array([0.5, 0.3, 0.2])", 3, 0.5
        mode = r.choice(["full", "valid", "same"])
        length = {"full": n + kn - 1, "valid": max(n, kn) - min(n, kn) + 1, "same": n}[mode]
        return self.new(f"convolve1d({v}, {kern}, mode={mode!r})", (length,), x.bound * kb * kn)
