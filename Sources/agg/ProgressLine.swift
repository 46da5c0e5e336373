import AggCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// A status line on standard error that redraws in place while work runs, only when
/// standard error is a terminal; silent otherwise. Redraws at most ten times a second.
final class ProgressLine: Sendable {
    private let enabled: Bool
    private let state = Mutex<(lastDraw: Date, visible: Bool)>((.distantPast, false))

    init(enabled: Bool = Terminal.standardErrorIsTerminal) {
        self.enabled = enabled
    }

    /// Shows `text`, unless the last redraw was under 0.1 s ago and `force` is false.
    func update(_ text: String, force: Bool = false) {
        guard enabled else { return }
        let width = Terminal.errorWidth ?? 80
        state.withLock { state in
            let now = Date()
            guard force || now.timeIntervalSince(state.lastDraw) >= 0.1 else { return }
            state.lastDraw = now
            state.visible = true
            Terminal.printError("\r\u{1B}[K" + TextTable.fit(text, width: max(10, width - 1)), newline: false)
        }
    }

    /// Removes the line so normal output can follow.
    func clear() {
        guard enabled else { return }
        state.withLock { state in
            if state.visible { Terminal.printError("\r\u{1B}[K", newline: false) }
            state.visible = false
        }
    }

    /// Prints a message on its own line, keeping the progress line below it.
    func message(_ text: String) {
        clear()
        Terminal.printError(text)
    }

    /// The handler `Aggregator.sync` reports to.
    func syncHandler(source: String) -> @Sendable (SyncEvent) -> Void {
        { [self] event in
            switch event {
            case .page(let number, _, let total, let expected, _):
                let of = expected.map { " of \($0)" } ?? ""
                update("\(source): page \(number), \(total)\(of) records…")
            case .warning(let text):
                message("agg: warning: \(source): \(text)")
            case .notice(let text):
                message("agg: \(text)")
            }
        }
    }
}
