#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "galley_signals.h"

#define SLOTS 32
#define PATH_BYTES 4096

static char paths[SLOTS][PATH_BYTES];
static volatile sig_atomic_t used[SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

static void on_signal(int sig) {
    for (int i = 0; i < SLOTS; i++)
        if (used[i]) unlink(paths[i]);
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
    int slot = -1;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < SLOTS; i++) {
        if (!used[i]) {
            strcpy(paths[i], path);
            used[i] = 1;
            slot = i;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    return slot;
}

void galley_temporary_remove(int slot) {
    if (slot < 0 || slot >= SLOTS) return;
    pthread_mutex_lock(&lock);
    used[slot] = 0;
    pthread_mutex_unlock(&lock);
}
