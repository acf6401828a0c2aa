"""Solvers of the tests, written from the paper with NumPy on the request's oracles.

``FW`` is Algorithm 1 (LMO-LMO, ``alg:fw-fw``) in the class form the harness calls: the same
update as examples/python/lmo_lmo.py (the file route), on any family (the gradients and LMOs
are the request's, so cosine instances work too)::

    v_t     = LMO_X(grad_x L(x_t, y_t))
    x_{t+1} = x_t + tau_t (v_t - x_t)
    g_t     = grad_y L(x_t, y_t) - beta_t (y_t - y_0)
    u_t     = LMO_Y(-g_t)
    gamma_t = min{ g_t'(u_t - y_t) / ((L_yy + beta_t) ||u_t - y_t||^2), 1 }
    y_{t+1} = y_t + gamma_t (u_t - y_t)

``SlowedFW`` multiplies tau_t by (t+1)^-0.15 (primal exponent a + 0.15): a deliberately slowed
variant the gates must reject.
"""

import numpy as np


class FW:
    """Algorithm 1 with the entry's schedule."""

    slow = 0.0

    def __init__(self, req):
        self.req = req
        self.x = req.x0
        self.y = req.y0
        self.y0 = req.y0
        self.tau = req.tau
        self.beta = req.beta
        self.lyy = req.constants["lyy"]
        self.X, self.Y = req.x_set, req.y_set

    def step(self):
        req, t = self.req, self.req.t
        tau = self.tau[t] * ((t + 1.0) ** -self.slow if self.slow else 1.0)
        beta = self.beta[t]
        gx, gy = req.grads(self.x, self.y)
        if beta:
            gy = gy - beta * (self.y - self.y0)
        v = self.X.lmo(gx)
        u = self.Y.lmo(-gy)
        d = u - self.y
        dd = float(d @ d)
        if dd == 0.0:
            gamma = 0.0
        elif self.lyy + beta == 0.0:
            gamma = 1.0
        else:
            gamma = min(float(gy @ d) / ((self.lyy + beta) * dd), 1.0)
        self.x = self.x + tau * (v - self.x)
        self.y = self.y + gamma * d


class SlowedFW(FW):
    """Algorithm 1 with tau_t (t+1)^-0.15: the primal step exponent raised by 0.15."""

    slow = 0.15


def fw_step(req, x, y):
    """Algorithm 1 with beta_t = 0 as a step function updating x, y in place."""
    t = req.t
    gx, gy = req.grads(x, y)
    v = req.x_set.lmo(gx)
    u = req.y_set.lmo(-gy)
    d = u - y
    dd = float(d @ d)
    lyy = req.constants["lyy"]
    gamma = 0.0 if dd == 0.0 else (1.0 if lyy == 0.0 else min(float(gy @ d) / (lyy * dd), 1.0))
    x += req.tau[t] * (v - x)
    y += gamma * d
