/* Home in One Piece's greedy planner (greedy.py) and the listed steps it draws from
 * (touches.py's fan and ring) for the compiled kernel: the same steps, in the same order,
 * with the same draws. Included by _kernel.c only. */

static int may_meet2(Game *g, int i, int j) {
    const Blob *bs[2] = {&own(g)[i], &own(g)[j]};
    return may_meet(g->m, bs, 2);
}

/* touches._on_board: a spot held to the board; with bridges, one the board moved held to
 * its own line's reach. */
static void on_board(Game *g, int i, double x, double y, double *ox, double *oy) {
    clamp(g->m, x, y, own(g)[i].r, ox, oy);
    if (g->m->bridge > 0 && (*ox != x || *oy != y)) within_reach(g, i, ox, oy);
}

/* touches.fan_spots: the greedy tries for own blob `i`, in order; how many. */
static int fan_spots(Game *g, int i, double rx, double ry, double (*out)[2]) {
    const Model *m = g->m;
    const Blob *b = &own(g)[i];
    double to_go = hypot2(m, rx - b->ax, ry - b->ay);
    if (to_go == 0) return 0;
    double rho = reach_of(m, b->r, b->r);
    Disc o[NDISC];
    int no = m->bridge > 0 ? other_discs(g, o) : 0;
    double ux = (rx - b->ax) / to_go, uy = (ry - b->ay) / to_go;
    int n = 0;
    for (int f = 0; f < m->nfan; f++) {
        double c = m->fan[f][0], s = m->fan[f][1];
        double vx = c * ux - s * uy, vy = s * ux + c * uy;
        double most = no ? bridged_reach(m, b->ax, b->ay, b->r, vx, vy, o, no) : rho;
        double stride = (to_go < most) ? to_go : most;
        for (int k = 0; k < m->nstrides; k++) {
            double d = m->strides[k] * stride;
            on_board(g, i, b->ax + d * vx, b->ay + d * vy, &out[n][0], &out[n][1]);
            n++;
        }
    }
    return n;
}

/* touches.ring_spots: every eighth of a turn around the blob's turn-start spot. */
static int ring_spots(Game *g, int i, double (*out)[2]) {
    const Model *m = g->m;
    const Blob *b = &own(g)[i];
    double rho = reach_of(m, b->r, b->r);
    Disc o[NDISC];
    int no = m->bridge > 0 ? other_discs(g, o) : 0, n = 0;
    for (int f = 0; f < m->nring; f++) {
        double c = m->ring[f][0], s = m->ring[f][1];
        double most = no ? bridged_reach(m, b->ax, b->ay, b->r, c, s, o, no) : rho;
        for (int k = 0; k < m->nstrides; k++) {
            double d = m->strides[k] * most;
            on_board(g, i, b->ax + d * c, b->ay + d * s, &out[n][0], &out[n][1]);
            n++;
        }
    }
    return n;
}

/* greedy.join_spot_near: where the group can join clear of all dough, nearest the rally. */
static int greedy_spot(Game *g, const Group *gr, double rx, double ry, double *px, double *py) {
    const Model *m = g->m;
    double sx, sy;
    if (!join_spot(g, gr, rx, ry, &sx, &sy)) return 0;
    if (clear_spot(g, gr, rx, ry, 1, px, py)) return 1;
    double cx, cy;
    centroid(g, gr, &cx, &cy);
    double away = 2 * m->radii[group_units(g, gr)];
    int found = 0;
    double best = 0;
    for (int t = -1; t < m->nring; t++) {
        double tx = t < 0 ? cx : cx + away * m->ring[t][0];
        double ty = t < 0 ? cy : cy + away * m->ring[t][1];
        if (!clear_spot(g, gr, tx, ty, 1, &sx, &sy)) continue;
        double k = sq(sx - rx) + sq(sy - ry);
        if (!found || k < best) { best = k; *px = sx; *py = sy; found = 1; }
    }
    return found;
}

/* greedy.best_join: the biggest group of untouched blobs that can join now, landing
 * nearest the rally. */
