import FoundationEssentials
import GalleyLayout
import GalleySupport
import GalleyTemplate

/// Every article of an issue laid out once, on every core, before the issue is put in order.
/// Articles depend on one another only through their first folio, which changes their page
/// numbers and running lines, and their columns when the margins are mirrored and the parity
/// differs. The planner renumbers what was laid out here (`Framesetter.renumbered`), and sets an
/// article again at its place only when its parity was guessed wrong. An article that may start
/// under the end of another (`startOn: any`) is set by the planner once that place is known.
final class IssuePrelayout: @unchecked Sendable {
    struct Article {
        /// The copy that laid the article out, numbered from the folio guessed for it.
        var framesetter: Framesetter
        var pages: [Page]
        var seconds: Double
    }

    private(set) var articles: [Article?]
    private let issue: LoadedIssue
    private let cache: ArticleCache?
    private let state = Condition()
    private var next = 0
    private var running = 0

    /// Lays out every article of `issue` on `threads` threads, the calling one included, which
    /// tells `progress` the number of articles done now and then.
    init(_ issue: LoadedIssue, threads: Int, cache: ArticleCache?, progress: (Int) -> Void) {
        self.issue = issue
        self.cache = cache
        articles = Array(repeating: nil, count: issue.articles.count)
        state.lock()
        for _ in 1..<max(1, min(threads, issue.articles.count)) where startThread(stackSize: 8 << 20, { [self] in work(nil) }) {
            running += 1
        }
        state.unlock()
        withoutActuallyEscaping(progress) { work($0) }
        state.lock()
        while running > 0 { state.wait() }
        state.unlock()
    }

    /// The folio an article is guessed to start on: any odd one, an even one for a verso.
    static func guess(_ startOn: IssueManifest.StartOn) -> Int { startOn == .verso ? 2 : 1 }

    /// Takes articles in order until none is left; `progress` only on the calling thread.
    private func work(_ progress: ((Int) -> Void)?) {
        let clock = ContinuousClock()
        while true {
            state.lock()
            let k = next
            next += 1
            if k >= articles.count {
                if progress == nil { running -= 1 }
                state.broadcast()
                state.unlock()
                return
            }
            let done = articles.lazy.filter { $0 != nil }.count
            state.unlock()
            // One that may start under another is set once its place is known.
            if issue.manifest.articles[k].startOn == .any { continue }
            progress?(done)
            let started = clock.now
            // Articles in parallel, so one thread each.
            let folio = Self.guess(issue.manifest.articles[k].startOn)
            let framesetter = issue.articles[k].framesetter.numbered(from: folio, options: LayoutOptions(threads: 1))
            let pages = Self.pages(of: k, issue, framesetter, from: folio, below: nil, cache: cache)
            framesetter.relinquishEngine()
            let article = Article(framesetter: framesetter, pages: pages, seconds: IssuePlanner.seconds(clock.now - started))
            state.lock()
            articles[k] = article
            state.unlock()
        }
    }

    /// Article `k`'s pages from `framesetter` (from folio `folio`, under `below`): kept in
    /// `cache` when they are still right (`--cache`), else laid out now, and kept.
    static func pages(
        of k: Int, _ issue: LoadedIssue, _ framesetter: Framesetter, from folio: Int, below: Double?, cache: ArticleCache?
    ) -> [Page] {
        let m = issue.manifest
        let slot = cache?.slot(issue.articles[k], article: m.articles[k], folio: folio, below: below, occurrence: m.occurrence(of: k))
        if let cache, let slot, let kept = cache.load(k, from: slot, for: framesetter, name: m.articles[k].written) {
            framesetter.record(kept.warnings)
            return kept.pages
        }
        let before = framesetter.diagnostics.all.count
        var pages: [Page] = []
        framesetter.layOut { page in
            pages.append(page)
            return true
        }
        if let cache, let slot {
            cache.store(pages, warnings: Array(framesetter.diagnostics.all[before...]), at: slot, framesetter: framesetter)
        }
        return pages
    }
}
