#ifndef GALLEY_HOOKS_H
#define GALLEY_HOOKS_H
/* Galley's hooks into libraries Cairo calls (zlib, FreeType), made by ELF symbol interposition:
 * a function defined in the executable is the one the dynamic linker binds every library's call
 * of that name to. Each hook then calls the library's own function (dlsym RTLD_NEXT).
 *
 * The zlib level Cairo's PDF streams are compressed at on the calling thread (1 fastest … 9
 * smallest; 1 until set). */
void galley_set_deflate_level(int level);
int galley_get_deflate_level(void);
#endif