static int best_join(Game *g, int k, double rx, double ry, Group *plan) {
    Group *buf = g->buf;
    int idx[MAXB], n = fresh(g, idx);
    for (int size = k < n ? k : n; size > 1; size--) {
        int ng = groups(g, size, buf), found = 0;
        double best = 0;
        for (int i = 0; i < ng; i++) {
            double sx, sy;
            if (!greedy_spot(g, &buf[i], rx, ry, &sx, &sy)) continue;
            double d = hypot2(g->m, sx - rx, sy - ry);
            if (!found || d < best) { best = d; *plan = buf[i]; found = 1; }
        }
        if (found) return 1;
    }
    return 0;
}

/* greedy.step: the clear point of the blob's fan nearest the rally, if nearer. */
static void step(Game *g, int i, double rx, double ry) {
    const Model *m = g->m;
    Blob *b = &own(g)[i];
    double now = hypot2(m, b->x - rx, b->y - ry);
    Disc o[NDISC];
    int no = discs_except(g, i, NULL, o);
    double spots[64][2], td[64], tx[64], ty[64];
    int ns = fan_spots(g, i, rx, ry, spots), nt = 0;
    for (int f = 0; f < ns; f++) {
        double x = spots[f][0], y = spots[f][1];
        double dist = hypot2(m, x - rx, y - ry);
        if (nt == 0 && dist < now - 1e-9 && clear(m, x, y, b->r, o, no)) {
            shift(g, i, x, y);
            return;
        }
        int at = nt++; /* insertion keeps the sort stable */
        while (at > 0 && dist < td[at - 1]) {
            td[at] = td[at - 1]; tx[at] = tx[at - 1]; ty[at] = ty[at - 1];
            at--;
        }
        td[at] = dist; tx[at] = x; ty[at] = y;
    }
    for (int t = 0; t < nt; t++) {
        if (td[t] >= now - 1e-9) return;
        if (clear(m, tx[t], ty[t], b->r, o, no)) {
            shift(g, i, tx[t], ty[t]);
            return;
        }
    }
}

/* greedy.sidestep: a random clear point of the blob's ring of steps. */
static void sidestep(Game *g, int i, Twister *tw) {
    const Model *m = g->m;
    Blob *b = &own(g)[i];
    Disc o[NDISC];
    int no = discs_except(g, i, NULL, o), n = 0;
    double spots[64][2], ok[64][2];
    int ns = ring_spots(g, i, spots);
    for (int f = 0; f < ns; f++)
        if (clear(m, spots[f][0], spots[f][1], b->r, o, no)) {
            ok[n][0] = spots[f][0];
            ok[n++][1] = spots[f][1];
        }
    if (n) {
        int k = randbelow(tw, n);
        shift(g, i, ok[k][0], ok[k][1]);
    }
}

/* greedy.take_turn: the rest of the turn, with the blobs not touched yet. */
static void greedy_turn(Game *g, Twister *tw) {
    const Model *m = g->m;
    double rx = m->rally[g->seat][0], ry = m->rally[g->seat][1];
    int k = touches_left(g), idx[MAXB], n = fresh(g, idx);
    Group plan;
    int planned = k >= 2 && n >= 2 && best_join(g, k, rx, ry, &plan);
    int spare = planned ? k - plan.size : k;
    /* laggards: untouched blobs furthest from the rally first, a stable sort on -distance */
    int order[MAXB], movers[MAXB], nm = 0;
    double key[MAXB];
    for (int f = 0; f < n; f++) {
        int i = idx[f];
        double kk = -hypot2(m, own(g)[i].x - rx, own(g)[i].y - ry);
        int at = f;
        while (at > 0 && kk < key[at - 1]) { key[at] = key[at - 1]; order[at] = order[at - 1]; at--; }
        key[at] = kk;
        order[at] = i;
    }
    for (int f = 0; f < n; f++)
        if (!planned || !in_group(&plan, order[f])) movers[nm++] = order[f];
    for (int f = 0; f < nm && f < spare; f++) {
        step(g, movers[f], rx, ry);
        if (g->err) return;
    }
    if (!planned && g->ntouched == 0 && nm > 0) {
        int alone = 1, all = g->n[g->seat];
        for (int j = 0; j < all && alone; j++)
            if (j != movers[0] && may_meet2(g, movers[0], j)) alone = 0;
        if (alone) sidestep(g, movers[0], tw);
    }
    if (planned) {
        double sx, sy;
        if (greedy_spot(g, &plan, rx, ry, &sx, &sy)) join(g, &plan, sx, sy);
    }
}
