#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>

/* FreeType's types, spelled out (FT_Error int, FT_Face a pointer, FT_ULong and FT_Long longs). */
typedef int FT_Error;
typedef void *FT_Face;
typedef unsigned long FT_ULong;
typedef long FT_Long;
typedef unsigned char FT_Byte;

/* To embed a CFF font Cairo copies its whole CFF table, twice per font (once to see whether it
 * is CID-keyed, once to subset it): 23 MB for Noto Serif CJK. Fresh memory from malloc faults
 * in a 4 KB page at a time, ~6,000 faults a copy, ~11,000 fewer for the bench's Chinese poems
 * when the copy's buffer is advised to use 2 MB pages (where the kernel's transparent huge
 * pages are on for advised memory, Debian's default). The advice is only advice: the copy is
 * FreeType's own either way. */
static FT_Error (*freetype_load)(FT_Face, FT_ULong, FT_Long, FT_Byte *, FT_ULong *);
static pthread_once_t bound = PTHREAD_ONCE_INIT;

static void bind_freetype(void) {
    freetype_load = (FT_Error(*)(FT_Face, FT_ULong, FT_Long, FT_Byte *, FT_ULong *))dlsym(RTLD_NEXT, "FT_Load_Sfnt_Table");
}

FT_Error FT_Load_Sfnt_Table(FT_Face face, FT_ULong tag, FT_Long offset, FT_Byte *buffer, FT_ULong *length) {
    pthread_once(&bound, bind_freetype);
    if (buffer && length && *length >= (4u << 20)) {
        const uintptr_t huge = (uintptr_t)2 << 20;
        uintptr_t lo = ((uintptr_t)buffer + huge - 1) & ~(huge - 1);
        uintptr_t hi = ((uintptr_t)buffer + *length) & ~(huge - 1);
        if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
    }
    return freetype_load(face, tag, offset, buffer, length);
}
