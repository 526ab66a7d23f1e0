#ifndef GALLEY_CALLER_H
#define GALLEY_CALLER_H
/* Whether a hook was called from Cairo (private to the hooks): `from` is the hook's return
 * address, `site` the hook's memory of the last Cairo address it was called from, so that a hook
 * called from one place in Cairo asks the dynamic linker (dladdr) once. */
int galley_from_cairo(void *from, _Atomic(void *) *site);
#endif
