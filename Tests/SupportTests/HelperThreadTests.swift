import GalleySupport
import Glibc
import Synchronization
import Testing

@Suite struct HelperThreadTests {
    // The jobs run one after the other, in the order they were handed over, on one thread.
    @Test func jobsRunInOrderOnOneThread() {
        let helper = HelperThread()
        let done = Condition()
        let seen = Mutex<(order: [Int], threads: Set<UInt>)>(([], []))
        for k in 0..<20 {
            #expect(
                helper.submit {
                    seen.withLock { s in
                        s.order.append(k)
                        s.threads.insert(UInt(pthread_self()))
                    }
                    done.lock()
                    done.broadcast()
                    done.unlock()
                })
        }
        done.lock()
        while seen.withLock({ $0.order.count }) < 20 { done.wait() }
        done.unlock()
        let s = seen.withLock { $0 }
        #expect(s.order == Array(0..<20))
        #expect(s.threads.count == 1)
        #expect(!s.threads.contains(UInt(pthread_self())))
    }
}
