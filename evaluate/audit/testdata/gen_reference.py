#!/usr/bin/env python3
"""Reference values for the audit tests, recomputed at 50 digits with mpmath.

Independent of the Go code: exact binomial and Poisson-binomial sums (no
saddle points, no windows, no log-space tails), plain bisection to 1e-15,
and the published formulas as their reference implementations state them:

  steinke  Steinke, Nasr & Jagielski 2023, p_value_DP_audit / get_eps_audit
           (the version with the delta term, as in the paper's appendix
           code and jax_privacy auditing._one_run_p_value):
             p = P[Bin(r, q) >= v] + 2 m delta max_i P[v-i <= Bin(r, q) < v]/i
  mmc      Mahloujifar, Melis & Chaudhuri 2025, audit_rh_with_cap
           (PrivacyGuard fdp_analysis_node.py; jax_privacy
           _epsilon_one_run_fdp), Gaussian and (eps, delta) trade-offs
  swanberg Swanberg et al. 2025, Thm 3.5 / Cor 3.4 tails by the exact O(n^2)
           Poisson-binomial DP

Run: python3 gen_reference.py > reference.txt  (needs mpmath only)
"""
import mpmath as mp

mp.mp.dps = 50


def logistic(x):
    return 1 / (1 + mp.exp(-x))


def binom_pmf(r, q):
    return [mp.binomial(r, k) * q**k * (1 - q) ** (r - k) for k in range(r + 1)]


def steinke_p(m, r, v, eps, delta):
    q = logistic(mp.mpf(eps))
    pmf = binom_pmf(r, q)
    beta = mp.fsum(pmf[v:])
    alpha, s = mp.mpf(0), mp.mpf(0)
    for i in range(1, v + 1):
        s += pmf[v - i]
        alpha = max(alpha, s / i)
    return min(beta + alpha * delta * 2 * m, mp.mpf(1))


def bisect_refuted(refuted, hi=1.0):
    """sup of the refuted range of a monotone test, to 1e-15."""
    lo = mp.mpf(0)
    hi = mp.mpf(hi)
    while refuted(hi):
        lo, hi = hi, 2 * hi
    while hi - lo > mp.mpf("1e-15"):
        mid = (lo + hi) / 2
        if refuted(mid):
            lo = mid
        else:
            hi = mid
    return lo


def ncdf(x):
    return mp.ncdf(x)


def nppf(x):
    return mp.sqrt(2) * mp.erfinv(2 * x - 1)


def mmc_refutes(m, cp, c, k, g, tau):
    r = mp.mpf(tau) * c / m
    h = mp.mpf(tau) * (cp - c) / m
    for i in range(c - 1, -1, -1):
        hn = max(h, (k - 1) * g(r))
        if hn == h:
            break
        r = min(mp.mpf(1), r + mp.mpf(i) / (cp - i) * (hn - h))
        h = hn
    return r + h > mp.mpf(cp) / m


def gauss_g(mu):
    mu = mp.mpf(mu)

    def g(x):
        if x <= 0:
            return mp.mpf(0)
        if x >= 1:
            return mp.mpf(1)
        return ncdf(nppf(x) - mu)

    return g


def epsdelta_g(eps, delta):
    eps, delta = mp.mpf(eps), mp.mpf(delta)

    def g(x):
        return max(mp.mpf(0), 1 - delta - mp.exp(eps) * (1 - x), mp.exp(-eps) * (x - delta))

    return g


def poibin_pmf(betas):
    p = [mp.mpf(1)]
    for b in betas:
        new = [mp.mpf(0)] * (len(p) + 1)
        for k, x in enumerate(p):
            new[k] += x * (1 - b)
            new[k + 1] += x * b
        p = new
    return p


def swanberg(ps, eps, delta, k, which):
    e = mp.exp(mp.mpf(eps))
    betas = [e / (e - 1 + 1 / mp.mpf(p)) for p in ps]
    pmf = poibin_pmf(betas)
    n = len(ps)

    def T(u):
        return mp.mpf(1) if u <= 0 else mp.fsum(pmf[u:])

    t = T(k)
    if which == "cor34":
        return min(mp.mpf(1), t + n * mp.mpf(delta))
    alpha = max([mp.mpf(0)] + [(T(k - j) - t) / j for j in range(1, n + 1)])
    if which == "thm35":
        return min(mp.mpf(1), t + alpha * n * mp.mpf(delta))
    return t


def show(name, x):
    print(f"{name} = {mp.nstr(x, 17)}")


def main():
    print("# steinke: epsilon lower bounds (m, r, v, delta, significance)")
    for m, r, v, d, b in [
        (1000, 600, 600, 1e-5, 0.05),
        (100, 100, 100, 1e-5, 0.05),
        (1000, 500, 400, 1e-5, 0.05),
        (10000, 2000, 1800, 1e-6, 0.01),
    ]:
        eps = bisect_refuted(lambda e: steinke_p(m, r, v, e, mp.mpf(d)) < b)
        show(f"steinke_eps{(m, r, v, d, b)}", eps)
    print("# steinke: p-values (m, r, v, eps, delta)")
    for m, r, v, e, d in [
        (1000, 1000, 900, 0.5, 0.0),
        (1000, 1000, 900, 0.5, 1e-5),
        (1000, 500, 400, 1.0, 1e-5),
    ]:
        show(f"steinke_p{(m, r, v, e, d)}", steinke_p(m, r, v, mp.mpf(e), mp.mpf(d)))
    print("# mmc: mu and epsilon lower bounds (m, c', c, k, delta, significance)")
    for m, cp, c, k, d, b in [
        (1000, 1000, 1000, 2, 1e-5, 0.05),
        (1000, 500, 400, 2, 1e-5, 0.05),
        (1000, 200, 120, 10, 1e-5, 0.05),
    ]:
        mu = bisect_refuted(lambda x: mmc_refutes(m, cp, c, k, gauss_g(x), b))
        eps = bisect_refuted(lambda x: mmc_refutes(m, cp, c, k, epsdelta_g(x, d), b))
        show(f"mmc_mu{(m, cp, c, k, b)}", mu)
        show(f"mmc_eps{(m, cp, c, k, d, b)}", eps)
    print("# swanberg: tail bounds (priors, eps, delta, k)")
    lin = [mp.mpf("0.3") + mp.mpf("0.6") * i / 99 for i in range(100)]
    for k in (85, 86):
        for which in ("thm35", "cor34"):
            show(f"swanberg_{which}(linspace(0.3,0.9,100), 1, 1e-5, {k})", swanberg(lin, 1, 1e-5, k, which))
    show("swanberg_thm35(0.56 x 100, 1, 1e-5, 84)", swanberg([mp.mpf("0.56")] * 100, 1, 1e-5, 84, "thm35"))
    eps = bisect_refuted(lambda e: swanberg(lin, e, 1e-5, 95, "thm35") < mp.mpf("0.05"))
    show("swanberg_eps_thm35(linspace(0.3,0.9,100), k=95, 1e-5, 0.05)", eps)


if __name__ == "__main__":
    main()
