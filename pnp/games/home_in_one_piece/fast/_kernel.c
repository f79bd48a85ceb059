/* Home in One Piece's compiled kernel: its rules, its bots and its step machine (`_tree.h`),
 * on which the shared driver (`pnp/play/_drive.h`) plays whole games for the simulation
 * runner, playouts and the tree search's rollouts.
 *
 * The readable rules (rules.py, model.py, blobs.py, state.py's random player, bots.py's
 * greedy planner) spelled out in C, drawing from the caller's Mersenne Twister as
 * `random.Random` does, so a seed plays the same game here as there. "The same" is
 * bit for bit: every float is computed by the same operations in the same order as the
 * Python source, and where Python calls the C library (`x ** 2` is libm's pow, math.sin,
 * math.cos, math.sqrt) this calls the same functions, through pointers so that the
 * compiler cannot fold or fuse them. math.hypot is Python's own; `hypot2` below gives its
 * correctly rounded value when that is certain and asks Python otherwise. Build without
 * floating-point contraction (-ffp-contract=off) and never with fast-math.
 * tests/test_hiop_kernel.py checks it game by game and position by position against the
 * readable rules. Portable C99 plus the CPython API. `playout` plays the greedy player
 * from a given position (a tree search's rollout, `compiled.playout`) on a generator
 * seeded as `random.Random(n)` from one number.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../../play/_twister.h"
#include "../../../play/_seed.h"
#include "../../../play/_seed_text.h"
#include "../../../play/_seam.h"
#include "../../../play/_drive.h"

#define MAXB 16          /* blobs per player (params: at most 16) */
#define MAXD 3           /* dice (params: at most 3) */
#define MAXF 6           /* faces a die */
#define NDISC (2 * MAXB) /* every blob on the board */
#define MAXG 1024        /* groups of one size: C(16, 3) = 560 */
#define MAXCAND (1 + (NDISC + MAXD) * 9 + (NDISC + MAXD) * (NDISC + MAXD) + 4)
#define NWEIGHTS 7       /* outlook.FEATURES */

/* The C library's functions as Python calls them; read through volatile pointers so the
 * compiler cannot fold pow(x, 2.0) into x * x or fuse sin and cos into sincos. */
static double (*const volatile lib_pow)(double, double) = pow;
static double (*const volatile lib_sin)(double) = sin;
static double (*const volatile lib_cos)(double) = cos;
static double (*const volatile lib_sqrt)(double) = sqrt;
static double (*const volatile lib_exp)(double) = exp;

/* x ** 2 as Python computes it for a float: pow(|x|, 2.0) from the C library. */
static double sq(double x) { return x == 0.0 ? 0.0 : lib_pow(fabs(x), 2.0); }

/* Shortcuts that change no result. A square or a sum of squares worked out with plain
 * products lies within a few ulps of the same worked out with `sq` (libm's pow) or of
 * the square of `hypot2`, so where the products put it far (a relative 1e-9) from the
 * number it is compared with, the comparison is already decided and the slow functions
 * need not run; near it, they still decide. Non-negative arguments. */
static int surely_above(double a, double b) { return a > b * (1.0 + 1e-9) + 1e-300; }
static int surely_below(double a, double b) { return a * (1.0 + 1e-9) + 1e-300 < b; }

/* --- math.hypot ------------------------------------------------------------------------ */

/* a * b = p + e exactly (Dekker's product with Veltkamp's split). */
static void two_prod(double a, double b, double *p, double *e) {
    const double split = 134217729.0; /* 2^27 + 1 */
    double ca = split * a, cb = split * b;
    double ah = ca - (ca - a), al = a - ah;
    double bh = cb - (cb - b), bl = b - bh;
    *p = a * b;
    *e = ((ah * bh - *p) + ah * bl + al * bh) + al * bl;
}

/* nextafter(h, +inf) (`way` 1) or nextafter(h, 0) (`way` -1) for a positive finite h: the
 * neighbouring double, by its bits (a library call here was a tenth of a search's time). */
static double beside(double h, int way) {
    uint64_t bits;
    memcpy(&bits, &h, sizeof bits);
    bits = way > 0 ? bits + 1 : bits - 1;
    memcpy(&h, &bits, sizeof h);
    return h;
}

/* Python's math.hypot(x, y); NaN with the Python error set if the call failed (the game
 * then reports it). */
static double python_hypot(PyObject *math_hypot, double x, double y) {
    PyObject *args[2] = {PyFloat_FromDouble(x), PyFloat_FromDouble(y)};
    double h = NAN;
    if (args[0] && args[1]) {
        PyObject *r = PyObject_Vectorcall(math_hypot, args, 2, NULL);
        if (r) {
            h = PyFloat_AsDouble(r);
            Py_DECREF(r);
        }
    }
    Py_XDECREF(args[0]);
    Py_XDECREF(args[1]);
    return h;
}

/* How far the exact root of s + lo lies from the double h, in ulps of h on the root's
 * side (below a power of two the ulp is half the one above), from the residual
 * s + lo - h^2 worked out with exact products (to a relative 2^-100 or so). */
static double root_offset(double s, double lo, double h) {
    double q, qe;
    two_prod(h, h, &q, &qe);
    double resid = ((s - q) - qe) + lo;
    double ulp = resid >= 0 ? beside(h, 1) - h : h - beside(h, -1);
    return resid / (2.0 * h) / ulp;
}

/* math.hypot(x, y). Python's result is within a tiny fraction of an ulp of the exact
 * root before its last rounding, so it is the correctly rounded root whenever the exact
 * root lies clearly away from a rounding midpoint. That is decided here with exact
 * products: h = sqrt(x^2 + y^2) rounded, and the residual x^2 + y^2 - h^2 says how far,
 * in ulps of h, the exact root lies from h. The rounded sqrt of the rounded sum is a
 * neighbour of the root's rounding about one time in ten; then the neighbour on the
 * root's side is weighed the same way (asking Python instead was a tenth of a search's
 * time). Near a midpoint, or at extreme magnitudes, Python is asked. */
static double exact_hypot(PyObject *math_hypot, double x, double y) {
    double ax = fabs(x), ay = fabs(y);
    if (ax < ay) { double t = ax; ax = ay; ay = t; }
    if (ay == 0.0) return ax;
    if (!(ax < 1e150 && ay > 1e-140)) return python_hypot(math_hypot, x, y);
    double p1, e1, p2, e2;
    two_prod(ax, ax, &p1, &e1);
    two_prod(ay, ay, &p2, &e2);
    double s = p1 + p2;                 /* two-sum of the big parts */
    double bv = s - p1;
    double se = (p1 - (s - bv)) + (p2 - bv);
    double lo = se + (e1 + e2);         /* the rest, far below an ulp of s */
    double h = sqrt(s + lo), off = root_offset(s, lo, h);
    if (fabs(off) < 0.4999) return h;
    if (fabs(off) < 1.5) {
        h = beside(h, off > 0 ? 1 : -1);
        if (fabs(root_offset(s, lo, h)) < 0.4999) return h;
    }
    return python_hypot(math_hypot, x, y);
}

/* Python's sum() of floats: plain left-to-right addition up to 3.11, Neumaier's
 * compensated sum from 3.12. */
