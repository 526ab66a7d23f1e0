#include <malloc.h>
#include "galley_hooks.h"

/* Cairo copies each CJK font's CFF table (24 MB for Noto Serif CJK) into a buffer of its own,
 * twice per font, and frees it after. With glibc's defaults each copy gets fresh pages from the
 * kernel, which faults them in and zeroes them one by one, on a small VM more work than the
 * copy itself. Serving buffers of up to 64 MB from the heap, and keeping freed memory there,
 * lets each copy reuse the last one's pages, without raising peak memory. */
void galley_keep_freed_memory(void) {
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
}
