import Glibc

// The three threading tools the layout needs, over POSIX threads. Galley links
// FoundationEssentials only (see TextAndPaths.swift), which has no NSLock,
// NSCondition or Thread.

/// A mutual-exclusion lock.
package final class Lock: @unchecked Sendable {
    fileprivate let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
}

/// A lock with a condition variable: `wait()` (lock held) releases the lock until a
/// `broadcast()`, then holds it again.
package final class Condition: @unchecked Sendable {
    private let guardLock = Lock()
    private let variable = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() { pthread_cond_init(variable, nil) }

    deinit {
        pthread_cond_destroy(variable)
        variable.deallocate()
    }

    package func lock() { guardLock.lock() }
    package func unlock() { guardLock.unlock() }
    package func wait() { pthread_cond_wait(variable, guardLock.mutex) }
    package func broadcast() { pthread_cond_broadcast(variable) }
}

/// Runs `body` on a new detached thread with a stack of `stackSize` bytes. Returns false (and
/// runs nothing) when the system refuses a thread; callers then do the work themselves.
@discardableResult
package func startThread(stackSize: Int = 1 << 20, _ body: @escaping @Sendable () -> Void) -> Bool {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackSize)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
        &thread, &attributes,
        { raw in
            Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, context)
    if status != 0 {
        Unmanaged<ThreadBody>.fromOpaque(context).release()
        return false
    }
    return true
}

/// What a thread started by `startThread` runs.
private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// A value worked out on a thread of its own while the caller goes on: `value` waits for it,
/// or works it out there and then when no thread could be started or the thread has not begun.
package final class Background<Value>: @unchecked Sendable {
    private let condition = Condition()
    private var work: (() -> Value)?
    private var result: Value?

    package init(_ work: @escaping @Sendable () -> Value) {
        self.work = work
        startThread { [self] in run() }
    }

    /// Runs the work unless another thread has taken it.
    private func run() {
        condition.lock()
        let taken = work
        work = nil
        condition.unlock()
        guard let taken else { return }
        let made = taken()
        condition.lock()
        result = made
        condition.broadcast()
        condition.unlock()
    }

    package var value: Value {
        run()
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return result!
    }
}

/// One thread kept for the life of the process, running the jobs handed to it one after the
/// other. A `galley watch` process hands it work on every rebuild: a new thread each time
/// would be given a malloc arena of its own each time, and the memory one arena frees is not
/// reused by another (100 rebuilds grew the process by 13 MiB that way).
package final class HelperThread: @unchecked Sendable {
    package static let shared = HelperThread()

    package init() {}

    private let condition = Condition()
    private var jobs: [@Sendable () -> Void] = []
    private var started = false
    private var available = false

    /// Queues `job` behind the jobs before it. False (and `job` never runs) when the system
    /// refuses the thread.
    package func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if !started {
            started = true
            available = startThread { [self] in serve() }
        }
        guard available else { return false }
        jobs.append(job)
        condition.broadcast()
        return true
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