static double py_sum(const double *v, int n) {
#if PY_VERSION_HEX >= 0x030C0000
    double f = 0.0 + v[0], c = 0.0; /* sum() starts from the int 0 */
    for (int i = 1; i < n; i++) {
        double x = v[i], t = f + x;
        if (fabs(f) >= fabs(x)) c += (f - t) + x;
        else c += (x - t) + f;
        f = t;
    }
    if (c != 0.0 && isfinite(c)) f += c;
    return f;
#else
    double f = 0.0 + v[0]; /* sum() starts from the int 0 */
    for (int i = 1; i < n; i++) f += v[i];
    return f;
#endif
}

/* --- the twister as random.Random draws ------------------------------------------------ */

static double rand01(Twister *t) {
    uint32_t a = genrand(t) >> 5, b = genrand(t) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* randrange(n): getrandbits(n.bit_length()) until below n. */
static int randbelow(Twister *t, int n) {
    int k = 0;
    while (n >> k) k++;
    uint32_t r;
    do r = genrand(t) >> (32 - k);
    while (r >= (uint32_t)n);
    return (int)r;
}

static double uniform(Twister *t, double a, double b) { return a + (b - a) * rand01(t); }

/* --- the model and the position -------------------------------------------------------- */

#define HYPOT_SHIFT 53 /* a table of 2^(64 - 53) roots */
#define HYPOT_MEMO ((size_t)1 << (64 - HYPOT_SHIFT))
typedef struct { uint64_t x, y; double h; } HypotMemo;

typedef struct {
    double width, height, home[4], reach, bridge, radii[MAXB + 1];
    int blobs;
    double rally[2][2], starts[2][MAXB][2];
    int ndice, nfaces[MAXD], faces[MAXD][MAXF];
    int nfan, nstrides, nring;
    double fan[16][2], strides[4], ring[16][2];
    double apart, apart_slack, eps, two_pi;
    int nweights, most_pairs;             /* outlook.WEIGHTS, outlook.MOST_PAIRS */
    double weights[NWEIGHTS], tempo;      /* outlook.WEIGHTS, outlook.TEMPO */
    PyObject *hypot; /* Python's math.hypot (a reference the model holds) */
    HypotMemo *memo; /* a game's own table of roots (`hypot2`); NULL in the shared model */
} Model;

/* math.hypot(x, y), the last roots worked out kept in the game's table by their
 * arguments' bits: a search asks for the same few thousand distances over and over (its
 * playouts start from the same positions, and the greedy player weighs the same joins
 * turn after turn), and a look-up is several times cheaper than `exact_hypot`. A root is
 * a function of its arguments alone, so what is kept stays right; the zeroed table holds
 * hypot(0, 0) = 0. */
static double hypot2(const Model *m, double x, double y) {
    if (!m->memo) return exact_hypot(m->hypot, x, y);
    uint64_t bx, by;
    memcpy(&bx, &x, sizeof bx);
    memcpy(&by, &y, sizeof by);
    HypotMemo *e = &m->memo[((bx * 0x9e3779b97f4a7c15ULL) ^ (by * 0xc2b2ae3d27d4eb4fULL)) >> HYPOT_SHIFT];
    if (e->x == bx && e->y == by) return e->h;
    double h = exact_hypot(m->hypot, x, y);
    if (!isnan(h)) {
        e->x = bx;
        e->y = by;
        e->h = h;
    }
    return h;
}

typedef struct { int size; unsigned char idx[MAXD]; } Group;

typedef struct { double x, y; int units; double r, ax, ay; } Blob;
typedef struct { double x, y, r; } Disc;

enum { END_TURN = 0, STEP = 1, JOIN = 2 };

/* A touch as the step machine (`_tree.h`) plays it: a step's blob or a join's blobs, and
 * the target `shift` or `join` was given; or the end of the turn. */
typedef struct {
    int kind;
    int blob;    /* a step's blob */
    Group group; /* a join's blobs */
    double x, y; /* the target */
} Act;

enum { C_ROLLS, C_R0, C_R1, C_R2, C_R3, C_STALLED, C_IDLE, C_TOUCHES, C_JOINS, C_BLOCKED, C_BRIDGES, NC };

/* The seat's side of a turn: its blobs and what the turn has touched, and the counters. */
typedef struct {
    Blob own[MAXB];
    int n, ntouched, turn_over;
    unsigned char touched[MAXB];
    long counters[NC];
} Side;

/* A turn's touches as a bot plans them on a scratch copy (`State.follow_plan`), at most
 * one a die, then END; `side[j]` is the turn before touch j, `side[n]` after the last, so
 * a planned touch is played by taking what it left, not worked out again. */
typedef struct {
    Act acts[MAXD + 1];
    Side side[MAXD + 1];
    int n;
} Plan;

typedef struct {
    const Model *m;              /* `model`: the shared model with this game's own `memo` */
    Model model;
    HypotMemo memo[HYPOT_MEMO];
    Blob b[2][MAXB];
    int n[2];
    int seat, turns, budget, turn_over, ntouched;
    unsigned char touched[MAXB]; /* of the seat's own blobs, by place */
    int ended;                   /* 0 playing, 1 home, 2 timeout */
    int winner, max_turns;
    int *leaders;
    long counters[NC];
    const char *err;
    Plan *planning; /* where `shift` and `join` note their touches while a turn is planned */
    double cand[MAXCAND][2]; /* scratch: nearest_clear's candidates */
    Group opts[MAXG * MAXD], buf[MAXG]; /* scratch: groups */
} Game;

static double reach_of(const Model *m, double r_from, double r_to) { return m->reach * (r_from + r_to); }

/* model.bridged_reach: how far along (ux, uy) from (ax, ay) a blob of radius r may be set
 * down, the way past one of the other player's blobs `o` (stretched round it, or bridged
 * over it no wider than m->bridge) costing none of its reach. */
static double bridged_reach(const Model *m, double ax, double ay, double r, double ux, double uy,
                            const Disc *o, int n) {
    double rho = m->reach * (r + r);
    if (m->bridge <= 0) return rho;
    double s1[NDISC], s2[NDISC];
    int ns = 0;
    for (int i = 0; i < n; i++) {
        double fx = o[i].x - ax, fy = o[i].y - ay;
        double along = fx * ux + fy * uy;
        if (along <= 0) continue;
        double off = fx * fx + fy * fy - along * along, pad = o[i].r + m->apart, s = r + pad;
        if (off >= s * s || (off < pad * pad && 2 * lib_sqrt(pad * pad - off) > m->bridge))
            continue;
        double half = lib_sqrt(s * s - off);
        double a = along - half, b = along + half;
        int at = ns++; /* sorted as Python sorts the (start, end) pairs */
        while (at > 0 && (a < s1[at - 1] || (a == s1[at - 1] && b < s2[at - 1]))) {
            s1[at] = s1[at - 1]; s2[at] = s2[at - 1];
            at--;
        }
        s1[at] = a; s2[at] = b;
    }
    double gone = 0.0, left = rho;
    for (int i = 0; i < ns; i++) {
        if (s1[i] - gone > left) break;
        if (s1[i] > gone) left -= s1[i] - gone;
        if (s2[i] > gone) gone = s2[i];
    }
    return gone + left;
}

static void clamp(const Model *m, double x, double y, double r, double *ox, double *oy) {
    double a = (r > x) ? r : x, lim = m->width - r;
    *ox = (lim < a) ? lim : a;
    double b = (r > y) ? r : y;
    lim = m->height - r;
    *oy = (lim < b) ? lim : b;
}

static int clear(const Model *m, double x, double y, double r, const Disc *o, int n) {
    for (int i = 0; i < n; i++) {
        double s = r + o[i].r + m->apart;
        double dx = x - o[i].x, dy = y - o[i].y;
        if (dx * dx + dy * dy < s * s) return 0;
    }
    return 1;
}

static int inside_all(const Model *m, double x, double y, const Disc *d, int n) {
    for (int i = 0; i < n; i++) {
        double dx = x - d[i].x, dy = y - d[i].y, lim = d[i].r + m->eps;
        if (dx * dx + dy * dy > lim * lim) return 0;
    }
    return 1;
}

static double free_fraction(const Model *m, double x, double y, double dx, double dy, double r,
                            const Disc *o, int n) {
    double a = dx * dx + dy * dy;
    if (a == 0) return 1.0;
    double b1[NDISC], b2[NDISC];
    int nb = 0;
    for (int i = 0; i < n; i++) {
        double s = r + o[i].r + m->apart;
        double fx = x - o[i].x, fy = y - o[i].y;
        double b = 2 * (fx * dx + fy * dy);
        double c = fx * fx + fy * fy - s * s;
        double disc = b * b - 4 * a * c;
        if (disc <= 0) continue;
        double root = lib_sqrt(disc);
        double t1 = (-b - root) / (2 * a), t2 = (-b + root) / (2 * a);
        if (t2 > 0 && t1 < 1) {
            b1[nb] = (0.0 > t1) ? 0.0 : t1;
            b2[nb++] = t2;
        }
    }
    double t = 1.0;
    int moved = 1;
    while (moved) {
        moved = 0;
        for (int i = 0; i < nb; i++)
            if (b1[i] < t && t < b2[i]) { t = b1[i]; moved = 1; }
    }
    return t;
}

/* Where two circles cross: 0 or 2 points into out. */
static int crossings(const Model *m, Disc a, Disc b, double out[2][2]) {
    double dx = b.x - a.x, dy = b.y - a.y, reach2 = a.r + b.r;
    if (surely_above(dx * dx + dy * dy, reach2 * reach2)) return 0; /* d > a.r + b.r */
    double d = hypot2(m, dx, dy);
    if (d == 0 || d > a.r + b.r || d < fabs(a.r - b.r)) return 0;
    double along = (a.r * a.r - b.r * b.r + d * d) / (2 * d);
    double v = a.r * a.r - along * along;
    double h = lib_sqrt((0.0 > v) ? 0.0 : v);
    double mx = a.x + along * (b.x - a.x) / d, my = a.y + along * (b.y - a.y) / d;
    double ox = h * (b.y - a.y) / d, oy = h * (b.x - a.x) / d;
    out[0][0] = mx + ox; out[0][1] = my - oy;
    out[1][0] = mx - ox; out[1][1] = my + oy;
    return 2;
}

static int nearest_in_discs(const Model *m, double tx, double ty, const Disc *d, int n,
                            double *px, double *py) {
    if (inside_all(m, tx, ty, d, n)) { *px = tx; *py = ty; return 1; }
    double c[MAXD * MAXD * 2 + MAXD + 8][2];
    int nc = 0;
    for (int i = 0; i < n; i++) {
        double ex = tx - d[i].x, ey = ty - d[i].y;
        if (surely_below(ex * ex + ey * ey, d[i].r * d[i].r)) continue; /* dd <= d[i].r */
        double dd = hypot2(m, ex, ey);
        if (dd > d[i].r) {
            c[nc][0] = d[i].x + (tx - d[i].x) * d[i].r / dd;
            c[nc][1] = d[i].y + (ty - d[i].y) * d[i].r / dd;
            nc++;
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) nc += crossings(m, d[i], d[j], c + nc);
    int found = 0;
    double best = 0;
    for (int i = 0; i < nc; i++) {
        double ex = c[i][0] - tx, ey = c[i][1] - ty;
        /* a candidate surely farther than the best cannot become it */
        if (found && surely_above(ex * ex + ey * ey, best)) continue;
        if (!inside_all(m, c[i][0], c[i][1], d, n)) continue;
        double k = sq(ex) + sq(ey);
        if (!found || k < best) { best = k; *px = c[i][0]; *py = c[i][1]; found = 1; }
    }
    return found;
}

/* dx^2 + dy^2 < lim^2 as Python's `dx ** 2 + dy ** 2 < lim ** 2` decides it (libm's pow,
 * called only where plain products cannot decide). */
static int sq_below(double dx, double dy, double lim) {
    double a = dx * dx + dy * dy, b = lim * lim;
    if (surely_below(a, b)) return 1;
    if (surely_above(a, b)) return 0;
    return sq(dx) + sq(dy) < sq(lim);
}

/* model._towards: the point of the circle nearest (x, y). */
static void towards(const Model *m, Disc c, double x, double y, double *px, double *py) {
    double d = hypot2(m, x - c.x, y - c.y), ux, uy;
    if (d > 0) { ux = (x - c.x) / d; uy = (y - c.y) / d; }
    else { ux = 0.0; uy = 1.0; }
    *px = c.x + ux * c.r;
    *py = c.y + uy * c.r;
}

/* model._edge_crossings: where the circle meets the board's four lines. */
static int edge_crossings(Disc c, const double box[4], double (*out)[2]) {
    int n = 0;
    for (int e = 0; e < 2; e++) {
        double edge = box[e];
        if (surely_above((edge - c.x) * (edge - c.x), c.r * c.r)) continue; /* h < 0 */
        double h = c.r * c.r - sq(edge - c.x);
        if (h >= 0) {
            out[n][0] = edge; out[n++][1] = c.y + lib_sqrt(h);
            out[n][0] = edge; out[n++][1] = c.y - lib_sqrt(h);
        }
    }
    for (int e = 2; e < 4; e++) {
        double edge = box[e];
        if (surely_above((edge - c.y) * (edge - c.y), c.r * c.r)) continue; /* h < 0 */
        double h = c.r * c.r - sq(edge - c.y);
        if (h >= 0) {
            out[n][0] = c.x + lib_sqrt(h); out[n++][1] = edge;
            out[n][0] = c.x - lib_sqrt(h); out[n++][1] = edge;
        }
    }
    return n;
}

/* model.nearest_clear: the nearest centre to (x, y) on the board, clear of `avoid` and
 * inside every anchor; 0 when there is none. `cand` is scratch of MAXCAND points. */
static int nearest_clear(const Model *m, double x, double y, double r, const Disc *avoid, int na,
                         const Disc *anchors, int nanch, double (*cand)[2], double *px,
                         double *py) {
    double box[4] = {r, m->width - r, r, m->height - r};
    Disc circles[NDISC + MAXD];
    int nc = 0, ncirc = 0;
    for (int k = 0; k < nanch; k++) circles[ncirc++] = anchors[k];
    for (int i = 0; i < na; i++) {
        double s = r + avoid[i].r + m->apart + m->apart_slack;
        int near = 1;
        for (int k = 0; k < nanch && near; k++)
            near = sq_below(avoid[i].x - anchors[k].x, avoid[i].y - anchors[k].y, s + anchors[k].r);
        if (near) circles[ncirc++] = (Disc){avoid[i].x, avoid[i].y, s};
    }
    clamp(m, x, y, r, &cand[nc][0], &cand[nc][1]);
    nc++;
    for (int i = 0; i < ncirc; i++) {
        towards(m, circles[i], x, y, &cand[nc][0], &cand[nc][1]);
        nc++;
        nc += edge_crossings(circles[i], box, cand + nc);
    }
    for (int i = 0; i < ncirc; i++)
        for (int j = i + 1; j < ncirc; j++) nc += crossings(m, circles[i], circles[j], cand + nc);
    double corners[4][2] = {{box[0], box[2]}, {box[0], box[3]}, {box[1], box[2]}, {box[1], box[3]}};
    for (int k = 0; k < 4; k++) { cand[nc][0] = corners[k][0]; cand[nc++][1] = corners[k][1]; }
    /* min over the good ones by (distance^2, x, y) */
    int found = 0;
    double bk = 0, bx = 0, by = 0;
    for (int i = 0; i < nc; i++) {
        double cx = cand[i][0], cy = cand[i][1];
        if (!(box[0] - 1e-9 <= cx && cx <= box[1] + 1e-9 && box[2] - 1e-9 <= cy && cy <= box[3] + 1e-9))
            continue;
        /* a candidate surely farther than the best cannot become it */
        if (found && surely_above((cx - x) * (cx - x) + (cy - y) * (cy - y), bk)) continue;
        if (!inside_all(m, cx, cy, anchors, nanch) || !clear(m, cx, cy, r, avoid, na)) continue;
        double k = sq(cx - x) + sq(cy - y);
        if (!found || k < bk || (k == bk && (cx < bx || (cx == bx && cy < by)))) {
            found = 1; bk = k; bx = cx; by = cy;
        }
    }
    if (!found) return 0;
    *px = bx; *py = by;
    return 1;
}

/* --- blobs and groups ------------------------------------------------------------------ */

static Blob *own(Game *g) { return g->b[g->seat]; }

static int group_units(Game *g, const Group *gr) {
    int u = 0;
    for (int i = 0; i < gr->size; i++) u += own(g)[gr->idx[i]].units;
    return u;
}

static void centroid(Game *g, const Group *gr, double *cx, double *cy) {
    double vx[MAXD], vy[MAXD];
    int units = group_units(g, gr);
    for (int i = 0; i < gr->size; i++) {
        Blob *b = &own(g)[gr->idx[i]];
        vx[i] = b->ax * b->units;
        vy[i] = b->ay * b->units;
    }
    *cx = py_sum(vx, gr->size) / units;
    *cy = py_sum(vy, gr->size) / units;
}

static int may_meet(const Model *m, const Blob *const *bs, int n) {
    int units = 0;
    for (int i = 0; i < n; i++) units += bs[i]->units;
    double share = m->reach, big2 = 2 * m->radii[units];
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double limit = share * (bs[i]->r + bs[j]->r + big2);
            double dx = bs[i]->ax - bs[j]->ax, dy = bs[i]->ay - bs[j]->ay;
            if (dx * dx + dy * dy > limit * limit) return 0;
        }
    return 1;
}

/* blobs.groups over the blobs not touched yet this turn (`rules.fresh`): groups of `size`
 * that may meet, in itertools order (the fresh blobs keep their order, so their groups are
 * all groups with no touched blob, in order). */
static int groups(Game *g, int size, Group *out) {
    const Model *m = g->m;
    Blob *o = own(g);
    int n = g->n[g->seat], count = 0;
    double share = m->reach;
    if (size == 2) {
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                if (g->touched[i] || g->touched[j]) continue;
                double limit = share * (o[i].r + o[j].r + 2 * m->radii[o[i].units + o[j].units]);
                double dx = o[i].ax - o[j].ax, dy = o[i].ay - o[j].ay;
                if (dx * dx + dy * dy <= limit * limit) {
                    out[count].size = 2;
                    out[count].idx[0] = (unsigned char)i;
                    out[count++].idx[1] = (unsigned char)j;
                }
            }
        return count;
    }
    double most = 2 * m->radii[m->blobs];
    unsigned char near[MAXB][MAXB];
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) { /* only pairs i < j are read below */
            double dx = o[i].ax - o[j].ax, dy = o[i].ay - o[j].ay;
            double lim = share * (o[i].r + o[j].r + most), d2 = dx * dx + dy * dy;
            near[i][j] = surely_below(d2, lim * lim)   ? 1
                         : surely_above(d2, lim * lim) ? 0
                                                       : sq(dx) + sq(dy) <= sq(lim);
        }
    int idx[MAXD];
    if (size > n) return 0;
    for (int i = 0; i < size; i++) idx[i] = i;
    for (;;) {
        int ok = 1;
        for (int i = 0; i < size && ok; i++) ok = !g->touched[idx[i]];
        for (int i = 0; i < size && ok; i++)
            for (int j = i + 1; j < size && ok; j++) ok = near[idx[i]][idx[j]];
        if (ok) {
            const Blob *bs[MAXD];
            for (int i = 0; i < size; i++) bs[i] = &o[idx[i]];
            if (may_meet(m, bs, size) && count < MAXG) {
                out[count].size = size;
                for (int i = 0; i < size; i++) out[count].idx[i] = (unsigned char)idx[i];
                count++;
            }
        }
        int i = size - 1;
        while (i >= 0 && idx[i] == i + n - size) i--;
        if (i < 0) break;
        idx[i]++;
        for (int j = i + 1; j < size; j++) idx[j] = idx[j - 1] + 1;
    }
    return count;
}

