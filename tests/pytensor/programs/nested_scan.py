"""Nested loops: an outer scan over time whose step runs an inner scan (a Horner evaluation of a
polynomial whose coefficients depend on the outer state), a discounted-return computation as a
backwards inner scan over the remaining rewards, and the gradient of the total through both levels."""
import numpy as np
import pytensor
import pytensor.tensor as pt

T, P = 8, 4
xs = pt.vector("xs", shape=(T,))
coef = pt.vector("coef", shape=(P,))
s0 = pt.scalar("s0")
gamma_d = pt.scalar("gamma_d")


def outer_step(x, s, coef):
    c = coef * pt.tanh(s)

    def horner(ci, acc, x):
        return acc * x + ci

    val, _ = pytensor.scan(horner, sequences=c, outputs_info=pt.zeros(()), non_sequences=x)
    return 0.5 * s + 0.3 * val[-1]


states, _ = pytensor.scan(outer_step, sequences=xs, outputs_info=s0, non_sequences=coef)


def disc(r, g, gamma_d):
    return r + gamma_d * g


rewards = -(states - 0.2) ** 2
returns, _ = pytensor.scan(disc, sequences=rewards, outputs_info=pt.zeros(()), non_sequences=gamma_d,
                           go_backwards=True)
total = returns[-1] + pt.sum(states)
g_coef, g_s0, g_gamma = pytensor.grad(total, [coef, s0, gamma_d])

inputs = [xs, coef, s0, gamma_d]
outputs = [states, returns, total, g_coef, g_s0, g_gamma]

rng = np.random.default_rng(23)
values = {"xs": rng.uniform(-1, 1, size=T), "coef": np.array([0.5, -0.3, 0.8, 0.1]), "s0": 0.4,
          "gamma_d": 0.9}
