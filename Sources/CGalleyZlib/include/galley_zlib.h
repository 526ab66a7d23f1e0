#ifndef GALLEY_ZLIB_H
#define GALLEY_ZLIB_H
/* The zlib level Cairo's PDF streams are compressed at (1 fastest … 9 smallest). */
extern int galley_deflate_level;
#endif