static int in_group(const Group *gr, int i) {
    for (int k = 0; k < gr->size; k++)
        if (gr->idx[k] == i) return 1;
    return 0;
}

/* Discs of all blobs but the seat's blob `skip` (-1: none) and the group's. */
static int discs_except(Game *g, int skip, const Group *gr, Disc *out) {
    int n = 0;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < g->n[s]; i++) {
            if (s == g->seat && (i == skip || (gr && in_group(gr, i)))) continue;
            out[n++] = (Disc){g->b[s][i].x, g->b[s][i].y, g->b[s][i].r};
        }
    return n;
}

static int own_discs_except(Game *g, const Group *gr, Disc *out) {
    int n = 0;
    for (int i = 0; i < g->n[g->seat]; i++)
        if (!in_group(gr, i)) out[n++] = (Disc){own(g)[i].x, own(g)[i].y, own(g)[i].r};
    return n;
}

static int other_discs(Game *g, Disc *out) {
    int s = 1 - g->seat;
    for (int i = 0; i < g->n[s]; i++) out[i] = (Disc){g->b[s][i].x, g->b[s][i].y, g->b[s][i].r};
    return g->n[s];
}

/* --- touching (rules.shift, rules.join) -------------------------------------------------- */

static int check_own(Game *g, const int *idx, int n) {
    if (g->turn_over) { g->err = "the turn is over"; return 0; }
    int fresh = 0;
    for (int i = 0; i < n; i++) fresh += !g->touched[idx[i]];
    if (g->ntouched + fresh > g->budget) { g->err = "the roll allows fewer touches"; return 0; }
    return 1;
}

