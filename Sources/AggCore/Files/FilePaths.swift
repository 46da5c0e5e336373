extension String {
    /// The folder part of this file path, as `NSString.deletingLastPathComponent` gives it:
    /// `/a/b/c.db` → `/a/b`, `/c.db` → `/`, `c.db` → the empty string (repeated and
    /// trailing slashes do not count).
    package var parentFolderPath: String {
        var path = self[...]
        while path.count > 1, path.last == "/" { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        var folder = path[..<slash]
        while folder.last == "/" { folder.removeLast() }
        return folder.isEmpty ? "/" : String(folder)
    }

    /// The last component of this file path: `/a/b/c.db` → `c.db`.
    package var lastPathComponentName: String {
        var path = self[...]
        while path.count > 1, path.last == "/" { path.removeLast() }
        guard let slash = path.lastIndex(of: "/"), path.count > 1 else { return String(path) }
        return String(path[path.index(after: slash)...])
    }
}
