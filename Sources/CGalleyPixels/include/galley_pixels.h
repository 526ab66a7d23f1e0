#ifndef GALLEY_PIXELS_H
#define GALLEY_PIXELS_H

#include <stdint.h>

/* Blurs an 8-bit single-channel image in place: `passes` horizontal box blurs of radius `radius`
 * (width 2r + 1), then `passes` vertical ones. Pixels outside the image count as 0; each output
 * is the window's sum ÷ (2r + 1), rounded, computed as a 16.16 multiplication. Bytes between
 * `width` and `stride` are left alone. Returns 0, or -1 when out of memory or `stride` is less
 * than `width` (the image is then unchanged). */
int galley_box_blur(uint8_t *data, int width, int height, int stride, int radius, int passes);

#endif
