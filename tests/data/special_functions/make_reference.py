"""Writes reference.json: scipy's values of the special functions tensorlens computes with
Boost.Math, over representative arguments and the edges of each domain (poles, zeros, signed
zeros, infinities, NaN, overflow), for tests/engine/tst_special_functions.cpp.

Each function is evaluated as PyTensor's Python implementation (pytensor/scalar/math.py,
`impl`) evaluates it: scipy.special on float64, with gammau = gammaincc * gamma,
gammal = gammainc * gamma, tri_gamma = polygamma(1, x), log1mexp by PyTensor's formula.
Beside scipy's value, each row with finite arguments also holds the exact value computed by
mpmath at 40 digits (null where mpmath has no finite real counterpart), because scipy itself
is off in places (its betaincinv near p = 1, i0 just below the overflow threshold, iv of tiny
x): the test then knows whether a disagreement with scipy is tensorlens's error or scipy's.

Regenerate with the real PyTensor environment (numpy and scipy) and mpmath
(Debian's python3-mpmath, or any mpmath on PYTHONPATH):

    ../shared/pytensor/python.sh tests/data/special_functions/make_reference.py [FUNCTION ...]

(about 20 minutes for all, most of it betaincinv's exact roots).
"""

import itertools
import json
import math
import os
import signal
import sys
import time

import mpmath as mp
import numpy as np
import scipy
from scipy import special as sp

mp.mp.dps = 40

inf, nan = math.inf, math.nan


def log1mexp(x):  # PyTensor's Log1mexp.impl
    return np.log1p(-np.exp(x)) if x < np.log(0.5) else np.log(-np.expm1(x))


# name -> (function, list of argument tuples)
X_GAMMA = [-inf, -1e10, -170.5, -100.5, -10.5, -3, -2.5, -2, -1.5, -1, -0.5, -1e-10, -0.0, 0.0, 1e-300, 1e-10,
           0.1, 0.5, 1, 1.5, 2, 2.5, 3.7, 5, 10, 10.5, 20.5, 50, 100, 170.5, 171.6, 172, 1e5, 1e10, 1e300, inf, nan]
X_PSI = [-inf, -1e10 - 0.5, -100.25, -10.5, -3, -2.5, -2, -1.5, -1, -0.75, -0.5, -1e-10, -0.0, 0.0, 1e-300, 1e-10,
         0.1, 0.5, 1, 1.4616321449683622, 2, 2.5, 5, 8.5, 10, 30, 100, 1e5, 1e10, 1e300, inf, nan]
X_REAL = [-inf, -1e300, -1e10, -100, -30, -10, -5, -2.5, -1, -0.5, -1e-10, -0.0, 0.0, 1e-300, 1e-10, 0.1, 0.5, 1,
          2.404825557695773, 3.8317059702075125, 5, 10, 26, 27, 30, 50, 100, 700, 713, 714, 1000, 1e5, 1e10,
          1e300, inf, nan]
X_UNIT = [-inf, -1.5, -1, -0.999999999, -0.9, -0.5, -0.1, -1e-10, -1e-300, -0.0, 0.0, 1e-300, 1e-10, 0.1, 0.5, 0.9,
          0.999, 0.999999999, 1 - 2 ** -52, 1, 1.5, inf, nan]
X_ERFC = [-inf, -1, -0.5, -0.0, 0.0, 1e-300, 1e-100, 1e-10, 0.01, 0.1, 0.5, 1, 1.5, 1.9, 1.99999, 2 - 2 ** -51,
          2, 2.5, inf, nan]
X_LOG1MEXP = [-inf, -1e300, -1000, -745, -50, -10, -1, -0.6931471805599453, -0.6931471805599452, -0.5, -1e-5,
              -1e-10, -1e-300, -0.0, 0.0, 1e-10, 1, inf, nan]
# scipy's polygamma (Hurwitz zeta) does not return for x = -1e10 - 0.5.
X_POLYGAMMA = [x for x in X_PSI if not (x < -1e9)]
K_INC = [-1, 0, 1e-300, 1e-3, 0.5, 1, 2.5, 10, 30.5, 100, 1e4, 1e6, inf, nan]
X_INC = [-1, 0, 1e-300, 1e-10, 1e-3, 0.5, 1, 2.5, 10, 30, 100, 1e4, 1e6, inf, nan]
V_BESSEL = [-10.5, -2.5, -2, -1, -0.5, 0, 0.5, 1, 2, 2.5, 10, 10.5, 50, inf, nan]
X_BESSEL = [-inf, -4e4, -50, -5, -1, -1e-10, -0.0, 0.0, 1e-300, 1e-10, 0.5, 1, 5, 50, 500, 1e3, 1e4, 1.4e4, 4e4, 1e6, inf, nan]
H_OWENS = [-inf, -10, -3, -1, -0.5, 0, 1e-10, 0.5, 1, 2.5, 3, 8, 10, 40, inf, nan]
A_OWENS = [-inf, -10, -1, -0.5, 0, 1e-10, 0.1, 0.5, 0.99, 1, 1.01, 2, 10, 100, 1e5, inf, nan]
AB_BETA = [-1, 0, 1e-3, 0.1, 0.5, 1, 2, 5.5, 50, 1e3, inf, nan]
X_BETA = [-0.1, 0, 1e-300, 1e-10, 0.1, 0.5, 0.9, 1 - 1e-10, 1, 1.1, nan]
P_INV = [-0.1, 0, 1e-300, 1e-10, 0.1, 0.5, 0.9, 1 - 1e-10, 1, 1.1, nan]
HYP_ABC = [(1, 1, 2), (0.5, 0.5, 1.5), (0.5, 1, 1.5), (1.5, 2.5, 3.75), (-3, 2, 1), (-2, 0.5, 3), (2.5, -1, 0.5),
           (0.3, 0.4, 0.9), (1, 1, 0), (1, 1, -1.5), (3, 4, 5), (3, 4, 8), (0.25, 0.75, 1.5), (1, 2, 3), (5, 5, 2),
           (nan, 1, 2)]
