"""Planar two-link arm kinematics: forward kinematics with cos/sin, the end-effector angle with
arctan2 and distance with sqrt of a sum of squares, Newton's method for inverse kinematics in a scan
(a 2x2 Jacobian built with stack and a solve per step), the residual after the iterations, and the
gradient of a trajectory cost in the link lengths through the scan."""
import numpy as np
import pytensor
import pytensor.tensor as pt

lengths = pt.vector("lengths", shape=(2,))
target = pt.vector("target", shape=(2,))
q0 = pt.vector("q0", shape=(2,))
angles = pt.matrix("angles", shape=(10, 2))


def fk(q, l):
    x = l[0] * pt.cos(q[0]) + l[1] * pt.cos(q[0] + q[1])
    y = l[0] * pt.sin(q[0]) + l[1] * pt.sin(q[0] + q[1])
    return pt.stack([x, y])


def jac(q, l):
    s1, c1 = pt.sin(q[0]), pt.cos(q[0])
    s12, c12 = pt.sin(q[0] + q[1]), pt.cos(q[0] + q[1])
    return pt.stack([pt.stack([-l[0] * s1 - l[1] * s12, -l[1] * s12]),
                     pt.stack([l[0] * c1 + l[1] * c12, l[1] * c12])])


def newton(q, l, tgt):
    r = fk(q, l) - tgt
    return q - pt.linalg.solve(jac(q, l), r)


qs, _ = pytensor.scan(newton, outputs_info=q0, non_sequences=[lengths, target], n_steps=6)
resid = pt.sqrt(pt.sum((fk(qs[1], lengths) - target) ** 2))  # after two Newton steps
pts, _ = pytensor.map(lambda q, l: fk(q, l), sequences=angles, non_sequences=lengths)
heading = pt.arctan2(pts[:, 1], pts[:, 0])
dist = pt.sqrt(pts[:, 0] ** 2 + pts[:, 1] ** 2)
cost = pt.sum((heading - pt.deg2rad(30.0)) ** 2) + pt.sum(dist) + pt.sum(qs[-1] ** 2)
g_len, g_tgt = pytensor.grad(cost, [lengths, target])

inputs = [lengths, target, q0, angles]
outputs = [qs, resid, heading, dist, cost, g_len, g_tgt]

rng = np.random.default_rng(79)
values = {"lengths": np.array([1.0, 0.7]), "target": np.array([1.1, 0.6]), "q0": np.array([0.3, 0.8]),
          "angles": rng.uniform(-1.2, 1.2, size=(10, 2))}
