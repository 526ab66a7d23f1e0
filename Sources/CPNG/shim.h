#include <libdeflate.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

/* `rows` (PNG's filtered rows: a filter byte, then the pixels) as one zlib stream compressed
 * by libdeflate at its level 1. Deterministic: ISA-L's igzip, four times as fast, now and then
 * chose another, equivalent match under load (5 pages in 800 made 16 at a time on two
 * cores: the same pixels, other bytes), and a preview must be the bytes of the page made
 * again. Sets
 * `*out` (malloc'ed) and returns its length; 0 when it fails, and the caller compresses with
 * zlib. */
static inline size_t galley_png_idat(const unsigned char *rows, size_t length, unsigned char **out) {
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(1);
    if (!c) return 0;
    size_t capacity = libdeflate_zlib_compress_bound(c, length);
    unsigned char *stream = malloc(capacity ? capacity : 1);
    size_t written = stream ? libdeflate_zlib_compress(c, rows, length, stream, capacity) : 0;
    libdeflate_free_compressor(c);
    if (written == 0) free(stream);
    else *out = stream;
    return written;
}

/* Writes an opaque image to `path`: RGB (`channels` 3, 3 bytes a pixel) or grey (`channels` 1),
 * given as PNG's rows with no filter (each row a 0 byte, then its pixels), compressed by
 * libdeflate (`galley_png_idat`), or by zlib at level `compression` when that fails. libpng reports errors
 * by longjmp, which Swift cannot catch: it happens here, in C. Returns 0 on success, -1 when the
 * file cannot be opened, -2 on a libpng error. */
static inline int galley_write_png(const char *path, const unsigned char *rows, int width, int height, int channels,
                                   int compression, double dpi) {
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t const stride = (size_t)width * (size_t)channels + 1;
    /* Made before setjmp, and not changed after it, so that it is still right after a longjmp. */
    unsigned char *idat = NULL;
    size_t const idat_length = galley_png_idat(rows, stride * (size_t)height, &idat);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        free(idat);
        fclose(f);
        return -2;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(idat);
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
    if (idat_length > 0) {
        /* The stream libdeflate made, as the one IDAT chunk, then the end. */
        png_write_chunk(png, (png_const_bytep) "IDAT", idat, idat_length);
        png_write_chunk(png, (png_const_bytep) "IEND", NULL, 0);
    } else {
        for (int y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(rows + (size_t)y * stride + 1));
        png_write_end(png, info);
    }
    png_destroy_write_struct(&png, &info);
    free(idat);
    return fclose(f) == 0 ? 0 : -2;
}
