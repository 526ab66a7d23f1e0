#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "galley_signals.h"

#define SLOTS 32
#define PATH_BYTES 4096

enum kind { FILE_SLOT, FOLDER_SLOT, CHILD_SLOT };

/* Each slot is free (0), being filled (1) or registered (2), changed without a lock so that the
 * handler, and a forked child, never wait for one. A slot is acted on only by the process that
 * registered it: a forked child terminated by a signal leaves its parent's outputs alone. */
static char paths[SLOTS][PATH_BYTES];
static enum kind kinds[SLOTS];
static pid_t children[SLOTS];
static pid_t owners[SLOTS];
static atomic_int states[SLOTS];
static pthread_once_t once = PTHREAD_ONCE_INIT;
/* Every signal whose default ends the process and which a user or the system sends: `kill`,
 * a timer, a CPU or file-size limit. SIGQUIT is the Swift runtime's (its backtracer's), and
 * does not end a build. */
static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGXCPU, SIGXFSZ};

/* Removes the files of `path` (no folders within: the programs given one make none) and then
 * the folder. Async-signal-safe: open, getdents64, unlinkat, rmdir. A pass that removed
 * something is followed by another, since entries removed during a read may shift the rest. */
void galley_folder_clear(const char *path) {
    for (int pass = 0; pass < 8; pass++) {
        int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0) return;
        int removed = 0;
        char buffer[4096] __attribute__((aligned(8)));
        long n;
        while ((n = syscall(SYS_getdents64, fd, buffer, sizeof buffer)) > 0) {
            for (long offset = 0; offset < n;) {
                struct entry {
                    unsigned long long inode;
                    long long next;
                    unsigned short length;
                    unsigned char type;
                    char name[];
                } *e = (struct entry *)(buffer + offset);
                if (strcmp(e->name, ".") != 0 && strcmp(e->name, "..") != 0 && unlinkat(fd, e->name, 0) == 0) removed = 1;
                offset += e->length;
            }
        }
        close(fd);
        if (rmdir(path) == 0 || !removed) return;
    }
}

static void on_signal(int sig) {
    pid_t self = getpid();
    /* Children first, and waited for: a program still running could write again into a
     * folder being cleared. */
    for (int i = 0; i < SLOTS; i++)
        if (atomic_load(&states[i]) == 2 && owners[i] == self && kinds[i] == CHILD_SLOT) kill(children[i], SIGKILL);
    for (int i = 0; i < SLOTS; i++)
        if (atomic_load(&states[i]) == 2 && owners[i] == self && kinds[i] == CHILD_SLOT) waitpid(children[i], NULL, 0);
    for (int i = 0; i < SLOTS; i++) {
        if (atomic_load(&states[i]) != 2 || owners[i] != self) continue;
        if (kinds[i] == FILE_SLOT) unlink(paths[i]);
        if (kinds[i] == FOLDER_SLOT) galley_folder_clear(paths[i]);
    }
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

static int add(enum kind kind, const char *path, pid_t child) {
    pthread_once(&once, install);
    if (path && strlen(path) >= PATH_BYTES) return -1;
    for (int i = 0; i < SLOTS; i++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&states[i], &expected, 1)) {
            if (path) strcpy(paths[i], path);
            kinds[i] = kind;
            children[i] = child;
            owners[i] = getpid();
            atomic_store(&states[i], 2);
            return i;
        }
    }
    return -1;
}

int galley_temporary_add(const char *path) { return add(FILE_SLOT, path, 0); }

int galley_temporary_folder_add(const char *path) { return add(FOLDER_SLOT, path, 0); }

int galley_child_add(pid_t pid) { return add(CHILD_SLOT, NULL, pid); }

void galley_temporary_remove(int slot) {
    if (slot >= 0 && slot < SLOTS) atomic_store(&states[slot], 0);
}
