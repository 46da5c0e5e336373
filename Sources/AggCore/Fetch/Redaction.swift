/// Removes secrets from text meant for people: messages, warnings, log lines.
enum Redaction {
    /// Secrets shorter than this are replaced only where they stand alone, not inside a word:
    /// a short value such as a test key `x` must not turn `extras` into `e<redacted>tras` (which
    /// would also tell the reader the value). Real keys are longer and are replaced wherever
    /// they occur, glued to other text or not.
    static let shortSecretLength = 8

    /// `text` with every secret, as written and as percent-encoded in a URL, replaced by
    /// `<redacted>`.
    static func redact(_ text: String, secrets: [String]) -> String {
        secrets.filter { !$0.isEmpty }.reduce(text) { partial, secret in
            let wholeWordsOnly = secret.count < shortSecretLength
            return [secret, URLEncoding.queryComponent(secret)].reduce(partial) { text, form in
                text.replacingAll(form, with: "<redacted>", wholeWordsOnly: wholeWordsOnly)
            }
        }
    }
}
