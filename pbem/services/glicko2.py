"""The Glicko-2 rating system (Mark E. Glickman, "Example of the Glicko-2
system", 2013: http://www.glicko.net/glicko/glicko2.pdf), as pure
functions: a rating (r, RD, volatility) updated by one rating period's
results.  ``docs/ratings.md`` says how the server uses it.  No I/O."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

#: the Glicko-2 scale factor (173.7178 = 400 / ln 10)
SCALE = 173.7178
#: the system constant: how much volatility may change over time (Glickman suggests 0.3 to 1.2)
TAU = 0.5
#: the convergence tolerance of the volatility iteration
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    """A player's rating: ``rating`` (1500 for a new player), its deviation
    ``rd`` (350: unknown) and ``volatility`` (0.06), on the Glicko scale."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, results: Iterable[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period in which they scored
    ``score`` (1 win, 0.5 draw, 0 loss) against each ``opponent`` (their
    rating at the start of the period): ``(opponent, score)`` pairs.  With
    no results the deviation grows by the volatility (step 6 alone)."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    games = [((opponent.rating - 1500.0) / SCALE, opponent.rd / SCALE, float(score)) for opponent, score in results]
    if not games:
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    v_inverse = 0.0
    total = 0.0
    for mu_j, phi_j, score in games:
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * total
    sigma_new = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return Rating(SCALE * mu_new + 1500.0, SCALE * phi_new, sigma_new)
