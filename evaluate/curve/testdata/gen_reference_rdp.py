#!/usr/bin/env python3
"""Reference values for the Rényi-DP, zCDP and DP-SGD conversions.

An INDEPENDENT mpmath implementation (mp.dps = 40; a subset is recomputed at
60 digits as a self-check) written from the mathematics, sharing no code or
numerical scheme with the Go package `evaluate` (rdp.go, dpsgd.go).  It
produces reference_rdp.csv, read by ../reference_rdp_test.go.

What is computed
----------------
Single RDP guarantee (order a > 1, eps).  With E = exp((a-1) eps), a test of
type I error x and type II error y gives the Bernoulli pair P' = (x, 1-x),
Q' = (1-y, y); the data-processing inequality for D_a in both directions
requires

    g1 = x^a (1-y)^(1-a) + (1-x)^a y^(1-a)   <= E      (D_a(P'||Q') <= eps)
    g2 = (1-y)^a x^(1-a) + y^a (1-x)^(1-a)   <= E      (D_a(Q'||P') <= eps)

and f(x) is the smallest y in [0, 1-x] satisfying both (Zhu, Dong & Wang 2022;
Balle et al. 2020).  Both g's are convex in y with their minimum 1 at
y = 1-x, so the feasible y form an interval [f(x), 1-x]; f(x) is found as the
root of phi(y) = max(ln g1, ln g2) - (a-1) eps by a bracketing solver
(geometric search for a finite bracket, then Illinois/bisection in y to
~1e-38 relative).  advantage_x = 1 - f(x) - x.  eta = max_x (1 - f(x) - x);
the curve is convex and symmetric, so it is attained at the fixed point
f(x*) = x*: x* is the smallest x in (0, 1/2] with g(x, y = x) <= E, and
eta = 1 - 2 x*.

zCDP rho: f(x) = sup_{a > 1} f_a(x) with eps_a = rho a, including the limit
a -> 1, where the constraints are KL(P'||Q') <= rho and KL(Q'||P') <= rho.
The supremum is found by scanning a-1 = 10^(k/8), k = -64..40 (plus the KL
limit), then golden-section search in ln(a-1) between the neighbours of the
best scan point (to 1e-7 in ln(a-1); f is flat to second order there).
eta = 1 - 2 x* with x* = sup_a x*_a (the fixed point of a maximum of
symmetric convex curves is the maximum of their fixed points), searched the
same way.  eps_at_delta (improved conversion, Balle et al. 2020 / Canonne,
Kamath & Steinke 2020, as in dp_accounting):

    eps(delta) = min_{a > 1} [ rho a + ln((a-1)/a) - (ln delta + ln a)/(a-1) ],

minimised by a scan of a-1 = 10^(k/40) then golden-section search; reported
as max(0, .) and as 0 when delta >= eta.  delta in {1e-5, 1e-10}; the delta
and eps_at_delta cells hold both values separated by ';'.

DP-SGD (Poisson-subsampled Gaussian, Mironov, Talwar & Zhang 2019), integer
orders a = 2..64 only:

    A_a = sum_{k=0}^{a} C(a,k) (1-q)^(a-k) q^k exp((k^2 - k)/(2 sigma^2)),
    eps_a = steps * ln(A_a)/(a-1),

evaluated exactly in mpmath from the doubles q and sigma.  The alpha and
eps_alpha cells hold the 63 orders and composed eps_a separated by ';'.
The curve is the maximum over those orders of the single-order curves:
f_x = max_a f_a(0.1), advantage_x = 1 - 0.1 - f_x, eta = min_a eta_a, and
eps_at_delta at delta = 1e-5 is the improved conversion minimised over the
63 orders (max(0, .), 0 when delta >= eta).

Inputs are drawn by Python's `random` with a fixed seed, rounded to IEEE
doubles, written with repr() and converted exactly to mpf, so each reference
value belongs exactly to the double in the CSV.  Outputs are the correctly
rounded doubles of the 40-digit values, written with repr().

Regenerate (deterministic, python3 + mpmath 1.3.0 only; a few minutes):

    cd evaluate/curve/testdata && python3 gen_reference_rdp.py

which rewrites reference_rdp.csv next to this script and prints the 60-digit
self-check deviations.
"""

