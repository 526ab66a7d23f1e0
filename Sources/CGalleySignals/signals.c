#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>
#include "galley_signals.h"

#define SLOTS 32
#define PATH_BYTES 4096

/* Each slot is free (0), being filled (1) or registered (2), changed without a lock so that the
 * handler, and a forked child, never wait for one. A file is removed only by the process that
 * registered it: a forked child terminated by a signal leaves its parent's outputs alone. */
static char paths[SLOTS][PATH_BYTES];
static pid_t owners[SLOTS];
static atomic_int states[SLOTS];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

static void on_signal(int sig) {
    pid_t self = getpid();
    for (int i = 0; i < SLOTS; i++)
        if (atomic_load(&states[i]) == 2 && owners[i] == self) unlink(paths[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install(void) {
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction old;
        if (sigaction(signals[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL) continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (unsigned j = 0; j < sizeof signals / sizeof signals[0]; j++) sigaddset(&sa.sa_mask, signals[j]);
        sigaction(signals[i], &sa, NULL);
    }
}

int galley_temporary_add(const char *path) {
    pthread_once(&once, install);
    if (strlen(path) >= PATH_BYTES) return -1;
    for (int i = 0; i < SLOTS; i++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&states[i], &expected, 1)) {
            strcpy(paths[i], path);
            owners[i] = getpid();
            atomic_store(&states[i], 2);
            return i;
        }
    }
    return -1;
}

void galley_temporary_remove(int slot) {
    if (slot >= 0 && slot < SLOTS) atomic_store(&states[slot], 0);
}
