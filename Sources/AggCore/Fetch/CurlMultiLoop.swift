internal import CCurl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Synchronization

/// Runs transfers on one libcurl multi handle, from one thread, at most
/// `maximumConcurrentTransfers` at a time. Submitted transfers queue until a slot is free.
final class CurlMultiLoop: @unchecked Sendable {
    /// Why libcurl cannot be used on this machine, or nil when it is loaded (on first call).
    static var libraryProblem: String? {
        agg_curl_load().map { String(cString: $0) }
    }

    private let multi: UnsafeMutableRawPointer
    private let maximumConcurrent: Int
    private let lock = Mutex(())
    private var pending: [CurlTransfer] = []
    private var stopping = false
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private let finished = DispatchSemaphore(value: 0)
    private let peak = Mutex(0)

    /// Starts the loop on a thread of its own (a serial queue's); nil when libcurl cannot be
    /// loaded (see `libraryProblem`).
    init?(maximumConcurrentTransfers: Int) {
        guard Self.libraryProblem == nil, let multi = agg_curl_multi_init() else { return nil }
        self.multi = multi
        maximumConcurrent = max(1, maximumConcurrentTransfers)
        agg_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, maximumConcurrent)
        DispatchQueue(label: "agg-curl").async { [self] in run() }
    }

    /// The most transfers that ran at once so far.
    var peakConcurrency: Int { peak.withLock { $0 } }

    /// Queues a transfer; the loop starts it when a slot is free.
    func submit(_ transfer: CurlTransfer) {
        lock.withLock { _ in pending.append(transfer) }
        agg_curl_multi_wakeup(multi)
    }

    /// Wakes the loop so it notices cancelled transfers.
    func wake() {
        agg_curl_multi_wakeup(multi)
    }

    /// Finishes the transfers under way, fails the queued ones, and stops the thread.
    func shutdown() {
        let dropped: [CurlTransfer] = lock.withLock { _ in
            stopping = true
            defer { pending = [] }
            return pending
        }
        for transfer in dropped {
            transfer.cancel()
            transfer.finish(CURLE_ABORTED_BY_CALLBACK)
        }
        agg_curl_multi_wakeup(multi)
        finished.wait()
        agg_curl_multi_cleanup(multi)
    }

    private func run() {
        while true {
            let (starting, stop) = lock.withLock { _ -> ([CurlTransfer], Bool) in
                let free = maximumConcurrent - active.count
                let taken = Array(pending.prefix(max(0, free)))
                pending.removeFirst(taken.count)
                return (taken, stopping)
            }
            for transfer in starting {
                active[transfer.easy] = transfer
                agg_curl_multi_add_handle(multi, transfer.easy)
            }
            let count = active.count
            peak.withLock { $0 = max($0, count) }
            for (easy, transfer) in active where transfer.isCancelled {
                agg_curl_multi_remove_handle(multi, easy)
                active[easy] = nil
                transfer.finish(CURLE_WRITE_ERROR)
            }
            var running: Int32 = 0
            agg_curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = agg_curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let code = message.pointee.data.result
                agg_curl_multi_remove_handle(multi, easy)
                if let transfer = active.removeValue(forKey: easy) { transfer.finish(code) }
            }
            if stop, active.isEmpty {
                finished.signal()
                return
            }
            agg_curl_multi_poll(multi, nil, 0, 200, nil)
        }
    }
}