Z_HYP = [-inf, -1e3, -10, -2, -1, -0.9, -0.5, -1e-10, 0, 1e-10, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999999, 1, 1.5, inf, nan]


def grid(*axes):
    return [tuple(t) for t in itertools.product(*axes)]


FUNCTIONS = {
    "gamma": (sp.gamma, grid(X_GAMMA)),
    "gammaln": (sp.gammaln, grid(X_GAMMA)),
    "psi": (sp.psi, grid(X_PSI)),
    "tri_gamma": (lambda x: sp.polygamma(1, x), grid(X_POLYGAMMA)),
    "polygamma": (sp.polygamma, grid([0, 1, 2, 3, 5, 10], X_POLYGAMMA)),
    "erfcx": (sp.erfcx, grid(X_REAL)),
    "erfinv": (sp.erfinv, grid(X_UNIT)),
    "erfcinv": (sp.erfcinv, grid(X_ERFC)),
    "log1mexp": (log1mexp, grid(X_LOG1MEXP)),
    "j0": (sp.j0, grid(X_REAL)),
    "j1": (sp.j1, grid(X_REAL)),
    "i0": (sp.i0, grid(X_REAL)),
    "i1": (sp.i1, grid(X_REAL)),
    "jv": (sp.jv, grid(V_BESSEL, X_BESSEL)),
    "iv": (sp.iv, grid(V_BESSEL, X_BESSEL)),
    "ive": (sp.ive, grid(V_BESSEL, X_BESSEL)),
    "kve": (sp.kve, grid(V_BESSEL, X_BESSEL)),
    "gammainc": (sp.gammainc, grid(K_INC, X_INC)),
    "gammaincc": (sp.gammaincc, grid(K_INC, X_INC)),
    "gammau": (lambda k, x: sp.gammaincc(k, x) * sp.gamma(k), grid(K_INC, X_INC)),
    "gammal": (lambda k, x: sp.gammainc(k, x) * sp.gamma(k), grid(K_INC, X_INC)),
    "gammaincinv": (sp.gammaincinv, grid(K_INC, P_INV)),
    "gammainccinv": (sp.gammainccinv, grid(K_INC, P_INV)),
    "owens_t": (sp.owens_t, grid(H_OWENS, A_OWENS)),
    "betainc": (sp.betainc, grid(AB_BETA, AB_BETA, X_BETA)),
    "betaincinv": (sp.betaincinv, grid(AB_BETA, AB_BETA, P_INV)),
    "hyp2f1": (sp.hyp2f1, [(*abc, z) for abc in HYP_ABC for z in Z_HYP]),
}


def _bracket_root(f, lo, hi):
    """The root of the increasing function f on (lo, hi): bisection of the exponent until the
    bracket is within a factor 2, then mpmath's bracketing Anderson-Bjorck solver."""
    lo, hi = mp.mpf(lo), mp.mpf(hi)
    tiny = mp.mpf(10) ** -320
    if f(tiny) > 0:
        lo, hi = mp.mpf(0), tiny
    else:
        lo = tiny
        while hi / lo > 2:
            mid = mp.sqrt(lo * hi)
            if f(mid) > 0:
                hi = mid
            else:
                lo = mid
    return mp.findroot(f, (lo, hi), solver="anderson", tol=mp.mpf(10) ** -60, maxsteps=200)


def _owens_t(h, a):
    h, a = mp.mpf(h), mp.mpf(a)
    return mp.quad(lambda t: mp.exp(-h * h * (1 + t * t) / 2) / (1 + t * t), [0, a]) / (2 * mp.pi)


def _erfcinv(x):
    x = mp.mpf(x)
    with mp.workdps(40 + int(max(0, -mp.log10(x))) if x > 0 else 40):
        return mp.erfinv(1 - x)


