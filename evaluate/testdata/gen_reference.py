#!/usr/bin/env python3
"""Reference-value generator for the Go evaluator tests.

This script is an INDEPENDENT high-precision implementation (mpmath, mp.dps = 400
significant digits; 60-100 digits where noted) of the privacy-risk formulas
below.  It exists only to produce reference values against which the Go
evaluator (package evaluate) is tested; it shares no code with the Go
implementation.

Formulas (Phi = standard normal CDF, mpmath.ncdf):

  * Gaussian mechanism / GDP (mu = sensitivity / sigma for `gaussian` rows):
      delta(eps) = Phi(-eps/mu + mu/2) - e^eps * Phi(-eps/mu - mu/2)
    (Balle & Wang 2018, analytic Gaussian mechanism).  eps_at_delta is the
    root eps >= 0 of delta(eps) = delta_row (plain bisection to 1e-40 on a
    bracket established by doubling; eps = 0 when delta(0) = 2 Phi(mu/2) - 1
    <= delta_row).
  * Trade-off curves:
      (eps, delta)-DP: f(a) = max{0, 1 - delta - e^eps a, e^-eps (1 - delta - a)}
      mu-GDP:          G_mu(a) = Phi(Phi^-1(1 - a) - mu)
    fdp_success = 1 - f(b), fdp_advantage = fdp_success - b.
  * fdp_worst_advantage: (e^eps - 1 + 2 delta)/(e^eps + 1) for pure/approx,
    2 Phi(mu/2) - 1 for gaussian/gdp.
  * adp_advantage: (e^eps - 1 + 2 delta)/(e^eps + 1) with eps = eps_at_delta
    for gaussian/gdp.
  * One-run posterior (Swanberg et al., Thm 3.2): beta = e^eps/(e^eps - 1 + 1/b),
    onerun_advantage = (min(1, beta + (1 - beta) delta) - b)/(1 - b).
  * onerun_eps_protect: largest eps' >= 0 with onerun_advantage(eps') <= A.
    Closed form: t = b + A (1 - b), beta* = (t - delta)/(1 - delta);
    beta* >= 1 -> "inf", beta* < b -> "none", else logit(beta*) - logit(b).
    Cross-checked by bisection (agreement to 1e-30 is asserted).

Also produces reference_gaussian_delta.csv: delta(eps) of the Gaussian
mechanism at 60 digits (checked against a 100-digit evaluation).

Inputs are drawn with Python's `random` module using a fixed seed, rounded to
IEEE doubles, written with repr() and then converted EXACTLY to mpf, so every
reference value corresponds exactly to the double written in the CSV.
Outputs are the correctly rounded doubles of the 50-digit values, written
with repr() (round-trips; may be subnormal or 0 when the value underflows).

Regenerate (deterministic, needs python3 + mpmath 1.3.0, no other packages):

    cd evaluate/testdata && python3 gen_reference.py

which rewrites reference_core.csv and reference_gaussian_delta.csv in the
directory containing this script.
"""

import csv
import math
import os
import random

import mpmath
from mpmath import mp, mpf

mp.dps = 400  # ε down to 1e-100 makes e^ε − 1 need > 120 digits
GUARD_DPS = 450  # extra working precision for cancellation-prone pieces

HERE = os.path.dirname(os.path.abspath(__file__))
CORE_PATH = os.path.join(HERE, "reference_core.csv")
DELTA_PATH = os.path.join(HERE, "reference_gaussian_delta.csv")

SEED = 20240611
N_STD = 400
N_EXTREME = 30

# --------------------------------------------------------------------------
# numeric helpers
# --------------------------------------------------------------------------


def to_double(x):
    """Correctly rounded double of an mpf (via a 45-digit decimal string, so
    subnormals are rounded once, by Python's correctly rounded parser)."""
    with mp.workdps(60):
        s = mpmath.nstr(mpf(x), 45)
    return float(s)


