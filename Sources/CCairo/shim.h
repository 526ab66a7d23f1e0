#include <cairo.h>
#include <cairo-pdf.h>
#include <stdlib.h>
#include <string.h>

/* Attaches a malloc'd copy of encoded image data (e.g. the JPEG file) to a surface, so the PDF
 * embeds it as is instead of re-encoding the pixels. Returns a cairo status. */
static inline cairo_status_t galley_attach_mime_data(cairo_surface_t *surface, const char *mime,
                                                     const unsigned char *data, unsigned long length) {
    unsigned char *copy = malloc(length ? length : 1);
    if (!copy) return CAIRO_STATUS_NO_MEMORY;
    memcpy(copy, data, length);
    cairo_status_t s = cairo_surface_set_mime_data(surface, mime, copy, length, free, copy);
    if (s != CAIRO_STATUS_SUCCESS) free(copy);
    return s;
}
