"""Loops that run no step: a scan over an empty sequence, a scan with n_steps = 0 given at run
time, a while loop whose condition holds at once (one step, as PyTensor's do-while), their sums and
lengths, and the gradient of the while loop's last value. (PyTensor 2.34 cannot run the gradient
of a loop with no step: its backward Scan asks for one step of an empty sequence.)"""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.scan.utils import until

seq = pt.vector("seq", shape=(None,))
n = pt.lscalar("n")
x0 = pt.scalar("x0")
w = pt.scalar("w")

cum, _ = pytensor.scan(lambda s, acc: acc + s * w, sequences=[seq], outputs_info=[x0])
pw, _ = pytensor.scan(lambda acc: acc * w, outputs_info=[x0], n_steps=n)
halve, _ = pytensor.scan(lambda acc: (acc / 2, until(acc < 100)), outputs_info=[x0], n_steps=50)

outputs = [
    cum, pt.sum(cum), pw, pt.sum(pw), halve, halve[-1], halve.shape[0],
    pytensor.grad(halve[-1], x0),
]
inputs = [seq, n, x0, w]
values = {"seq": np.zeros((0,)), "n": np.array(0, dtype="int64"), "x0": np.array(3.0), "w": np.array(1.5)}