def fmt(x):
    return repr(to_double(x))


def fmt_in(v):
    return "" if v is None else repr(float(v))


def Phi(x):
    return mpmath.ncdf(x)


def Phi_inv(p):
    """Inverse normal CDF: erfinv start, Newton polish at guard precision."""
    p = mpf(p)
    assert 0 < p < 1
    with mp.workdps(GUARD_DPS + 20):
        if p < mpf("0.5"):
            x = -mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * p)
        else:
            x = mpmath.sqrt(2) * mpmath.erfinv(2 * p - 1)
        for _ in range(8):
            r = mpmath.ncdf(x) - p
            x = x - r / mpmath.npdf(x)
        rel = abs(mpmath.ncdf(x) / p - 1)
        assert rel < mpf(10) ** (-GUARD_DPS + 5), (p, rel)
    return +x  # round to mp.dps


def gauss_delta(eps, mu, dps=GUARD_DPS):
    """delta(eps) of the Gaussian mechanism with parameter mu (at `dps`)."""
    with mp.workdps(dps):
        eps = mpf(eps)
        mu = mpf(mu)
        r = mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)
    return r


def gauss_delta0(mu):
    """delta(0) = 2 Phi(mu/2) - 1 = erf(mu / (2 sqrt 2))."""
    return mpmath.erf(mpf(mu) / (2 * mpmath.sqrt(2)))


def eps_at_delta(mu, delta):
    mu = mpf(mu)
    delta = mpf(delta)
    if gauss_delta0(mu) <= delta:
        return mpf(0)
    lo = mpf(0)
    hi = max(mpf(1), mu * mu)
    while gauss_delta(hi, mu) >= delta:
        lo = hi
        hi *= 2
    tol = mpf(10) ** -40
    it = 0
    while hi - lo > tol:
        mid = (lo + hi) / 2
        if gauss_delta(mid, mu) >= delta:
            lo = mid
        else:
            hi = mid
        it += 1
        assert it < 1000
    eps = (lo + hi) / 2
    # sanity: delta(eps) matches delta_row
    d = gauss_delta(eps, mu)
    assert abs(d / delta - 1) < mpf(10) ** -25, (mu, delta, eps, d)
    return eps


def log10_from_complement(x, comp):
    """log10(x) where comp = 1 - x was computed without cancellation; keeps
    full relative accuracy of log10 when x rounds to 1 at working precision."""
    if x > mpf("0.5"):
        with mp.workdps(GUARD_DPS):
            return +(mpmath.log1p(-comp) / mpmath.log(10))
    return mpmath.log10(x)


def adp_eta(eps, delta):
    e = mpmath.exp(eps)
    return (e - 1 + 2 * delta) / (e + 1)


def posterior(eps, b):
    return mpmath.exp(eps) / (mpmath.exp(eps) - 1 + 1 / b)


def onerun_adv(eps, b, delta):
    beta = posterior(eps, b)
    return (min(mpf(1), beta + (1 - beta) * delta) - b) / (1 - b)


def logit(p):
    return mpmath.log(p / (1 - p))


def eps_protect_closed(b, delta, A):
    t = b + A * (1 - b)
    beta_star = (t - delta) / (1 - delta)
    if beta_star >= 1:
        return "inf"
    if beta_star < b:
        return "none"
    return logit(beta_star) - logit(b)


def eps_protect_bisect(b, delta, A):
    """Largest eps' >= 0 with onerun_adv(eps', b, delta) <= A, by bisection."""
    with mp.workdps(GUARD_DPS):
        b, delta, A = mpf(b), mpf(delta), mpf(A)
        if onerun_adv(mpf(0), b, delta) > A:
            return "none"
        hi = mpf(1)
        while onerun_adv(hi, b, delta) <= A:
            hi *= 2
            if hi > 10 ** 6:
                return "inf"
        lo = mpf(0)
        tol = mpf(10) ** -45
        while hi - lo > tol:
            mid = (lo + hi) / 2
            if onerun_adv(mid, b, delta) <= A:
                lo = mid
            else:
                hi = mid
        return +lo


