#include <stdlib.h>
#include <string.h>
#include "galley_pixels.h"

/* The box blur of shadow masks (`BoxBlur` in GalleyRender). It is the drawing thread's work for
 * every blurred shadow, and its loops are what C compilers vectorise well: each one walks memory
 * in order over plain arrays. Built twice, for AVX2 and for the x86-64 baseline, the better one
 * chosen when the program loads. */

/* sum ÷ (2r + 1), rounded: (sum × ⌊65536 ÷ w + 1⌋ + half) >> 16, at most 255. */
struct scale {
    uint32_t reciprocal, half;
};

static struct scale make_scale(int r) {
    uint32_t w = 2 * (uint32_t)r + 1;
    struct scale s;
    s.reciprocal = 65536 / w + 1;
    s.half = (w * s.reciprocal) / 2;
    return s;
}

__attribute__((always_inline)) static inline uint32_t scaled(uint32_t sum, struct scale s) {
    uint32_t v = (sum * s.reciprocal + s.half) >> 16;
    return v > 255 ? 255 : v;
}

/* One pass over a row of n values at in[r…], with r zeros each side (kept): out[r + i] is the
 * scaled sum of in[i … i + 2r]. A small radius sums shifted copies of the row, a large one keeps
 * a running sum. */
__attribute__((always_inline)) static inline void blur_line(const uint32_t *restrict in, uint32_t *restrict out,
                                                             uint32_t *restrict acc, int n, int r, struct scale s) {
    switch (r) {
    case 1:
        for (int i = 0; i < n; i++) out[1 + i] = scaled(in[i] + in[i + 1] + in[i + 2], s);
        return;
    case 2:
        for (int i = 0; i < n; i++) out[2 + i] = scaled(in[i] + in[i + 1] + in[i + 2] + in[i + 3] + in[i + 4], s);
        return;
    case 3:
        for (int i = 0; i < n; i++)
            out[3 + i] = scaled(in[i] + in[i + 1] + in[i + 2] + in[i + 3] + in[i + 4] + in[i + 5] + in[i + 6], s);
        return;
    case 4:
        for (int i = 0; i < n; i++) acc[i] = in[i];
        for (int k = 1; k <= 8; k++)
            for (int i = 0; i < n; i++) acc[i] += in[i + k];
        for (int i = 0; i < n; i++) out[4 + i] = scaled(acc[i], s);
        return;
    }
    uint32_t sum = 0;
    for (int i = 0; i < r; i++) sum += in[r + i];
    for (int i = 0; i < n; i++) {
        sum += in[2 * r + i];
        out[r + i] = scaled(sum, s);
        sum -= in[i];
    }
}

__attribute__((target_clones("avx2", "default")))
int galley_box_blur(uint8_t *data, int width, int height, int stride, int radius, int passes) {
    if (radius <= 0 || width <= 0 || height <= 0 || passes <= 0) return 0;
    if (stride < width) return -1;
    const int r = radius, w = width, h = height;
    const struct scale s = make_scale(r);
    const size_t padded = (size_t)w + 2 * (size_t)r;
    /* Two padded lines and an accumulator for the rows; a copy of the image and the column sums
     * for the columns. */
    uint32_t *lines = calloc(2 * padded + (size_t)w, sizeof *lines);
    uint8_t *source = malloc((size_t)stride * (size_t)(h - 1) + (size_t)w);
    uint32_t *sums = malloc((size_t)w * sizeof *sums);
    if (!lines || !source || !sums) {
        free(lines);
        free(source);
        free(sums);
        return -1;
    }
    uint32_t *acc = lines + 2 * padded;
    for (int y = 0; y < h; y++) {
        uint8_t *row = data + (size_t)y * stride;
        uint32_t *from = lines, *to = lines + padded;
        for (int x = 0; x < w; x++) from[r + x] = row[x];
        for (int p = 0; p < passes; p++) {
            blur_line(from, to, acc, w, r, s);
            uint32_t *t = from;
            from = to;
            to = t;
        }
        for (int x = 0; x < w; x++) row[x] = (uint8_t)from[r + x];
    }
    /* Columns: one running sum a column, the image a row at a time, in memory order. */
    for (int p = 0; p < passes; p++) {
        memcpy(source, data, (size_t)stride * (size_t)(h - 1) + (size_t)w);
        memset(sums, 0, (size_t)w * sizeof *sums);
        for (int y = 0; y < r && y < h; y++) {
            const uint8_t *q = source + (size_t)y * stride;
            for (int x = 0; x < w; x++) sums[x] += q[x];
        }
        for (int y = 0; y < h; y++) {
            if (y + r < h) {
                const uint8_t *q = source + (size_t)(y + r) * stride;
                for (int x = 0; x < w; x++) sums[x] += q[x];
            }
            uint8_t *row = data + (size_t)y * stride;
            for (int x = 0; x < w; x++) row[x] = (uint8_t)scaled(sums[x], s);
            if (y - r >= 0) {
                const uint8_t *q = source + (size_t)(y - r) * stride;
                for (int x = 0; x < w; x++) sums[x] -= q[x];
            }
        }
    }
    free(lines);
    free(source);
    free(sums);
    return 0;
}

