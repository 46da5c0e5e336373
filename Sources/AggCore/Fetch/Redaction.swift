/// Removes secrets from text meant for people: messages, warnings, log lines.
enum Redaction {
    /// `text` with every secret, as written and as percent-encoded in a URL, replaced by
    /// `<redacted>`.
    static func redact(_ text: String, secrets: [String]) -> String {
        secrets.filter { !$0.isEmpty }.reduce(text) { partial, secret in
            partial.replacingAll(secret, with: "<redacted>").replacingAll(URLEncoding.queryComponent(secret), with: "<redacted>")
        }
    }
}
