#ifndef GALLEY_ZLIB_H
#define GALLEY_ZLIB_H
/* The zlib level Cairo's PDF streams are compressed at (1 fastest … 9 smallest). */
void galley_set_deflate_level(int level);
int galley_get_deflate_level(void);
#endif