# name -> exact value by mpmath (arguments as mpf), for finite scipy values.
TRUTH = {
    "gamma": lambda x: mp.gamma(x),
    "gammaln": lambda x: mp.re(mp.loggamma(x)),
    "psi": lambda x: mp.digamma(x),
    "tri_gamma": lambda x: mp.polygamma(1, x),
    "polygamma": lambda n, x: mp.polygamma(int(n), x),
    "erfcx": lambda x: mp.exp(x * x) * mp.erfc(x),
    "erfinv": lambda x: mp.erfinv(x),
    "erfcinv": _erfcinv,
    "log1mexp": lambda x: mp.log(1 - mp.exp(x)),
    "j0": lambda x: mp.besselj(0, x),
    "j1": lambda x: mp.besselj(1, x),
    "i0": lambda x: mp.besseli(0, x),
    "i1": lambda x: mp.besseli(1, x),
    "jv": lambda v, x: mp.besselj(v, x),
    # I_-n = I_n for an integer order (mpmath's limit for a negative integer order is slow).
    "iv": lambda v, x: mp.besseli(abs(v) if v == int(v) else v, x),
    "ive": lambda v, x: mp.besseli(abs(v) if v == int(v) else v, x) * mp.exp(-abs(x)),
    "kve": lambda v, x: mp.besselk(v, x) * mp.exp(x),
    "gammainc": lambda k, x: mp.gammainc(k, 0, x, regularized=True),
    "gammaincc": lambda k, x: mp.gammainc(k, x, mp.inf, regularized=True),
    "gammau": lambda k, x: mp.gammainc(k, x, mp.inf),
    "gammal": lambda k, x: mp.gammainc(k, 0, x),
    "gammaincinv": lambda k, p: _bracket_root(lambda t: mp.gammainc(k, 0, t, regularized=True) - p, 0, 1e8),
    "gammainccinv": lambda k, q: _bracket_root(lambda t: q - mp.gammainc(k, t, mp.inf, regularized=True), 0, 1e8),
    "owens_t": _owens_t,
    "betainc": lambda a, b, x: mp.betainc(a, b, 0, x, regularized=True),
    "betaincinv": lambda a, b, p: _bracket_root(lambda t: mp.betainc(a, b, 0, t, regularized=True) - p, 0, 1),
    "hyp2f1": lambda a, b, c, z: mp.hyp2f1(a, b, c, z),
}


ROW_SECONDS = 10.0


class RowTimeLimit(Exception):
    pass


def _give_up(signum, frame):
    raise RowTimeLimit()


def truth(name, args):
    """mpmath's value, or None where there is no finite real one to compare with."""
    # mpmath's own methods give up (or take hours) for arguments beyond 1e12; slower
    # rows end at ROW_SECONDS.
    if not all(math.isfinite(a) and abs(a) <= 1e12 for a in args):
        return None
    # A row mpmath cannot settle within ROW_SECONDS (its hyp2f1 near z = 1, betaincinv with
    # extreme shapes) keeps scipy's value only, so that regenerating takes minutes, not hours.
    signal.signal(signal.SIGALRM, _give_up)
    signal.setitimer(signal.ITIMER_REAL, ROW_SECONDS)
    try:
        t = TRUTH[name](*[mp.mpf(a) for a in args])
    except Exception:  # mpmath's domain errors, non-convergence, overflow, time limit
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    if isinstance(t, mp.mpc):
        if abs(mp.im(t)) > 1e-30 * abs(t):
            return None
        t = mp.re(t)
    return float(t)  # ±inf or 0 where the true value over- or underflows a double


def as_json(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == 0 and math.copysign(1, v) < 0:
        return "-0.0"
    return v


def main():
    """With function names as arguments, only those are computed again and the others
    kept from the existing reference.json."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference.json")
    only = sys.argv[1:]
    unknown = [n for n in only if n not in FUNCTIONS]
    if unknown:
        sys.exit(f"unknown functions: {', '.join(unknown)}")
    out = {"generator": "tests/data/special_functions/make_reference.py", "scipy": scipy.__version__,
           "numpy": np.__version__, "functions": {}}
    if only:
        with open(path) as f:
            out["functions"] = json.load(f)["functions"]
    with np.errstate(all="ignore"):
        for name, (fn, args) in FUNCTIONS.items():
            if only and name not in only:
                continue
            started = time.monotonic()
            rows = []
            for a in args:
                value = float(fn(*[np.float64(x) for x in a]))
                t = truth(name, a)
                rows.append([[as_json(x) for x in a], as_json(value), None if t is None else as_json(t)])
            out["functions"][name] = rows
            exact = sum(r[2] is not None for r in rows)
            print(f"  {name} ({len(rows)} rows, {exact} with mpmath's value): "
                  f"{time.monotonic() - started:.0f} s", flush=True)
    with open(path, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print(path, sum(len(r) for r in out["functions"].values()), "values")
    for name, rows in out["functions"].items():
        worst = max((abs(r[1] - r[2]) / max(abs(r[2]), 1e-300) for r in rows
                     if isinstance(r[1], float) and isinstance(r[2], float) and r[2] != 0), default=0.0)
        print(f"  {name:14s} scipy vs mpmath: worst relative difference {worst:.3g}")


if __name__ == "__main__":
    main()
