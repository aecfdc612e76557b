"""Loops whose number of steps is an input: the last value and the last two rows of a
sit_sot, a while loop's last value, and a mit_sot read at [-1], each sized by
scan_save_mem with a symbolic length."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.scan.utils import until

n = pt.iscalar("n")
a = pt.vector("a", shape=(3,))
lim = pt.scalar("lim")

xs = pytensor.scan(lambda s: s * 1.1 - 0.05, outputs_info=[a], n_steps=n)[0]
ws = pytensor.scan(lambda s, lim: (s * 1.5 + 0.1, until(s.sum() > lim)), outputs_info=[a],
                   non_sequences=[lim], n_steps=n * 3)[0]
ms = pytensor.scan(lambda m2, m1: m1 - 0.3 * m2, outputs_info=[dict(initial=pt.stack([a, -a]), taps=[-2, -1])], n_steps=n + 2)[0]

inputs = [n, a, lim]
outputs = [xs[-1], xs[-2:], ws[-1], ws.shape[0], ms[-1]]
values = {"n": np.array(6, dtype="int32"), "a": np.array([0.3, 0.1, -0.2]), "lim": np.array(4.0)}
