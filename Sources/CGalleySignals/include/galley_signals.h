#ifndef GALLEY_SIGNALS_H
#define GALLEY_SIGNALS_H
/* Temporary output files removed when the process is interrupted or terminated (SIGINT,
 * SIGTERM, SIGHUP, SIGPIPE): a build killed by a timeout or Ctrl-C leaves no `.name.pdf.….tmp`
 * behind. The handler unlinks the registered files (unlink is async-signal-safe), then dies of
 * the same signal, so the exit status still says what happened. A signal the process was
 * started ignoring (SIGINT for a background job) stays ignored. Files are removed only by the
 * process that registered them (not by a forked child). */

/* Registers a file to remove on such a signal; returns its slot, or -1 when all are taken (the
 * file is then simply not removed on a signal). Installs the handlers on first use. Takes no
 * lock: safe in a forked child once the parent has called it. */
int galley_temporary_add(const char *path);
/* Forgets a slot (the file was renamed into place or removed). */
void galley_temporary_remove(int slot);
#endif