# --------------------------------------------------------------------------
# input sampling
# --------------------------------------------------------------------------

rng = random.Random(SEED)


def logu(lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def column(n, fixed, draw):
    vals = list(fixed) + [draw() for _ in range(n - len(fixed))]
    rng.shuffle(vals)
    return vals


def draw_eps():
    u = rng.random()
    if u < 0.40:
        return logu(1e-8, 50.0)
    if u < 0.75:
        return rng.uniform(0.0, 10.0)
    if u < 0.95:
        return rng.uniform(0.0, 50.0)
    return rng.uniform(40.0, 50.0)


EPS_FIXED = [0.0, 0.0, 0.0, 1e-12, 1e-9, 1e-7, 1e-6, 5e-7, 1e-3, 0.1, 0.5, 1.0,
             2.0, math.log(3.0), 8.0, 10.0, 40.0, 42.5, 45.0, 48.0, 50.0]


def draw_delta():
    return logu(1e-12, 0.1)


DELTA_FIXED = [1e-12, 1e-10, 1e-6, 1e-5, 1e-3, 0.01, 0.05, 0.1]


def draw_b():
    if rng.random() < 0.5:
        return logu(1e-9, 0.99)
    return rng.uniform(0.01, 0.99)


B_FIXED = [1e-9, 1e-9, 0.5, 0.5, 0.99, 0.99, 0.01, 0.1, 1e-6]


def draw_A():
    return logu(1e-4, 0.5)


A_FIXED = [1e-4, 1e-3, 0.01, 0.1, 0.5, 0.5]


def draw_mu_gdp():
    return logu(0.01, 20.0)


MU_FIXED = [0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0]
SENS = [1.0, 2.0, 0.5, 3.7]


def std_rows(mech):
    n = N_STD
    bs = column(n, B_FIXED, draw_b)
    As = column(n, A_FIXED, draw_A)
    rows = []
    if mech in ("pure", "approx"):
        eps = column(n, EPS_FIXED, draw_eps)
        if mech == "pure":
            ds = [0.0] * n
        else:
            ds = column(n, DELTA_FIXED, draw_delta)
        for i in range(n):
            rows.append(dict(mechanism=mech, epsilon=eps[i], delta=ds[i], sigma=None,
                             sensitivity=None, mu=None, baseline=bs[i],
                             target_advantage=As[i], extreme=0))
    elif mech == "gaussian":
        ds = column(n, DELTA_FIXED, draw_delta)
        for i in range(n):
            while True:
                sigma = logu(0.05, 100.0)
                sens = rng.choice(SENS)
                mu = sens / sigma
                if 0.01 <= mu <= 20.0:
                    break
            rows.append(dict(mechanism=mech, epsilon=None, delta=ds[i], sigma=sigma,
                             sensitivity=sens, mu=None, baseline=bs[i],
                             target_advantage=As[i], extreme=0))
    elif mech == "gdp":
        ds = column(n, DELTA_FIXED, draw_delta)
        mus = column(n, MU_FIXED, draw_mu_gdp)
        for i in range(n):
            rows.append(dict(mechanism=mech, epsilon=None, delta=ds[i], sigma=None,
                             sensitivity=None, mu=mus[i], baseline=bs[i],
                             target_advantage=As[i], extreme=0))
    return rows


def extreme_rows(mech):
    n = N_EXTREME

    def draw_b_x():
        u = rng.random()
        if u < 0.5:
            return logu(1e-12, 1e-9)
        return logu(1e-12, 0.99)

    bs = column(n, [1e-12, 1e-12, 1e-12, 0.99, 0.5], draw_b_x)
    # A = 1.0 (no protection target) exercises the "inf" convention;
    # A = 1e-4 with large delta exercises "none".
    As = column(n, [1.0, 1.0, 1e-4, 1e-4], draw_A)

    def draw_delta_x():
        u = rng.random()
        if u < 0.6:
            return logu(1e-300, 1e-12)
        return logu(1e-300, 0.1)

    rows = []
    if mech in ("pure", "approx"):
        def draw_eps_x():
            u = rng.random()
            if u < 0.7:
                return rng.uniform(50.0, 700.0)
            return logu(1e-15, 700.0)
        eps = column(n, [700.0, 700.0, 650.0, 500.0, 1e-15, 1e-100], draw_eps_x)
        ds = [0.0] * n if mech == "pure" else column(n, [1e-300, 1e-300, 1e-200, 0.1], draw_delta_x)
        for i in range(n):
            rows.append(dict(mechanism=mech, epsilon=eps[i], delta=ds[i], sigma=None,
                             sensitivity=None, mu=None, baseline=bs[i],
                             target_advantage=As[i], extreme=1))
    else:
        def draw_mu_x():
            u = rng.random()
            if u < 0.6:
                return logu(20.0, 40.0)
            return logu(0.01, 40.0)
        mus = column(n, [40.0, 40.0, 30.0, 0.01, 0.01], draw_mu_x)
        ds = column(n, [1e-300, 1e-300, 1e-300, 1e-100, 0.1], draw_delta_x)
        for i in range(n):
            if mech == "gaussian":
                sens = rng.choice(SENS)
                sigma = sens / mus[i]
                rows.append(dict(mechanism=mech, epsilon=None, delta=ds[i], sigma=sigma,
                                 sensitivity=sens, mu=None, baseline=bs[i],
                                 target_advantage=As[i], extreme=1))
            else:
                rows.append(dict(mechanism=mech, epsilon=None, delta=ds[i], sigma=None,
                                 sensitivity=None, mu=mus[i], baseline=bs[i],
                                 target_advantage=As[i], extreme=1))
    return rows


# --------------------------------------------------------------------------
# core reference
# --------------------------------------------------------------------------

CORE_HEADER = ["mechanism", "epsilon", "delta", "sigma", "sensitivity", "mu",
               "baseline", "target_advantage", "extreme",
               "eps_at_delta", "fdp_success", "fdp_advantage", "fdp_worst_advantage",
               "adp_advantage", "onerun_posterior", "onerun_advantage",
               "onerun_eps_protect", "fdp_success_log10", "onerun_posterior_log10"]

TINY = mpf(10) ** -40


def in01(x, name, row):
    assert -TINY <= x <= 1 + TINY, (name, x, row)


def compute(row):
    mech = row["mechanism"]
    b = mpf(row["baseline"])
    A = mpf(row["target_advantage"])
    delta = mpf(row["delta"])
    out = {}
    if mech == "gaussian":
        mu = mpf(row["sensitivity"]) / mpf(row["sigma"])
        row["mu"] = float(mu)  # written for convenience; the reference uses the exact quotient
    elif mech == "gdp":
        mu = mpf(row["mu"])
    if mech in ("pure", "approx"):
        eps = mpf(row["epsilon"])
        if mech == "pure":
            assert delta == 0
        out["eps_at_delta"] = ""
        e = mpmath.exp(eps)
        succ = min(mpf(1), delta + e * b, 1 - mpmath.exp(-eps) * (1 - delta - b))
        with mp.workdps(GUARD_DPS + 40):
            f_b = max(mpf(0), 1 - delta - mpmath.exp(eps) * b, mpmath.exp(-eps) * (1 - delta - b))
        assert abs((1 - f_b) - succ) < TINY
        worst = adp_eta(eps, delta)
    else:
        eps = eps_at_delta(mu, delta)
        assert eps >= 0
        out["eps_at_delta"] = fmt(eps)
        z = Phi_inv(b) + mu
        succ = Phi(z)
        f_b = Phi(-z)  # = G_mu(b) = 1 - succ, no cancellation
        worst = gauss_delta0(mu)
        # independent consistency checks: G_mu dominates f_{eps,delta}
        e = mpmath.exp(eps)
        succ_adp = min(mpf(1), delta + e * b, 1 - mpmath.exp(-eps) * (1 - delta - b))
        assert succ <= succ_adp + mpf(10) ** -30, (row, succ, succ_adp)
    adv = succ - b
    adp = adp_eta(eps, delta)
    beta = posterior(eps, b)
    oadv = (min(mpf(1), beta + (1 - beta) * delta) - b) / (1 - b)
    prot = eps_protect_closed(b, delta, A)
    prot_b = eps_protect_bisect(b, delta, A)
    if isinstance(prot, str):
        assert prot == prot_b, (row, prot, prot_b)
        out["onerun_eps_protect"] = prot
    else:
        assert not isinstance(prot_b, str), (row, prot, prot_b)
        assert abs(prot - prot_b) < mpf(10) ** -30, (row, prot, prot_b)
        assert prot >= 0
        # the advantage at eps' equals A (when eps' > 0) and stays <= A
        assert onerun_adv(prot, b, delta) <= A + mpf(10) ** -40
        out["onerun_eps_protect"] = fmt(prot)

    # assertions
    for name, v in (("fdp_success", succ), ("fdp_advantage", adv), ("fdp_worst_advantage", worst),
                    ("adp_advantage", adp), ("onerun_posterior", beta), ("onerun_advantage", oadv)):
        in01(v, name, row)
    assert succ >= b - TINY, row
    assert 0 <= oadv <= 1, row
    assert adv <= worst + TINY, (row, adv, worst)       # eta is the max advantage of f
    assert adp >= worst - mpf(10) ** -30, (row, adp, worst)
    assert beta >= b - TINY, row

    out["fdp_success"] = fmt(succ)
    out["fdp_advantage"] = fmt(adv)
    out["fdp_worst_advantage"] = fmt(worst)
    out["adp_advantage"] = fmt(adp)
    out["onerun_posterior"] = fmt(beta)
    out["onerun_advantage"] = fmt(oadv)
    out["fdp_success_log10"] = fmt(log10_from_complement(succ, f_b))
    with mp.workdps(GUARD_DPS):
        beta_c = (1 / b - 1) / (mpmath.exp(eps) - 1 + 1 / b)  # 1 - beta
    assert abs((1 - beta_c) - beta) < TINY
    out["onerun_posterior_log10"] = fmt(log10_from_complement(beta, beta_c))
    raw = dict(eps_at_delta=(eps if mech in ("gaussian", "gdp") else None), fdp_success=succ,
               fdp_advantage=adv, fdp_worst_advantage=worst, adp_advantage=adp,
               onerun_posterior=beta, onerun_advantage=oadv,
               onerun_eps_protect=prot)
    return out, raw


def gen_core():
    all_rows = []
    for mech in ("pure", "approx", "gaussian", "gdp"):
        all_rows += std_rows(mech) + extreme_rows(mech)
    stats = {}
    with open(CORE_PATH, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(CORE_HEADER)
        for row in all_rows:
            out, raw = compute(row)
            rec = [row["mechanism"], fmt_in(row["epsilon"]), fmt_in(row["delta"]),
                   fmt_in(row["sigma"]), fmt_in(row["sensitivity"]), fmt_in(row["mu"]),
                   fmt_in(row["baseline"]), fmt_in(row["target_advantage"]), str(row["extreme"])]
            rec += [out[h] for h in CORE_HEADER[9:]]
            w.writerow(rec)
            st = stats.setdefault(row["mechanism"], {"n": 0, "n_extreme": 0, "inf": 0, "none": 0, "cols": {}})
            st["n"] += 1
            st["n_extreme"] += row["extreme"]
            for k, v in raw.items():
                if v is None:
                    continue
                if isinstance(v, str):
                    st[v] += 1
                    continue
                lo, hi = st["cols"].get(k, (v, v))
                st["cols"][k] = (min(lo, v), max(hi, v))
    print("reference_core.csv: %d rows" % len(all_rows))
    for mech, st in stats.items():
        print("  %-8s rows=%d (extreme=%d)  eps_protect inf=%d none=%d" % (
            mech, st["n"], st["n_extreme"], st["inf"], st["none"]))
        for k, (lo, hi) in st["cols"].items():
            print("      %-22s min=%-24s max=%s" % (k, mpmath.nstr(lo, 10), mpmath.nstr(hi, 10)))
    return len(all_rows)


# --------------------------------------------------------------------------
# Gaussian delta(eps) table
# --------------------------------------------------------------------------


def gen_delta_table():
    n = 300
    rows = []
    fixed_mu = [0.01, 0.01, 1.0, 1.0, 40.0, 40.0, 20.0, 5.0]
    fixed_i = 0
    min_log10 = mpf(-320)
    while len(rows) < n:
        if fixed_i < len(fixed_mu):
            mu = fixed_mu[fixed_i]
        else:
            mu = logu(0.01, 40.0)
        # eps beyond which delta is certainly < 1e-320 (approximately)
        emax = min(400.0, mu * (mu / 2 + math.sqrt(2 * math.log(10) * 322)) * 1.02)
        if fixed_i < len(fixed_mu):
            eps = [0.0, emax * 0.97, 0.0, 1.0, 400.0, 0.0, 400.0, 50.0][fixed_i]
            fixed_i += 1
        else:
            u = rng.random()
            if u < 0.08:
                eps = 0.0
            elif u < 0.38:
                eps = rng.uniform(0.0, emax)
            elif u < 0.65:
                eps = logu(1e-6, emax)
            else:
                eps = rng.uniform(0.5 * emax, emax)
        d60 = gauss_delta(eps, mu, dps=60)
        if d60 <= 0:
            continue
        with mp.workdps(60):
            # complement 1 - delta(eps) = Phi(eps/mu - mu/2) + e^eps Phi(-eps/mu - mu/2)
            e_, m_ = mpf(eps), mpf(mu)
            comp = mpmath.ncdf(e_ / m_ - m_ / 2) + mpmath.exp(e_) * mpmath.ncdf(-e_ / m_ - m_ / 2)
            assert abs((1 - comp) - d60) < mpf(10) ** -55
            l10 = log10_from_complement(d60, comp)
        if l10 < min_log10:
            continue
        d100 = gauss_delta(eps, mu, dps=100)
        with mp.workdps(100):
            assert abs(d60 / d100 - 1) < mpf(10) ** -40, (mu, eps, d60, d100)
        assert d60 <= 1
        rows.append((mu, eps, d60, l10))
    with open(DELTA_PATH, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["mu", "epsilon", "delta_of_epsilon", "log10_delta"])
        for mu, eps, d, l10 in rows:
            w.writerow([repr(float(mu)), repr(float(eps)), fmt(d), fmt(l10)])
    n_sub = sum(1 for r in rows if 0 < to_double(r[2]) < 2.2250738585072014e-308)
    print("reference_gaussian_delta.csv: %d rows (subnormal delta: %d); log10_delta in [%s, %s]; "
          "eps in [%s, %s]; mu in [%s, %s]" % (
              len(rows), n_sub, mpmath.nstr(min(r[3] for r in rows), 8), mpmath.nstr(max(r[3] for r in rows), 8),
              min(r[1] for r in rows), max(r[1] for r in rows), min(r[0] for r in rows), max(r[0] for r in rows)))
    return len(rows)


if __name__ == "__main__":
    gen_core()
    gen_delta_table()
