#include <hyphen.h>
#include <stdlib.h>

/* Hyphenates one lower-case word; hyphens needs len + 5 bytes. An odd hyphens[i] means a break
 * after character i (characters, not bytes, for UTF-8 dictionaries). Frees what libhyphen
 * allocates for non-standard hyphenation (which Galley does not use). Returns 0 on success. */
static inline int galley_hyphenate(HyphenDict *dict, const char *word, int len, char *hyphens, int lmin, int rmin) {
    char **rep = NULL;
    int *pos = NULL;
    int *cut = NULL;
    int r = hnj_hyphen_hyphenate3(dict, word, len, hyphens, NULL, &rep, &pos, &cut, lmin, rmin, 0, 0);
    if (rep) {
        for (int i = 0; i < len; i++) free(rep[i]);
        free(rep);
    }
    free(pos);
    free(cut);
    return r;
}
