#include "galley_pixels.h"

void galley_pixbuf_to_cairo(const uint8_t *src, int src_stride, int channels, int has_alpha, uint8_t *dst, int dst_stride,
                            int width, int height) {
    for (int y = 0; y < height; y++) {
        const uint8_t *s = src + (long)y * src_stride;
        uint32_t *row = (uint32_t *)(dst + (long)y * dst_stride);
        for (int x = 0; x < width; x++, s += channels) {
            uint32_t r = s[0], g = s[1], b = s[2];
            uint32_t a = has_alpha ? s[3] : 255;
            if (a < 255) {
                r = (r * a + 127) / 255;
                g = (g * a + 127) / 255;
                b = (b * a + 127) / 255;
            }
            row[x] = a << 24 | r << 16 | g << 8 | b;
        }
    }
}
