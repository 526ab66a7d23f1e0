#ifndef GALLEY_SIGNALS_H
#define GALLEY_SIGNALS_H
#include <sys/types.h>
/* What an interrupted or terminated build (SIGINT, SIGTERM, SIGHUP, SIGPIPE) cleans up before it
 * dies: a build killed by a timeout or Ctrl-C leaves no `.name.pdf.….tmp` behind, and no
 * Ghostscript running on or writing into its files. The handler kills and reaps the registered
 * child programs, unlinks the registered files and clears the registered folders (all with
 * async-signal-safe calls), then dies of the same signal, so the exit status still says what
 * happened. A signal the process was started ignoring (SIGINT for a background job) stays
 * ignored. Slots are acted on only by the process that registered them (not a forked child). */

/* Registers a file to remove on such a signal; returns its slot, or -1 when all are taken (the
 * file is then simply not removed on a signal). Installs the handlers on first use. Takes no
 * lock: safe in a forked child once the parent has called it. */
int galley_temporary_add(const char *path);
/* Registers a folder whose files, and then itself, are removed on such a signal. */
int galley_temporary_folder_add(const char *path);
/* Registers a child process, killed (SIGKILL) and reaped on such a signal. Forget it before it
 * is reaped (wait with WNOWAIT first), so that its process id is never another's. */
int galley_child_add(pid_t pid);
/* Forgets a slot (the file was renamed into place or removed, the child has ended). */
void galley_temporary_remove(int slot);
/* Removes the files in `path`, then the folder (also what a signal does to a registered one). */
void galley_folder_clear(const char *path);
#endif
