#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

/* Writes an opaque image to `path`: RGB (`channels` 3, 3 bytes a pixel) or grey (`channels` 1),
 * rows `stride` bytes apart. libpng reports errors by longjmp, which Swift cannot catch: it
 * happens here, in C. Returns 0 on success, -1 when the file cannot be opened, -2 on a libpng
 * error. */
static inline int galley_write_png(const char *path, const unsigned char *pixels, int width, int height, int stride,
                                   int channels, int compression, double dpi) {
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        return -2;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        return -2;
    }
    png_init_io(png, f);
    png_set_compression_level(png, compression);
    png_set_filter(png, 0, PNG_FILTER_NONE);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_uint_32 ppm = (png_uint_32)(dpi / 0.0254 + 0.5);
    png_set_pHYs(png, info, ppm, ppm, PNG_RESOLUTION_METER);
    png_write_info(png, info);
    for (int y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(pixels + (size_t)y * (size_t)stride));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return fclose(f) == 0 ? 0 : -2;
}