/* The seat's side of the turn as it stands. */
static void side_of(const Game *g, Side *s) {
    s->n = g->n[g->seat];
    memcpy(s->own, g->b[g->seat], (size_t)s->n * sizeof(Blob));
    s->ntouched = g->ntouched;
    s->turn_over = g->turn_over;
    memcpy(s->touched, g->touched, sizeof s->touched);
    memcpy(s->counters, g->counters, sizeof s->counters);
}

/* The seat's side of the turn set back as `s` holds it (the counters aside). */
static void side_set(Game *g, const Side *s) {
    memcpy(g->b[g->seat], s->own, (size_t)s->n * sizeof(Blob));
    g->n[g->seat] = s->n;
    g->ntouched = s->ntouched;
    g->turn_over = s->turn_over;
    memcpy(g->touched, s->touched, sizeof g->touched);
}

/* Note a touch the planner makes (`Game.planning`), before it touches anything. */
static void note(Game *g, Act a) {
    Plan *p = g->planning;
    if (!p || p->n >= MAXD) return; /* each touch takes a die's blob: never */
    p->acts[p->n] = a;
    side_of(g, &p->side[p->n++]);
}

static void touch(Game *g, int i) {
    if (!g->touched[i]) { g->touched[i] = 1; g->ntouched++; }
}