import csv
import math
import os
import random
import sys

import mpmath
from mpmath import mp, mpf

mp.dps = 40

COLUMNS = ["kind", "alpha", "eps_alpha", "rho", "noise_multiplier",
           "sample_rate", "steps", "delta", "x", "f_x", "advantage_x", "eta",
           "eps_at_delta"]


# ---------------------------------------------------------------------------
# Root solver: smallest feasible v in (0, hi], where feasible(v) <=> phi(v) <= 0,
# phi increasing, phi(0+) = +inf, phi(hi) < 0.
# ---------------------------------------------------------------------------

def smallest_feasible(phi, hi):
    hi = mpf(hi)
    phi_hi = phi(hi)
    if phi_hi > 0:
        raise ValueError("upper end infeasible")
    # Finite bracket: shrink hi geometrically (squaring once below 1/2) until
    # an infeasible point is found.
    lo = None
    cur = hi
    while True:
        nxt = cur * min(mpf(1) / 2, cur)
        p = phi(nxt)
        if p > 0:
            lo, phi_lo = nxt, p
            break
        hi, phi_hi = nxt, p
        cur = nxt
    # Geometric bisection until hi/lo <= 2.
    while hi > 2 * lo:
        mid = mpmath.sqrt(lo * hi)
        p = phi(mid)
        if p > 0:
            lo, phi_lo = mid, p
        else:
            hi, phi_hi = mid, p
    # Illinois (regula falsi with halving) with bisection fallback.
    tol = hi * mpf(10) ** (-(mp.dps - 2))
    side = 0
    for it in range(400):
        if hi - lo <= tol:
            break
        width = hi - lo
        if it % 4 == 3:
            mid = (lo + hi) / 2
        else:
            mid = hi - phi_hi * (hi - lo) / (phi_hi - phi_lo)
            if not (lo < mid < hi):
                mid = (lo + hi) / 2
        p = phi(mid)
        if p > 0:
            lo, phi_lo = mid, p
            if side == -1:
                phi_hi /= 2
            side = -1
        elif p < 0:
            hi, phi_hi = mid, p
            if side == 1:
                phi_lo /= 2
            side = 1
        else:
            return mid
    else:
        raise RuntimeError("no convergence")
    return hi


# ---------------------------------------------------------------------------
# Single-order constraint functions.
# ---------------------------------------------------------------------------

def phi_order(a, eps, x, y):
    """max(ln g1, ln g2) - (a-1) eps at the point (x, y); a = 1 is KL."""
    x, y = mpf(x), mpf(y)
    nx, ny = 1 - x, 1 - y
    if a == 1:
        k1 = x * mpmath.log(x / ny) + nx * mpmath.log(nx / y)
        k2 = ny * mpmath.log(ny / x) + y * mpmath.log(y / nx)
        return max(k1, k2) - eps
    a = mpf(a)
    b = 1 - a
    g1 = x ** a * ny ** b + nx ** a * y ** b
    g2 = ny ** a * x ** b + y ** a * nx ** b
    return mpmath.log(max(g1, g2)) - (a - 1) * eps


def curve(a, eps, x):
    """f_a(x): smallest y in (0, 1-x] satisfying both constraints."""
    x = mpf(x)
    if eps == 0:
        return 1 - x
    return smallest_feasible(lambda y: phi_order(a, eps, x, y), 1 - x)


def fixed_point(a, eps):
    """x* = smallest x in (0, 1/2] with (x, x) feasible."""
    if eps == 0:
        return mpf(1) / 2
    return smallest_feasible(lambda v: phi_order(a, eps, v, v), mpf(1) / 2)


# ---------------------------------------------------------------------------
# Maximisation over orders (zCDP).
# ---------------------------------------------------------------------------

INVPHI = (mpmath.sqrt(5) - 1) / 2


