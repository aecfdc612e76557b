#!/usr/bin/env python3
"""Random PyTensor programs for differential testing: each is a small model-like graph of
elementwise math, broadcasting, reductions, slicing, indexing, joins, products, softmax,
Scan loops (with taps, and stopping early), ifelse, OpFromGraph, integer arithmetic,
boolean masks, gathers through integer index inputs, special functions, determinants,
solves and Cholesky factors, the array functions of statistical and neural-network models
(softmax, cumulative products, padding, norms, spectra, sorted search, convolutions), and
often its gradient, written as a corpus program (inputs,
outputs, values) that test_corpus.py checks against PyTensor's compiled function like any
hand-written one. The op families are random_program_ops.py, random_program_control.py,
random_program_data.py and random_program_models.py.

    python3 tests/pytensor/random_programs.py --out DIR [--seed S] [--count N]
    python3 tests/pytensor/test_corpus.py --app ... --programs DIR --out EXPORT

The programs are a function of the seed alone (Python's own random module, no NumPy), so a
failing one is reproduced by its name: random_<seed>_<k>.py. The generator knows every
value's shape and a bound on its magnitude, so what it writes is well defined and finite:
logarithms, square roots and divisions get arguments it knows are positive, and exp and
powers only get bounded ones. Inputs are declared with some dims static and some unknown,
so the same expression meets the rewrites' static-shape and dynamic-shape paths.
"""

import argparse
import os
import random
import re

from random_program_control import ProgramControl
from random_program_data import ProgramData
from random_program_models import ProgramModels
from random_program_ops import ProgramOps
from random_program_values import Value, padded


class Program(ProgramOps, ProgramControl, ProgramData, ProgramModels):
    def __init__(self, rng):
        self.rng = rng
        self.lines, self.values, self.inputs, self.input_lines = [], [], [], []
        self.index_inputs = {}  # integer index inputs, by name: values no op family picks as x
        self.count = 0

    def new(self, expr, shape, bound, positive=False, bcast=None):
        """A value computed by expr. Its static broadcastable dims are `bcast`, by default
        those of an elementwise op: the dims every operand has broadcastable (or lacks)."""
        name = f"v{self.count}"
        self.count += 1
        self.lines.append(f"{name} = {expr}")
        by_name = {v.name: v for v in self.values} | self.index_inputs
        used = [by_name[n] for n in re.findall(r"\b(v\d+|[a-h]|i\d+)\b", expr) if n in by_name]
        deps = frozenset().union(*(u.deps for u in used))
        for u in used:
            u.read = True
        if bcast is None:
            flags = [padded(u, len(shape))[1] for u in used if u.ndim <= len(shape)]
            bcast = [d == 1 and all(f[i] for f in flags) for i, d in enumerate(shape)]
        v = Value(name, shape, min(bound, 1e12), positive, deps, bcast)
        self.values.append(v)
        return v

    def add_input(self, k):
        r = self.rng
        ndim = r.choice([0, 1, 1, 2, 2, 2, 3])
        shape = tuple(r.choice([1, 2, 3, 4]) if r.random() < 0.25 else r.choice([2, 3, 4]) for _ in range(ndim))
        declared = tuple(d if (d == 1 or r.random() < 0.6) else None for d in shape)
        name = "abcdefgh"[k]
        self.input_lines.append(f"{name} = pt.tensor({name!r}, dtype='float64', shape={declared!r})")
        self.inputs.append((name, shape, f"_rng.uniform(-2, 2, size={shape!r})"))
        v = Value(name, shape, 3.0, deps=frozenset([name]), bcast=[d == 1 for d in declared])
        self.values.append(v)
        return v

    def add_index_input(self, indices):
        """An int64 vector input of unknown length whose value is `indices`."""
        name = f"i{len(self.inputs)}"
        self.input_lines.append(f"{name} = pt.tensor({name!r}, dtype='int64', shape=(None,))")
        self.inputs.append((name, (len(indices),), f"np.array({indices!r}, dtype='int64')"))
        self.index_inputs[name] = Value(name, (len(indices),), len(indices), deps=frozenset([name]))
        return name

    # ---- the ops -------------------------------------------------------------------
    def bounded(self, x, limit=4.0):
        """x itself where its bound is small, else tanh(x) times a constant."""
        if x.bound <= limit:
            return x
        return self.new(f"{limit / 2} * pt.tanh({x.name})", x.shape, limit / 2)

    def positive(self, x):
        """A positive function of x."""
        r = self.rng
        k = r.randrange(5)
        if x.positive and r.random() < 0.5:
            return x
        if k == 0:
            return self.new(f"1.0 + pt.sqr({x.name})", x.shape, 1 + x.bound ** 2, True)
        if k == 1:
            b = self.bounded(x, 20.0)
            return self.new(f"pt.exp({b.name})", x.shape, 2.72 ** b.bound, True)
        if k == 2:
            return self.new(f"pt.softplus({x.name})", x.shape, x.bound + 1, True)
        if k == 3:
            return self.new(f"pt.sigmoid({x.name})", x.shape, 1.0, True)
        return self.new(f"pt.abs({x.name}) + 0.5", x.shape, x.bound + 0.5, True)

    def step(self):
        r = self.rng
        x = r.choice(self.values[-4:] if r.random() < 0.6 else self.values)
        kinds = {"unary": 5, "binary": 6, "reduce": 2, "reshape": 2, "index": 2, "combine": 2, "loop": 1,
                 "linalg": 1, "structural": 2, "branch": 1, "while_loop": 0.5, "tapped_loop": 0.5, "subgraph": 0.5,
                 "integer": 1, "masked": 1, "gather": 1, "special": 1.5, "batched": 1, "models": 1.5}
        kind = r.choices(list(kinds), list(kinds.values()))[0]
        return getattr(self, kind)(x)




