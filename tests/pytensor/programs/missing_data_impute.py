"""Missing-data imputation as PyMC does it for masked observations: NaN entries found with isnan,
the observed values with the NaNs replaced (switch), imputed values scattered into the missing
positions by set_subtensor at nonzero indices, a regression log-likelihood over the completed data,
counts by axis, nan_to_num, and the gradient in both the imputed values and the regression weights
(the data stay NaN where the gradient never reads them)."""
import numpy as np
import pytensor
import pytensor.tensor as pt

N = 25
Xr = pt.matrix("Xr", shape=(N, 2))
y = pt.vector("y", shape=(N,))
imp_x = pt.vector("imp_x", shape=(4,))
w = pt.vector("w", shape=(2,))
b = pt.scalar("b")

miss = pt.isnan(Xr)
Xf = pt.switch(miss, 0.0, Xr)
Xc = pt.set_subtensor(Xf[pt.nonzero(miss)], imp_x)
mu = Xc @ w + b
y_ok = ~pt.isnan(y)
resid = pt.switch(y_ok, y - mu, 0.0)
ll = -0.5 * pt.sum(resid ** 2) - 0.5 * pt.sum(imp_x ** 2)
n_miss_col = pt.sum(miss, axis=0)
row_any = pt.any(miss, axis=1)
clean = pt.nan_to_num(Xr, nan=-99.0)
grads = pytensor.grad(ll, [imp_x, w, b])

inputs = [Xr, y, imp_x, w, b]
outputs = [ll, Xc, n_miss_col, row_any, clean, pt.sum(y_ok), *grads]

rng = np.random.default_rng(71)
_X = rng.normal(size=(N, 2))
_y = _X @ [1.0, -0.5] + 0.3 + rng.normal(size=N) * 0.2
_X[[2, 7, 7, 19], [0, 0, 1, 1]] = np.nan
_y[[4, 11]] = np.nan
values = {"Xr": _X, "y": _y, "imp_x": np.array([0.1, -0.2, 0.3, 0.0]), "w": np.array([0.9, -0.4]), "b": 0.2}