def golden_max(fn, lo, hi, tol):
    """Maximise fn over [lo, hi] (unimodal assumed) by golden-section."""
    c = hi - INVPHI * (hi - lo)
    d = lo + INVPHI * (hi - lo)
    fc, fd = fn(c), fn(d)
    best = max((fc, c), (fd, d))
    while hi - lo > tol:
        if fc >= fd:
            hi, d, fd = d, c, fc
            c = hi - INVPHI * (hi - lo)
            fc = fn(c)
            best = max(best, (fc, c))
        else:
            lo, c, fc = c, d, fd
            d = lo + INVPHI * (hi - lo)
            fd = fn(d)
            best = max(best, (fd, d))
    return best


EDGE_HITS = [0, 0, 0]  # scan optimum at low edge / interior / high edge
ZSCAN = [k / 8 for k in range(-64, 41)]  # log10(a-1)


def sup_over_orders(fn_of_order):
    """sup_{a >= 1} fn(a) (a = 1 is the KL limit) by scan + golden search."""
    vals = [fn_of_order(1 + mpf(10) ** mpf(s)) for s in ZSCAN]
    i = max(range(len(vals)), key=lambda j: vals[j])
    best = vals[i]
    kl = fn_of_order(1)
    EDGE_HITS[0 if i == 0 else (2 if i == len(ZSCAN) - 1 else 1)] += 1
    if i == 0:
        # Supremum may be at a -> 1: include the KL limit and refine down.
        lo_s = ZSCAN[0] - 4
    else:
        lo_s = ZSCAN[i - 1]
    hi_s = ZSCAN[min(i + 1, len(ZSCAN) - 1)]
    ln10 = mpmath.log(10)
    g, _ = golden_max(lambda s: fn_of_order(1 + mpmath.exp(s)),
                      mpf(lo_s) * ln10, mpf(hi_s) * ln10, mpf("1e-7"))
    return max(best, g, kl), i


def zcdp_curve(rho, x):
    rho = mpf(rho)
    v, _ = sup_over_orders(lambda a: curve(a, rho * a, x))
    return v


def zcdp_fixed(rho):
    rho = mpf(rho)
    v, _ = sup_over_orders(lambda a: fixed_point(a, rho * a))
    return v


def improved_eps(a, eps, delta):
    a = mpf(a)
    return (eps + mpmath.log((a - 1) / a)
            - (mpmath.log(delta) + mpmath.log(a)) / (a - 1))


def zcdp_eps_at_delta(rho, delta, eta):
    rho, delta = mpf(rho), mpf(delta)
    if delta >= eta:
        return mpf(0)
    fn = lambda s: -improved_eps(1 + mpmath.exp(s), rho * (1 + mpmath.exp(s)), delta)
    scan = [mpf(k) / 40 * mpmath.log(10) for k in range(-320, 321)]
    vals = [fn(s) for s in scan]
    i = max(range(len(vals)), key=lambda j: vals[j])
    assert 0 < i < len(scan) - 1, "eps(delta) minimum at scan edge"
    v, _ = golden_max(fn, scan[i - 1], scan[i + 1], mpf("1e-20"))
    return max(mpf(0), -max(v, vals[i]))


# ---------------------------------------------------------------------------
# DP-SGD.
# ---------------------------------------------------------------------------

def sgm_rdp(q, sigma, n):
    q, sigma = mpf(q), mpf(sigma)
    s = mpf(0)
    for k in range(n + 1):
        s += (mpmath.binomial(n, k) * (1 - q) ** (n - k) * q ** k
              * mpmath.exp(mpf(k * k - k) / (2 * sigma ** 2)))
    return mpmath.log(s) / (n - 1)


DPSGD_ORDERS = list(range(2, 65))


def dpsgd_row(sigma, q, steps, xb=0.1, delta=1e-5):
    eps = [steps * sgm_rdp(q, sigma, n) for n in DPSGD_ORDERS]
    fx = max(curve(a, e, xb) for a, e in zip(DPSGD_ORDERS, eps))
    xstar = max(fixed_point(a, e) for a, e in zip(DPSGD_ORDERS, eps))
    eta = 1 - 2 * xstar
    if mpf(delta) >= eta:
        ead = mpf(0)
    else:
        ead = min(improved_eps(a, e, mpf(delta)) for a, e in zip(DPSGD_ORDERS, eps))
        ead = max(mpf(0), ead)
    return eps, fx, 1 - mpf(xb) - fx, eta, ead