def generate(seed, k, steps):
    rng = random.Random(f"{seed}/{k}")
    p = Program(rng)
    for i in range(rng.choice([1, 2, 2, 3])):
        p.add_input(i)
    for _ in range(steps):
        p.step()
    # The outputs: the values nothing reads (the latest first, at most four), so that
    # little of what was generated is dead code.
    leaves = [v for v in reversed(p.values) if v.deps and not v.read and v.name.startswith("v")]
    out_values = leaves[:rng.choice([1, 2, 3, 4])] or [v for v in p.values if v.deps][-1:]
    outs = [v.name for v in out_values]
    used = frozenset().union(*(v.deps for v in out_values))
    # A repeated subexpression, for merge: the last value's expression once more.
    last = out_values[0]
    if rng.random() < 0.4:
        expr = next(line for line in p.lines if line.startswith(last.name + " = ")).split(" = ", 1)[1]
        p.lines.append(f"again = {expr}")
        outs.append("again")
    lines = [f'"""Random program {seed}/{k} (tests/pytensor/random_programs.py)."""',
             "import numpy as np", "import pytensor", "import pytensor.tensor as pt",
             "from pytensor.compile.builders import OpFromGraph", "from pytensor.ifelse import ifelse",
             "from pytensor.scan.utils import until", "from pytensor.tensor.signal import convolve1d",
             "from pytensor.tensor.xlogx import xlogx, xlogy0", ""]
    lines += p.input_lines + p.lines
    names = [n for n, _, _ in p.inputs if n in used]
    lines.append(f"inputs = [{', '.join(names)}]")
    lines.append(f"outputs = [{', '.join(outs)}]")
    if rng.random() < 0.5:
        lines.append(f"cost = sum(pt.sum(pt.tanh(o)) for o in outputs)")
        lines.append("wrt = [i for i in inputs if i.dtype.startswith('float')]")
        lines.append("outputs += pytensor.grad(cost, wrt, disconnected_inputs='ignore')")
    # Sums of terms that cancel, and PyTensor's C psi (the gradient of gammaln, ~1e-10
    # relative), differ from tensorlens's in the last digits; a wrong rewrite differs in the first.
    lines.append("reference_rtol = {i: 1e-7 for i in range(len(outputs))}")
    lines.append(f"_rng = np.random.default_rng({rng.randrange(1 << 30)})")
    shapes = ", ".join(f"{n!r}: {value}" for n, _, value in p.inputs if n in used)
    lines.append(f"values = {{{shapes}}}")
    return "\n".join(lines) + "\n"


def write(folder, seed, count, steps=14):
    os.makedirs(folder, exist_ok=True)
    for k in range(count):
        with open(os.path.join(folder, f"random_{seed}_{k}.py"), "w") as f:
            f.write(generate(seed, k, steps))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--steps", type=int, default=14)
    a = ap.parse_args()
    write(a.out, a.seed, a.count, a.steps)
    print(f"wrote {a.count} programs to {a.out}")


if __name__ == "__main__":
    main()
