import Glibc

/// The one lock of the process under which Cairo may use a FreeType face.
///
/// Cairo 1.16 keeps at most ten faces of fonts found through fontconfig open. To open another it
/// closes one whose lock count it reads as zero, without taking that font's own lock, so a thread
/// that locks the font at that moment goes on with a freed face and crashes inside FreeType. Any
/// two threads can meet this once more than ten font files are in use in the process: an issue's
/// serif, sans, script, mono and CJK faces reach that, and so do tests run in parallel. Galley
/// cannot mend Cairo, so every call that can make Cairo lock a face runs under this lock:
/// drawing a page, a PDF's fonts being written at its end, and what the layout measures with
/// Cairo (captions, drop caps, shadow masks, embedding bits). Shaping, most of the work of the
/// threads that lay out, stays outside it: HarfBuzz reads the font files through Pango without
/// Cairo, except that Pango measures a missing glyph's box with Cairo. So before an item that
/// may hold a character its font lacks is shaped, Pango makes that font's box under this lock
/// (`TextEngine.prepareForMissingGlyphs`, once a font), and has nothing to open later. The lock
/// is recursive: a page drawn under it draws the blocks set inside it under it too.
package enum FaceLock {
    private nonisolated(unsafe) static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(m, &attributes)
        pthread_mutexattr_destroy(&attributes)
        return m
    }()

    /// Runs `body` holding the lock. `body` must not wait for another thread that may take it.
    package static func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
