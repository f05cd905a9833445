"""Reference σ of the Gaussian mechanism calibrated to (ε, δ), for Δ = 1.

Analytic: the smallest σ with Φ(1/(2σ) − εσ) − e^ε·Φ(−1/(2σ) − εσ) ≤ δ (Balle & Wang 2018,
Thm 8), by bisection on σ with mpmath at 50 digits plus as many as δ has zeros after the point (at
ε = 0 the profile is a difference of two Φ values 1/σ apart). Classic: √(2 ln(1.25/δ))/ε (Dwork & Roth
2014, Thm A.1). Writes gaussian_calibrate_ref.csv (epsilon, delta, analytic, classic), read by
gaussian_calibrate_test.go.

Run from this folder: python3 gaussian_calibrate_ref.py
"""
import csv

import mpmath as mp

mp.mp.dps = 50


def profile(sigma, eps):
    a = 1 / (2 * sigma)
    b = eps * sigma
    return mp.ncdf(a - b) - mp.exp(eps) * mp.ncdf(-a - b)


def analytic(eps, d):
    lo, hi = mp.mpf(1), mp.mpf(1)
    while profile(lo, eps) <= d:
        lo /= 2
    while profile(hi, eps) > d:
        hi *= 2
    for _ in range(300):
        mid = (lo + hi) / 2
        if profile(mid, eps) > d:
            lo = mid
        else:
            hi = mid
    return hi


EPSILONS = ["0", "1e-6", "1e-3", "0.01", "0.05", "0.1", "0.3", "0.5", "0.7", "1", "1.5", "2", "3", "5", "8",
            "10", "20", "35", "50", "100", "500"]
DELTAS = ["0.5", "0.1", "0.01", "1e-3", "1e-5", "1e-6", "1e-8", "1e-9", "1e-12", "1e-15", "1e-30", "1e-100", "1e-300"]

with open("gaussian_calibrate_ref.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["epsilon", "delta", "analytic", "classic"])
    for e in EPSILONS:
        for d in DELTAS:
            mp.mp.dps = 50 + int(-mp.log10(mp.mpf(d)))
            eps, delta = mp.mpf(e), mp.mpf(d)
            classic = "" if eps == 0 else mp.nstr(mp.sqrt(2 * mp.log(mp.mpf("1.25") / delta)) / eps, 25)
            w.writerow([e, d, mp.nstr(analytic(eps, delta), 25), classic])
