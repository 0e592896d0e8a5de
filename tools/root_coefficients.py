"""Prints the coefficients of the estimates `crates/oxport/src/color/lanes/
math.rs` starts its roots from: m^(-1/N) · 2^(-(N-1)/2N) for m in [1, 2]
(the second factor is the middle of the 2^(-r/N) that multiplies it) as a
polynomial in z = 2m - 3 (in [-1, 1]), from Chebyshev interpolation at
DEGREE + 1 nodes (near the best polynomial of its degree), highest power
first, with its largest relative error.

    .venv/bin/python tools/root_coefficients.py
"""

import numpy as np
from numpy.polynomial import chebyshev

DEGREE = 6

for n in (3, 5, 12):
    def f(m, n=n):
        return m ** (-1.0 / n) * 2.0 ** (-(n - 1) / (2 * n))

    series = chebyshev.Chebyshev.interpolate(f, DEGREE, domain=[1, 2])
    power = chebyshev.cheb2poly(series.coef)  # in z, since the window is [-1, 1]
    m = np.linspace(1, 2, 1_000_001)
    error = np.max(np.abs(np.polyval(power[::-1], 2 * m - 3) / f(m) - 1))
    print(f"/// m^(−1/{n})·2^(−{n - 1}/{2 * n}) on [1, 2] in powers of 2m − 3, to {error:.1e}.")
    print(f"const INVERSE_ROOT_{n}: [f64; {DEGREE + 1}] = [")
    for c in power[::-1]:
        print(f"    {float(c)!r},")
    print("];")