/* A Gaussian blur with a kernel of 2r + 1 weights (16.16 fixed point, summing to 65536): each
 * output is the rounded weighted sum of the 2r + 1 pixels around it in its row, then in its
 * column, pixels outside counting 0. Small blurs (σ under 2 pixels), where three box passes
 * cannot come near σ (their width is a whole number of pixels), take this. */
__attribute__((target_clones("avx2", "default")))
int galley_kernel_blur(uint8_t *data, int width, int height, int stride, const uint32_t *weights, int radius) {
    if (radius <= 0 || width <= 0 || height <= 0) return 0;
    if (stride < width || !weights) return -1;
    const int r = radius, w = width, h = height;
    const size_t padded = (size_t)w + 2 * (size_t)r;
    uint32_t *line = calloc(padded, sizeof *line);
    uint8_t *rows = malloc((size_t)w * (size_t)h);
    uint32_t *sums = malloc((size_t)w * sizeof *sums);
    if (!line || !rows || !sums) {
        free(line);
        free(rows);
        free(sums);
        return -1;
    }
    /* Rows, into `rows` (w × h, no padding): a weight at a time over the whole row, so that the
     * loops run over x in memory order (as the columns' do) and vectorise. */
    for (int y = 0; y < h; y++) {
        const uint8_t *in = data + (size_t)y * stride;
        for (int x = 0; x < w; x++) line[r + x] = in[x];
        for (int x = 0; x < w; x++) sums[x] = 1u << 15;
        for (int k = 0; k <= 2 * r; k++) {
            const uint32_t wk = weights[k];
            const uint32_t *q = line + k;
            for (int x = 0; x < w; x++) sums[x] += q[x] * wk;
        }
        uint8_t *out = rows + (size_t)y * w;
        for (int x = 0; x < w; x++) {
            uint32_t v = sums[x] >> 16;
            out[x] = (uint8_t)(v > 255 ? 255 : v);
        }
    }
    /* Columns, back into `data`, a row at a time in memory order. */
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) sums[x] = 1u << 15;
        for (int k = 0; k <= 2 * r; k++) {
            int yy = y + k - r;
            if (yy < 0 || yy >= h) continue;
            const uint8_t *q = rows + (size_t)yy * w;
            const uint32_t wk = weights[k];
            for (int x = 0; x < w; x++) sums[x] += q[x] * wk;
        }
        uint8_t *row = data + (size_t)y * stride;
        for (int x = 0; x < w; x++) {
            uint32_t v = sums[x] >> 16;
            row[x] = (uint8_t)(v > 255 ? 255 : v);
        }
    }
    free(line);
    free(rows);
    free(sums);
    return 0;
}
