"""A Lotka-Volterra predator-prey ODE integrated with fixed-step RK4 inside scan (state vector as a
sit_sot, parameters as non-sequences), observations every second step read by a strided slice, a
log-normal likelihood, and its gradient in the log parameters and the log initial state."""
import numpy as np
import pytensor
import pytensor.tensor as pt

steps, dt = 40, 0.1
obs = pt.matrix("obs", shape=(20, 2))
log_theta = pt.vector("log_theta", shape=(4,))
log_u0 = pt.vector("log_u0", shape=(2,))
log_sigma = pt.scalar("log_sigma")

theta = pt.exp(log_theta)


def f(u, th):
    prey, pred = u[0], u[1]
    return pt.stack([th[0] * prey - th[1] * prey * pred, th[3] * prey * pred - th[2] * pred])


def rk4(u, th):
    k1 = f(u, th)
    k2 = f(u + 0.5 * dt * k1, th)
    k3 = f(u + 0.5 * dt * k2, th)
    k4 = f(u + dt * k3, th)
    return u + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)


traj, _ = pytensor.scan(rk4, outputs_info=pt.exp(log_u0), non_sequences=theta, n_steps=steps)
pred = traj[1::2]
sigma = pt.exp(log_sigma)
ll = pt.sum(-pt.log(obs) - log_sigma - 0.5 * np.log(2 * np.pi) - 0.5 * ((pt.log(obs) - pt.log(pred)) / sigma) ** 2)
grads = pytensor.grad(ll, [log_theta, log_u0, log_sigma])

inputs = [obs, log_theta, log_u0, log_sigma]
outputs = [ll, traj, *grads]

rng = np.random.default_rng(5)


def _sim(th, u):
    out = []
    for _ in range(steps):
        def ff(v):
            return np.array([th[0] * v[0] - th[1] * v[0] * v[1], th[3] * v[0] * v[1] - th[2] * v[1]])
        k1 = ff(u); k2 = ff(u + .5 * dt * k1); k3 = ff(u + .5 * dt * k2); k4 = ff(u + dt * k3)
        u = u + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        out.append(u)
    return np.array(out)


_true = _sim([1.0, 0.1, 1.5, 0.075], np.array([10.0, 5.0]))[1::2]
values = {"obs": _true * np.exp(rng.normal(size=(20, 2)) * 0.1), "log_theta": np.log([0.9, 0.11, 1.4, 0.08]),
          "log_u0": np.log([9.0, 5.5]), "log_sigma": np.log(0.15)}