/* rules.within_reach: the target, or the furthest point own blob `i` reaches towards it. */
static void within_reach(Game *g, int i, double *tx, double *ty) {
    const Model *m = g->m;
    const Blob *b = &own(g)[i];
    double rho = reach_of(m, b->r, b->r);
    double dx = *tx - b->ax, dy = *ty - b->ay;
    if (surely_below(dx * dx + dy * dy, rho * rho)) return; /* d <= rho */
    double d = hypot2(m, dx, dy);
    if (!(d > rho)) return;
    double most = rho;
    if (m->bridge > 0) {
        Disc o[NDISC];
        int n = other_discs(g, o);
        most = bridged_reach(m, b->ax, b->ay, b->r, dx / d, dy / d, o, n);
    }
    if (d > most) { *tx = b->ax + dx * most / d; *ty = b->ay + dy * most / d; }
}

/* rules.shift_target: within reach, on the board, and with bridges a target the board
 * moved held to its own line's reach again. */
static void shift_target(Game *g, int i, double *tx, double *ty) {
    const Model *m = g->m;
    within_reach(g, i, tx, ty);
    double x = *tx, y = *ty;
    clamp(m, x, y, own(g)[i].r, tx, ty);
    if (m->bridge > 0 && (*tx != x || *ty != y)) within_reach(g, i, tx, ty);
}

static void shift(Game *g, int i, double tx, double ty) {
    const Model *m = g->m;
    if (!check_own(g, &i, 1)) return;
    note(g, (Act){STEP, i, {0, {0}}, tx, ty});
    touch(g, i);
    Blob *b = &own(g)[i];
    shift_target(g, i, &tx, &ty);
    double dx = tx - b->x, dy = ty - b->y;
    Disc o[NDISC];
    int n = discs_except(g, i, NULL, o);
    double t = free_fraction(m, b->x, b->y, dx, dy, b->r, o, n);
    n = other_discs(g, o);
    int hits_other = !clear(m, tx, ty, b->r, o, n);
    if (t == 1.0) { b->x = tx; b->y = ty; }
    else { b->x = b->x + t * dx; b->y = b->y + t * dy; }
    double rho = reach_of(m, b->r, b->r) + m->eps, ex = b->x - b->ax, ey = b->y - b->ay;
    g->counters[C_BRIDGES] += ex * ex + ey * ey > rho * rho; /* rules.bridged */
    if (t == 1.0) return;
    if (hits_other) { g->turn_over = 1; g->counters[C_BLOCKED]++; }
}

static int group_anchor_discs(Game *g, const Group *gr, double big, Disc *out) {
    for (int k = 0; k < gr->size; k++) {
        Blob *b = &own(g)[gr->idx[k]];
        out[k] = (Disc){b->ax, b->ay, reach_of(g->m, b->r, big)};
    }
    return gr->size;
}

static int join_spot(Game *g, const Group *gr, double tx, double ty, double *sx, double *sy) {
    const Model *m = g->m;
    double big = m->radii[group_units(g, gr)], px, py;
    Disc d[MAXD];
    int n = group_anchor_discs(g, gr, big, d);
    clamp(m, tx, ty, big, &tx, &ty);
    if (!nearest_in_discs(m, tx, ty, d, n, &px, &py)) return 0;
    clamp(m, px, py, big, sx, sy);
    return inside_all(m, *sx, *sy, d, n);
}

static int clear_spot(Game *g, const Group *gr, double tx, double ty, int of_all, double *sx,
                      double *sy) {
    if (!join_spot(g, gr, tx, ty, sx, sy)) return 0;
    Disc around[NDISC];
    int n = of_all ? discs_except(g, -1, gr, around) : own_discs_except(g, gr, around);
    return clear(g->m, *sx, *sy, g->m->radii[group_units(g, gr)], around, n);
}

/* rules.landing: where a join aimed at (tx, ty) would set the group down, and whether it
 * was moved apart from the other player's dough (`*apart`); 0 when the join may not. */
static int landing(Game *g, const Group *gr, double tx, double ty, double *sx, double *sy,
                   int *apart) {
    const Model *m = g->m;
    if (!clear_spot(g, gr, tx, ty, 0, sx, sy)) return 0;
    double big = m->radii[group_units(g, gr)];
    Disc o[NDISC];
    int n = other_discs(g, o);
    *apart = 0;
    if (clear(m, *sx, *sy, big, o, n)) return 1;
    Disc anchors[MAXD];
    int na = group_anchor_discs(g, gr, big, anchors);
    n = discs_except(g, -1, gr, o);
    *apart = 1;
    return nearest_clear(m, *sx, *sy, big, o, n, anchors, na, g->cand, sx, sy);
}

static void join(Game *g, const Group *gr, double tx, double ty) {
    int idx[MAXD], apart;
    for (int k = 0; k < gr->size; k++) idx[k] = gr->idx[k];
    if (!check_own(g, idx, gr->size)) return;
    double sx, sy;
    if (!landing(g, gr, tx, ty, &sx, &sy, &apart)) { g->err = "a join the rules refuse"; return; }
    note(g, (Act){JOIN, -1, *gr, tx, ty});
    int units = group_units(g, gr);
    for (int k = 0; k < gr->size; k++) touch(g, gr->idx[k]);
    g->turn_over = 1;
    g->counters[C_BLOCKED] += apart;
    Blob *b = own(g);
    int keep = 0;
    for (int i = 0; i < g->n[g->seat]; i++)
        if (!in_group(gr, i)) { b[keep] = b[i]; g->touched[keep] = g->touched[i]; keep++; }
    b[keep] = (Blob){sx, sy, units, g->m->radii[units], sx, sy};
    g->touched[keep] = 0;
    g->n[g->seat] = keep + 1;
    g->counters[C_JOINS]++;
}

/* rules.touches_left: blobs the roll still lets the player touch. */
static int touches_left(Game *g) { return g->turn_over ? 0 : g->budget - g->ntouched; }

/* rules.fresh: the untouched own blobs' places, in order; how many. */
static int fresh(Game *g, int *out) {
    int n = 0;
    for (int i = 0; i < g->n[g->seat]; i++)
        if (!g->touched[i]) out[n++] = i;
    return n;
}

/* --- the random player (state.random_turn) ---------------------------------------------- */

