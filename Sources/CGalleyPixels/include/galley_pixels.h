#ifndef GALLEY_PIXELS_H
#define GALLEY_PIXELS_H

#include <stdint.h>

/* Blurs an 8-bit single-channel image in place: `passes` horizontal box blurs of radius `radius`
 * (width 2r + 1), then `passes` vertical ones. Pixels outside the image count as 0; each output
 * is the window's sum ÷ (2r + 1), rounded, computed as a 16.16 multiplication. Bytes between
 * `width` and `stride` are left alone. Returns 0, or -1 when out of memory or `stride` is less
 * than `width` (the image is then unchanged). */
int galley_box_blur(uint8_t *data, int width, int height, int stride, int radius, int passes);

/* Blurs an 8-bit single-channel image in place with a separable kernel of 2 × `radius` + 1
 * weights in 16.16 fixed point (summing to 65536): rows, then columns; pixels outside count as 0,
 * each output is rounded. Bytes between `width` and `stride` are left alone. Returns 0, or -1
 * when out of memory or `stride` is less than `width` (the image is then unchanged). */
int galley_kernel_blur(uint8_t *data, int width, int height, int stride, const uint32_t *weights, int radius);

/* Converts `height` rows of a gdk-pixbuf image (8-bit RGB or RGBA, `channels` 3 or 4 bytes a
 * pixel) into Cairo's native-endian 32-bit pixels (ARGB32 with alpha premultiplied and rounded,
 * or RGB24 with the top byte 0xFF). */
void galley_pixbuf_to_cairo(const uint8_t *src, int src_stride, int channels, int has_alpha, uint8_t *dst, int dst_stride,
                            int width, int height);

#endif
