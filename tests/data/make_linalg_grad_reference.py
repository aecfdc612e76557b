"""Reference values of the spectral gradient ops, EighGrad and EigvalshGrad, and of
Expm's gradient ExpmGrad, computed by
PyTensor 2.34 itself (its ops' perform, run through compiled functions):

    ../shared/pytensor/python.sh tests/data/make_linalg_grad_reference.py > tests/data/linalg_grad_reference.json

tests/engine/tst_linalg_spectral_grad.cpp reads the JSON, in the format of
linalg_reference.json: each case has named input arrays, the arrays PyTensor returns
for them and the op's props. The "graph_*" cases are the gradients PyTensor's grad
builds through Eigh, Eigvalsh and Expm, with the graph's input and the gradient it computes."""
import json
import sys

import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.tensor.nlinalg import EighGrad
from pytensor.tensor.slinalg import EigvalshGrad, ExpmGrad

from reference_arrays import arr  # beside this script

rng = np.random.default_rng(20250214)


cases = {}


def run_op(op, values):
    """op applied to matrices / vectors of the values' dtypes and shapes, compiled and run."""
    ins = [pt.tensor(dtype=str(v.dtype), shape=(None,) * v.ndim) for v in values]
    outs = op(*ins)
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    return pytensor.function(ins, outs)(*values)


def eigh_case(name, uplo, x, gw, gv, w=None, v=None):
    if w is None:
        w, v = np.linalg.eigh(x, uplo)
    values = [x, w, v, gw, gv]
    out = run_op(EighGrad(uplo), values)
    cases[name] = {"inputs": {k: arr(a) for k, a in zip(("x", "w", "v", "gw", "gv"), values)},
                   "outputs": [arr(o) for o in out], "params": {"UPLO": uplo}}


def eigvalsh_case(name, lower, a, b, gw):
    out = run_op(EigvalshGrad(lower), [a, b, gw])
    cases[name] = {"inputs": {"a": arr(a), "b": arr(b), "gw": arr(gw)}, "outputs": [arr(o) for o in out],
                   "params": {"lower": lower}}


n = 4
G = rng.normal(size=(n, n))
Sym = G + G.T
NonSym = rng.normal(size=(n, n))      # eigh reads one triangle of it
S = rng.normal(size=(n, n))
Spd = S @ S.T + n * np.eye(n)
gw = rng.normal(size=n)
gv = rng.normal(size=(n, n))

# EighGrad(UPLO)(x, w, v, gw, gv)
eigh_case("eigh_grad_lower", "L", Sym, gw, gv)
eigh_case("eigh_grad_upper", "U", NonSym, gw, gv)
eigh_case("eigh_grad_values_only", "L", Sym, gw, np.zeros((n, n)))
eigh_case("eigh_grad_vectors_only", "U", Sym, np.zeros(n), gv)
eigh_case("eigh_grad_float32", "L", Sym.astype(np.float32), gw.astype(np.float32), gv.astype(np.float32))
eigh_case("eigh_grad_1x1", "L", np.array([[2.5]]), np.array([0.7]), np.array([[-1.3]]))
# A repeated eigenvalue divides by zero: NaN where gv is zero, as PyTensor gives it.
eigh_case("eigh_grad_repeated", "L", np.diag([1.0, 1.0, 3.0]), np.array([0.5, -1.0, 2.0]), np.zeros((3, 3)))

# EigvalshGrad(lower)(a, b, gw)
eigvalsh_case("eigvalsh_grad_lower", True, Sym, Spd, gw)
eigvalsh_case("eigvalsh_grad_upper", False, NonSym, Spd + np.triu(NonSym, 1), gw)
eigvalsh_case("eigvalsh_grad_identity_b", True, Sym, np.eye(n), gw)
eigvalsh_case("eigvalsh_grad_float32", True, Sym.astype(np.float32), Spd.astype(np.float32), gw.astype(np.float32))
eigvalsh_case("eigvalsh_grad_float32_gw64", True, Sym.astype(np.float32), Spd.astype(np.float32), gw)

# ExpmGrad()(A, gA): real eigenvalues, complex pairs, a repeated eigenvalue (NaN, as
# PyTensor divides by w_i - w_j as it stands), float32, 1x1 and an integer A.
def expm_grad_case(name, a, ga):
    out = run_op(ExpmGrad(), [a, ga])
    cases[name] = {"inputs": {"a": arr(a), "ga": arr(ga)}, "outputs": [arr(o) for o in out], "params": {}}


expm_grad_case("expm_grad_real", Sym / 4, gv)
expm_grad_case("expm_grad_complex", NonSym, gv)
expm_grad_case("expm_grad_rotation", np.array([[0.0, -1.5, 0.2], [1.5, 0.0, 0.1], [0.0, 0.3, -0.4]]), gv[:3, :3])
expm_grad_case("expm_grad_repeated", np.diag([1.0, 1.0, 3.0]), gv[:3, :3])
expm_grad_case("expm_grad_float32", NonSym.astype(np.float32), gv.astype(np.float32))
expm_grad_case("expm_grad_1x1", np.array([[0.7]]), np.array([[-1.3]]))
expm_grad_case("expm_grad_int", np.array([[1, 2], [0, -1]], dtype="int64"), np.array([[0.5, 1.0], [-2.0, 3.0]]))

# The reproducers: the gradients PyTensor's grad builds through Eigh and Eigvalsh.
A = pt.matrix("A", shape=(3, 3))
x0 = rng.normal(size=(3, 3))
g = pytensor.grad(pt.linalg.eigh(A + A.T)[0].sum(), A)
cases["graph_eigh_values"] = {"inputs": {"A": arr(x0)}, "outputs": [arr(pytensor.function([A], g)(x0))], "params": {}}
g = pytensor.grad((pt.linalg.eigh(A + A.T)[1] ** 2 * np.arange(9.0).reshape(3, 3)).sum(), A)
cases["graph_eigh_vectors"] = {"inputs": {"A": arr(x0)}, "outputs": [arr(pytensor.function([A], g)(x0))], "params": {}}
g = pytensor.grad(pt.linalg.eigvalsh(A, pt.eye(3)).sum(), A)
cases["graph_eigvalsh"] = {"inputs": {"A": arr(x0)}, "outputs": [arr(pytensor.function([A], g)(x0))], "params": {}}
g = pytensor.grad((pt.linalg.expm(A) * np.arange(9.0).reshape(3, 3)).sum(), A)
cases["graph_expm"] = {"inputs": {"A": arr(x0)}, "outputs": [arr(pytensor.function([A], g)(x0))], "params": {}}

json.dump({"generated_by": "tests/data/make_linalg_grad_reference.py", "pytensor": pytensor.__version__,
           "numpy": np.__version__, "scipy": __import__("scipy").__version__, "cases": cases},
          sys.stdout, indent=None, allow_nan=False)
print()