static void random_turn(Game *g, Twister *tw) {
    const Model *m = g->m;
    int own_idx[MAXB], n = fresh(g, own_idx), k = touches_left(g), apart;
    Group *opts = g->opts, *buf = g->buf;
    if (k >= 2 && n >= 2 && rand01(tw) < 0.5) {
        int no = 0, top = k < n ? k : n;
        for (int size = 2; size <= top; size++) {
            int ng = groups(g, size, buf);
            for (int i = 0; i < ng; i++) {
                double cx, cy, sx, sy;
                centroid(g, &buf[i], &cx, &cy);
                if (landing(g, &buf[i], cx, cy, &sx, &sy, &apart)) opts[no++] = buf[i];
            }
        }
        if (no) {
            Group gr = opts[randbelow(tw, no)];
            double tx = uniform(tw, 0, m->width), ty = uniform(tw, 0, m->height), sx, sy;
            if (!landing(g, &gr, tx, ty, &sx, &sy, &apart)) centroid(g, &gr, &tx, &ty);
            join(g, &gr, tx, ty);
            return;
        }
    }
    /* rng.sample(fresh, min(k, n)): the pool method (n <= 16 <= 21) */
    int take = k < n ? k : n, pool[MAXB], chosen[MAXD];
    for (int i = 0; i < n; i++) pool[i] = own_idx[i];
    for (int i = 0; i < take; i++) {
        int j = randbelow(tw, n - i);
        chosen[i] = pool[j];
        pool[j] = pool[n - i - 1];
    }
    for (int i = 0; i < take; i++) {
        if (g->turn_over) return;
        Blob *b = &own(g)[chosen[i]];
        double rho = reach_of(m, b->r, b->r) * lib_sqrt(rand01(tw));
        double angle = uniform(tw, 0, m->two_pi);
        shift(g, chosen[i], b->ax + rho * lib_cos(angle), b->ay + rho * lib_sin(angle));
        if (g->err) return;
    }
}

#include "_greedy.h"

/* --- turns and the game ----------------------------------------------------------------- */

static int at_home(const Model *m, const Blob *b) {
    return b->x - b->r >= m->home[0] - 1e-9 && b->x + b->r <= m->home[2] + 1e-9 &&
           b->y - b->r >= m->home[1] - 1e-9 && b->y + b->r <= m->home[3] + 1e-9;
}

static int score(Game *g, int s) {
    int home = 0;
    for (int i = 0; i < g->n[s]; i++)
        if (at_home(g->m, &g->b[s][i])) home += g->b[s][i].units;
    return g->m->blobs - g->n[s] + home;
}

static void end_turn(Game *g) {
    g->counters[C_TOUCHES] += g->ntouched;
    g->counters[C_IDLE] += g->ntouched == 0;
    g->turns++;
    int s0 = score(g, 0), s1 = score(g, 1);
    g->leaders[g->turns - 1] = s0 > s1 ? 0 : s1 > s0 ? 1 : -1;
    if (g->n[g->seat] == 1 && at_home(g->m, &own(g)[0])) { g->ended = 1; g->winner = g->seat; }
    else if (g->turns >= g->max_turns) g->ended = 2;
    g->seat = 1 - g->seat;
}

/* rules.roll's draw and count (dice_model.roll's draws): the turn's budget, and every own
 * blob's anchor where it lies; 0, or -1 with `err` set. */
static int roll_dice(Game *g, Twister *tw) {
    const Model *m = g->m;
    int allowed = 0;
    for (int d = 0; d < m->ndice; d++) allowed += m->faces[d][randbelow(tw, m->nfaces[d])];
    if (allowed > 3) { g->err = "no counter for that roll"; return -1; }
    g->counters[C_ROLLS]++;
    g->counters[C_R0 + allowed]++;
    g->counters[C_STALLED] += allowed <= 1;
    g->budget = allowed;
    for (int i = 0; i < g->n[g->seat]; i++) { own(g)[i].ax = own(g)[i].x; own(g)[i].ay = own(g)[i].y; }
    return 0;
}

/* The rest of rules.begin_turn: nothing touched yet; a blank roll's turn is over. */
static void begin_touches(Game *g) {
    g->ntouched = 0;
    memset(g->touched, 0, sizeof g->touched);
    g->turn_over = g->budget == 0;
}

/* --- the seam (`pnp/play/_seam.h`): the model, whole games, playouts, the search -------- */

/* The play model and the rules' constants as `compiled.model_fields` names them: points
 * as x, y pairs one after the other (`starts`: seat 0's then seat 1's), and the dice as
 * their faces die after die (`faces`) with each die's number of sides (`sides`). */
typedef struct {
    double width, height, home[4], reach, bridge, radii[MAXB + 1], rally[2][2];
    double starts[2 * MAXB * 2], fan[16][2], strides[4], ring[16][2];
    double apart, apart_slack, eps, two_pi, weights[NWEIGHTS], tempo;
    int faces[MAXD * MAXF], sides[MAXD], most_pairs;
    int nradii, nstarts, nfan, nstrides, nring, nfaces, nsides;
} Spec;

static const SeamField MODEL[] = {
    SEAM_DOUBLE(Spec, width),
    SEAM_DOUBLE(Spec, height),
    SEAM_DOUBLES(Spec, home),
    SEAM_DOUBLE(Spec, reach),
    SEAM_DOUBLE(Spec, bridge),
    SEAM_DOUBLE_LIST(Spec, radii, nradii),
    SEAM_DOUBLES(Spec, rally),
    SEAM_DOUBLE_LIST(Spec, starts, nstarts),
    SEAM_LIST(Spec, faces, nfaces, INT_MIN, INT_MAX),
    SEAM_LIST(Spec, sides, nsides, 1, MAXF),
    SEAM_DOUBLE_LIST(Spec, fan, nfan),
    SEAM_DOUBLE_LIST(Spec, strides, nstrides),
    SEAM_DOUBLE_LIST(Spec, ring, nring),
    SEAM_DOUBLE(Spec, apart),
    SEAM_DOUBLE(Spec, apart_slack),
    SEAM_DOUBLE(Spec, eps),
    SEAM_DOUBLE(Spec, two_pi),
    SEAM_DOUBLES(Spec, weights),
    SEAM_DOUBLE(Spec, tempo),
    SEAM_INT(Spec, most_pairs, 0, INT_MAX),
    SEAM_END,
};

static const char MODEL_NAME[] = "hiop.Model";

static void free_model(PyObject *cap) {
    Model *m = PyCapsule_GetPointer(cap, MODEL_NAME);
    if (m) Py_XDECREF(m->hypot);
    free(m);
}