# ---------------------------------------------------------------------------

def fl(v):
    return repr(float(v))


def loguniform(rng, lo, hi):
    return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def draw_x(rng):
    if rng.random() < 0.12:
        return rng.uniform(0.85, 0.95)
    return loguniform(rng, 1e-9, 0.5)


def rdp_values(a, e, x):
    f = curve(a, mpf(e), x)
    eta = 1 - 2 * fixed_point(a, mpf(e))
    return f, 1 - mpf(x) - f, eta


def zcdp_values(rho, x):
    f = zcdp_curve(rho, x)
    eta = 1 - 2 * zcdp_fixed(rho)
    eads = [zcdp_eps_at_delta(rho, d, eta) for d in (1e-5, 1e-10)]
    return f, 1 - mpf(x) - f, eta, eads


def main():
    rng = random.Random(20260311)
    rows = []
    checks = []  # (kind, inputs) recomputed at 60 digits

    for i in range(150):
        a = loguniform(rng, 1.05, 200)
        e = loguniform(rng, 1e-4, 20)
        x = draw_x(rng)
        f, adv, eta = rdp_values(a, e, x)
        rows.append({"kind": "rdp", "alpha": fl(a), "eps_alpha": fl(e), "x": fl(x),
                     "f_x": fl(f), "advantage_x": fl(adv), "eta": fl(eta)})
        if i % 10 == 0:
            checks.append(("rdp", (a, e, x), (f, adv, eta)))
    print("rdp rows done", file=sys.stderr)

    for i in range(40):
        rho = loguniform(rng, 1e-4, 5)
        x = draw_x(rng)
        f, adv, eta, eads = zcdp_values(rho, x)
        rows.append({"kind": "zcdp", "rho": fl(rho), "x": fl(x), "f_x": fl(f),
                     "advantage_x": fl(adv), "eta": fl(eta),
                     "delta": "1e-05;1e-10",
                     "eps_at_delta": ";".join(fl(v) for v in eads)})
        if i % 10 == 0:
            checks.append(("zcdp", (rho, x), (f, adv, eta, eads[0], eads[1])))
        print("zcdp", i, file=sys.stderr)

    for i in range(30):
        sigma = rng.uniform(0.5, 5)
        q = loguniform(rng, 1e-3, 0.5)
        steps = int(round(loguniform(rng, 1, 10000)))
        eps, fx, adv, eta, ead = dpsgd_row(sigma, q, steps)
        rows.append({"kind": "dpsgd_int", "alpha": ";".join(str(a) for a in DPSGD_ORDERS),
                     "eps_alpha": ";".join(fl(e) for e in eps),
                     "noise_multiplier": fl(sigma), "sample_rate": fl(q),
                     "steps": str(steps), "delta": "1e-05", "x": "0.1",
                     "f_x": fl(fx), "advantage_x": fl(adv), "eta": fl(eta),
                     "eps_at_delta": fl(ead)})
        if i % 10 == 0:
            checks.append(("dpsgd_int", (sigma, q, steps), (fx, adv, eta, ead) + tuple(eps)))
        print("dpsgd", i, file=sys.stderr)

    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference_rdp.csv")
    with open(out, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    print("wrote %d rows to %s" % (len(rows), out))

    # Self-check: recompute a subset at 60 digits.
    worst = {}
    with mp.workdps(60):
        for kind, inp, vals in checks:
            if kind == "rdp":
                new = rdp_values(*inp)
            elif kind == "zcdp":
                f, adv, eta, eads = zcdp_values(*inp)
                new = (f, adv, eta, eads[0], eads[1])
            else:
                eps, fx, adv, eta, ead = dpsgd_row(*inp)
                new = (fx, adv, eta, ead) + tuple(eps)
            dev = max(abs(mpf(u) - mpf(v)) / max(abs(mpf(v)), mpf(1e-300))
                      for u, v in zip(vals, new))
            worst[kind] = max(worst.get(kind, 0), float(dev))
    print("zCDP scan optimum (low edge -> KL side, interior, high edge):", EDGE_HITS)
    print("60-digit self-check, max relative deviation:", worst)


if __name__ == "__main__":
    main()