/* The Model of a read Spec; 0, or -1 with a ValueError. */
static int model_of(const Spec *s, Model *m) {
    int faces = 0;
    for (int d = 0; d < s->nsides; d++) faces += s->sides[d];
    if (s->nradii < 2 || s->nstarts != 2 * (s->nradii - 1) * 2 || s->nsides < 1 ||
        faces != s->nfaces || s->nfan % 2 || s->nring % 2) {
        PyErr_SetString(PyExc_ValueError, "a model the kernel cannot hold");
        return -1;
    }
    m->width = s->width;
    m->height = s->height;
    memcpy(m->home, s->home, sizeof m->home);
    m->reach = s->reach;
    m->bridge = s->bridge;
    m->blobs = s->nradii - 1;
    memcpy(m->radii, s->radii, (size_t)s->nradii * sizeof(double));
    memcpy(m->rally, s->rally, sizeof m->rally);
    for (int k = 0; k < s->nstarts; k++)
        m->starts[k / (2 * m->blobs)][k / 2 % m->blobs][k % 2] = s->starts[k];
    m->ndice = s->nsides;
    for (int d = 0, k = 0; d < s->nsides; d++) {
        m->nfaces[d] = s->sides[d];
        for (int i = 0; i < s->sides[d]; i++) m->faces[d][i] = s->faces[k++];
    }
    m->nfan = s->nfan / 2;
    memcpy(m->fan, s->fan, sizeof m->fan);
    m->nstrides = s->nstrides;
    memcpy(m->strides, s->strides, sizeof m->strides);
    m->nring = s->nring / 2;
    memcpy(m->ring, s->ring, sizeof m->ring);
    m->apart = s->apart;
    m->apart_slack = s->apart_slack;
    m->eps = s->eps;
    m->two_pi = s->two_pi;
    m->nweights = NWEIGHTS;
    memcpy(m->weights, s->weights, sizeof m->weights);
    m->tempo = s->tempo;
    m->most_pairs = s->most_pairs;
    return 0;
}

/* model(fields) -> capsule: the kernel's copy of a play model, the board of every entry. */
static PyObject *k_model(PyObject *self, PyObject *fields) {
    (void)self;
    Spec s;
    memset(&s, 0, sizeof s);
    if (seam_read(fields, MODEL, &s, "model") < 0) return NULL;
    Model *m = calloc(1, sizeof(Model));
    if (!m) return PyErr_NoMemory();
    if (model_of(&s, m) < 0) {
        free(m);
        return NULL;
    }
    PyObject *mathmod = PyImport_ImportModule("math");
    if (mathmod) {
        m->hypot = PyObject_GetAttrString(mathmod, "hypot");
        Py_DECREF(mathmod);
    }
    if (!m->hypot) {
        free(m);
        return NULL;
    }
    PyObject *cap = PyCapsule_New(m, MODEL_NAME, free_model);
    if (!cap) {
        Py_DECREF(m->hypot);
        free(m);
    }
    return cap;
}

/* A game of up to `max_turns` turns on a copy of `m` with its own table of roots, nothing
 * on the board yet; NULL with an exception. */
static Game *game_new(const Model *m, int max_turns) {
    Game *g = calloc(1, sizeof(Game));
    if (!g) return (Game *)PyErr_NoMemory();
    g->leaders = malloc(sizeof(int) * (size_t)max_turns);
    if (!g->leaders) {
        free(g);
        return (Game *)PyErr_NoMemory();
    }
    g->model = *m;
    g->model.memo = g->memo;
    g->m = &g->model;
    g->max_turns = max_turns;
    g->winner = -1;
    return g;
}

static void game_free(Game *g) {
    if (g) free(g->leaders);
    free(g);
}

/* A position as `compiled.position` names it: every blob (seat 0's, then seat 1's; how
 * many each in `blobs`), the seat to move, turns played, whether it has rolled, the roll's
 * budget, the places of the own blobs the turn has touched, the turn limit, how the game
 * ended (0 going, 1 home, 2 timeout), the winner or -1, what a cut-off is scored on (2
 * `win_chances()`, 1 `standing()`, 0 neither, as `MctsBot.reward` asks) and the counters
 * by name. After a playout, and as a whole game's record: the blobs, seat, turns, end,
 * winner, the leader after each turn played (here only) and the counters. */
typedef struct {
    double x[NDISC], y[NDISC], r[NDISC], ax[NDISC], ay[NDISC];
    int units[NDISC], nx, ny, nr, nax, nay, nunits;
    int blobs[2], seat, turns, rolled, budget, touched[MAXB], ntouched, max_turns;
    int ended, winner, scoring;
    int rolls, rolls_0, rolls_1, rolls_2, rolls_3, stalled_turns, idle_turns, touches, joins,
        blocked, bridges;
    int *leaders, nleaders;
    Game *g; /* a playout's game, freed by `position_release` */
} Packed;

/* Where each of the counters (C_ROLLS, ...) lies in a Packed. */
static const size_t COUNTER_AT[NC] = {
    offsetof(Packed, rolls),         offsetof(Packed, rolls_0),    offsetof(Packed, rolls_1),
    offsetof(Packed, rolls_2),       offsetof(Packed, rolls_3),    offsetof(Packed, stalled_turns),
    offsetof(Packed, idle_turns),    offsetof(Packed, touches),    offsetof(Packed, joins),
    offsetof(Packed, blocked),       offsetof(Packed, bridges),
};

#define COUNTER_FIELDS                                                                   \
    SEAM_INT(Packed, rolls, 0, INT_MAX), SEAM_INT(Packed, rolls_0, 0, INT_MAX),           \
        SEAM_INT(Packed, rolls_1, 0, INT_MAX), SEAM_INT(Packed, rolls_2, 0, INT_MAX),     \
        SEAM_INT(Packed, rolls_3, 0, INT_MAX), SEAM_INT(Packed, stalled_turns, 0, INT_MAX), \
        SEAM_INT(Packed, idle_turns, 0, INT_MAX), SEAM_INT(Packed, touches, 0, INT_MAX),  \
        SEAM_INT(Packed, joins, 0, INT_MAX), SEAM_INT(Packed, blocked, 0, INT_MAX),       \
        SEAM_INT(Packed, bridges, 0, INT_MAX)

#define BLOB_FIELDS                                                                       \
    SEAM_DOUBLE_LIST(Packed, x, nx), SEAM_DOUBLE_LIST(Packed, y, ny),                     \
        SEAM_LIST(Packed, units, nunits, 1, 2 * MAXB), SEAM_DOUBLE_LIST(Packed, r, nr),   \
        SEAM_DOUBLE_LIST(Packed, ax, nax), SEAM_DOUBLE_LIST(Packed, ay, nay)

static const SeamField POSITION[] = {
    BLOB_FIELDS,
    SEAM_INTS(Packed, blobs, 1, MAXB),
    SEAM_INT(Packed, seat, 0, 1),
    SEAM_INT(Packed, turns, 0, 100000000),
    SEAM_BOOL(Packed, rolled),
    SEAM_INT(Packed, budget, 0, 3),
    SEAM_LIST(Packed, touched, ntouched, 0, MAXB - 1),
    SEAM_INT(Packed, max_turns, 1, 100000000),
    SEAM_INT(Packed, ended, 0, 2),
    SEAM_INT(Packed, winner, -1, 1),
    SEAM_INT(Packed, scoring, 0, 2),
    COUNTER_FIELDS,
    SEAM_END,
};

static const SeamField AFTER[] = {
    BLOB_FIELDS,
    SEAM_INTS(Packed, blobs, 0, 0),
    SEAM_OUT_INT(Packed, seat),
    SEAM_OUT_INT(Packed, turns),
    SEAM_OUT_INT(Packed, ended),
    SEAM_OUT_INT(Packed, winner),
    SEAM_HEAP_OUT(Packed, leaders, nleaders),
    COUNTER_FIELDS,
    SEAM_END,
};

/* A game at a packed position; NULL with an exception if it is none the kernel holds
 * (blobs' lists of unequal lengths, a blob touched twice, one the seat does not have, more
 * touched than the roll allows, or touched before a roll). */
static Game *game_at(const Model *m, const Packed *q) {
    int n = q->blobs[0] + q->blobs[1];
    if (q->nx != n || q->ny != n || q->nr != n || q->nax != n || q->nay != n || q->nunits != n) {
        PyErr_SetString(PyExc_ValueError, "blobs the kernel cannot hold");
        return NULL;
    }
    Game *g = game_new(m, q->max_turns);
    if (!g) return NULL;
    for (int s = 0, k = 0; s < 2; s++) {
        g->n[s] = q->blobs[s];
        for (int i = 0; i < q->blobs[s]; i++, k++)
            g->b[s][i] = (Blob){q->x[k], q->y[k], q->units[k], q->r[k], q->ax[k], q->ay[k]};
    }
    g->seat = q->seat;
    g->turns = q->turns;
    g->budget = q->budget;
    g->ended = q->ended;
    g->winner = q->winner;
    for (int c = 0; c < NC; c++) g->counters[c] = *(const int *)((const char *)q + COUNTER_AT[c]);
    begin_touches(g);
    int bad = q->ntouched > q->budget || (!q->rolled && q->ntouched);
    for (int k = 0; k < q->ntouched && !bad; k++) {
        int i = q->touched[k];
        bad = i >= g->n[g->seat] || g->touched[i];
        g->touched[i] = 1;
        g->ntouched++;
    }
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "touched blobs the kernel cannot hold");
        game_free(g);
        return NULL;
    }
    return g;
}

/* `g` packed for the caller, with the leaders of its turns from `first` on. */
static void pack(Packed *q, Game *g, int first) {
    for (int s = 0, k = 0; s < 2; s++) {
        q->blobs[s] = g->n[s];
        for (int i = 0; i < g->n[s]; i++, k++) {
            const Blob *b = &g->b[s][i];
            q->x[k] = b->x;
            q->y[k] = b->y;
            q->units[k] = b->units;
            q->r[k] = b->r;
            q->ax[k] = b->ax;
            q->ay[k] = b->ay;
        }
    }
    q->nx = q->ny = q->nr = q->nax = q->nay = q->nunits = g->n[0] + g->n[1];
    q->seat = g->seat;
    q->turns = g->turns;
    q->ended = g->ended;
    q->winner = g->winner;
    q->leaders = g->leaders + first;
    q->nleaders = g->turns - first;
    for (int c = 0; c < NC; c++) *(int *)((char *)q + COUNTER_AT[c]) = (int)g->counters[c];
}

#include "_tree.h"

/* A whole game: random or greedy players in both seats, from the model's start, played
 * by the shared driver over the step machine (`tree_drive`). */
typedef struct {
    TreeCtx *c;
    Twister tw;
    int greedy, max_turns;
} Whole;

static const SeamField SETTINGS[] = {
    SEAM_BOOL(Whole, greedy),
    SEAM_INT(Whole, max_turns, 1, 100000000),
    SEAM_END,
};

static int whole_begin(const void *board, void *game) {
    Whole *w = game;
    w->c = PyMem_Calloc(1, sizeof(TreeCtx));
    if (!w->c) {
        PyErr_NoMemory();
        return -1;
    }
    tree_steps(w->c);
    w->c->g = game_new(board, w->max_turns);
    return w->c->g ? 0 : -1;
}

static int whole_play(const void *board, void *game) {
    const Model *m = board;
    Whole *w = game;
    Game *g = w->c->g;
    w->c->err = NULL;
    g->seat = g->turns = g->budget = g->ended = g->ntouched = 0;
    memset(g->touched, 0, sizeof g->touched);
    g->winner = -1;
    g->err = NULL;
    memset(g->counters, 0, sizeof g->counters);
    for (int s = 0; s < 2; s++) {
        g->n[s] = m->blobs;
        for (int i = 0; i < m->blobs; i++) {
            double x = m->starts[s][i][0], y = m->starts[s][i][1];
            g->b[s][i] = (Blob){x, y, 1, m->radii[1], x, y};
        }
    }
    TreePos p;
    tree_store(&p, g);
    p.rolled = 0;
    tree_drive(w->c, &p, &w->tw, w->greedy ? tree_greedy : NULL, INT_MAX);
    return 0; /* an error is the record's to report */
}

static PyObject *whole_record(const void *board, const void *game) {
    (void)board;
    TreeCtx *c = ((const Whole *)game)->c;
    if (tree_failed(c) < 0) return NULL;
    Packed q;
    pack(&q, c->g, 0);
    return seam_write(AFTER, &q);
}

static void whole_end(void *game) {
    TreeCtx *c = ((Whole *)game)->c;
    if (c) game_free(c->g);
    PyMem_Free(c);
}

static const uint32_t *seed_start(const void *board) {
    (void)board;
    return GENRAND_INIT;
}

/* The search's rollout policy (the greedy player) from a position between turns (not
 * `rolled`) or at a seat's decision (`rolled`, with the roll's `budget`, the anchors in
 * the blobs and the places of the blobs touched so far), until the game ends or `stop`
 * turns are played, on a generator seeded as `random.Random(seed)`. */
static int position_playout(const void *board, void *position, uint64_t seed, int stop) {
    Packed *q = position;
    if (q->turns >= q->max_turns) {
        PyErr_SetString(PyExc_ValueError, "not a position the kernel plays on from");
        return -1;
    }
    TreeCtx c = {.g = q->g = game_at(board, q)};
    if (!c.g) return -1;
    TreePos p;
    tree_store(&p, c.g);
    p.rolled = q->rolled;
    Twister tw;
    twister_seed64(&tw, seed);
    tree_steps(&c);
    if (tree_drive(&c, &p, &tw, tree_greedy, stop) < 0) return -1;
    pack(q, c.g, q->turns);
    return 0;
}

static void position_release(void *position) { game_free(((Packed *)position)->g); }

typedef struct { double x, y; } Point;

static const SeamField POINT[] = {SEAM_DOUBLE(Point, x), SEAM_DOUBLE(Point, y), SEAM_END};

/* hypot(model, {x, y}): math.hypot(x, y) as the kernel computes it (for the tests). */
static PyObject *k_hypot(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cap, *fields;
    Point p;
    if (!PyArg_ParseTuple(args, "OO!", &cap, &PyDict_Type, &fields)) return NULL;
    const Model *m = PyCapsule_GetPointer(cap, MODEL_NAME);
    if (!m || seam_read(fields, POINT, &p, "point") < 0) return NULL;
    double h = hypot2(m, p.x, p.y);
    if (PyErr_Occurred()) return NULL;
    return PyFloat_FromDouble(h);
}

static const SeamKernel KERNEL = {
    .board = MODEL_NAME,
    .game_size = sizeof(Whole),
    .twister = offsetof(Whole, tw),
    .nogil = 0, /* math.hypot is Python's where its root is in doubt */
    .settings = SETTINGS,
    .begin = whole_begin,
    .play = whole_play,
    .record = whole_record,
    .end = whole_end,
    .seed_start = seed_start,
    .position_size = sizeof(Packed),
    .position = POSITION,
    .after = AFTER,
    .playout = position_playout,
    .release = position_release,
    .tree = tree_begin,
    .tree_end = tree_end,
};

SEAM_ENTRIES(KERNEL)

static PyMethodDef methods[] = {
    {"model", k_model, METH_O, "model(fields): the kernel's copy of a play model (a capsule)."},
    {"hypot", k_hypot, METH_VARARGS, "hypot(model, {x, y}): math.hypot as the kernel computes it."},
    SEAM_METHODS,
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
