/// The SQLite store's tables. The shared database holds collections, local records,
/// sequence numbers and blobs; each remote snapshot is a file of its own
/// (`SnapshotFileSchema`), so replacing one never rewrites or deletes rows of another.
enum SQLiteSchema {
    /// Each migration brings the schema from version `index` to `index + 1`.
    static let migrations: [String] = [
        """
        CREATE TABLE collections (
            id INTEGER PRIMARY KEY,
            source TEXT NOT NULL,
            parameters TEXT NOT NULL,
            generation INTEGER,
            snapshot_file TEXT,
            next_generation INTEGER NOT NULL DEFAULT 0,
            synced_at REAL,
            stop_reason TEXT,
            record_count INTEGER,
            pages_fetched INTEGER,
            total_pages INTEGER,
            current_page INTEGER,
            provenance TEXT,
            UNIQUE (source, parameters)
        );
        CREATE TABLE local_records (
            source TEXT NOT NULL,
            sequence INTEGER NOT NULL,
            key TEXT NOT NULL,
            search TEXT,
            fields TEXT NOT NULL,
            image TEXT,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (source, sequence),
            UNIQUE (source, key)
        );
        CREATE INDEX local_records_by_search ON local_records (source, search);
        CREATE TABLE sequences (source TEXT PRIMARY KEY, last INTEGER NOT NULL);
        CREATE TABLE blobs (digest TEXT PRIMARY KEY, format TEXT NOT NULL, data BLOB NOT NULL);
        """,
    ]

    /// Applies every migration the database has not had yet, in one transaction. A database
    /// that is up to date is only read, so opening it never waits for a writer.
    static func migrate(_ db: SQLiteDatabase) throws {
        if try db.userVersion >= migrations.count { return }
        try db.transaction(writing: true) {
            let version = try db.userVersion
            for (index, migration) in migrations.enumerated() where index >= version {
                try db.execute(migration)
                try db.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }
}

/// The tables of one remote snapshot file, in the source's order (the row id is the
/// position): `records` holds what lookups need (key, folded search text, image), indexed by
/// key, by search text (for prefixes) and by its trigrams in an FTS5 table (for substrings of
/// three or more characters) once the snapshot is complete; `documents` holds the fields and
/// the raw document, a few kilobytes a record. Keeping the two apart means building the
/// indexes reads a few megabytes instead of the whole file (0.45 s → 0.2 s for 100 000 zoo
/// records).
enum SnapshotFileSchema {
    /// The format, kept in the file's `user_version`; a file of another format is refused.
    static let version = 2

    static let create = """
        PRAGMA user_version = \(version);
        CREATE TABLE records (
            position INTEGER PRIMARY KEY,
            key TEXT NOT NULL,
            search TEXT,
            image TEXT,
            fetched_at REAL NOT NULL
        );
        CREATE TABLE documents (
            position INTEGER PRIMARY KEY,
            fields TEXT NOT NULL,
            raw TEXT NOT NULL
        );
        """

    /// The query for whole records, in the columns `SQLiteRecordStore.remoteRecord` reads
    /// (with `raw` last when `includingRaw`), from `records AS r` joined with `documents AS d`;
    /// callers add their `WHERE` and `ORDER BY`.
    static func selectRecords(includingRaw: Bool) -> String {
        "SELECT r.key, d.fields, r.image, r.fetched_at\(includingRaw ? ", d.raw" : "") FROM records AS r JOIN documents AS d ON d.position = r.position"
    }

    /// Built once the snapshot is complete. The full-text table is filled by inserting rows
    /// in position order (FTS5's `'rebuild'` command reads the content table row by row and
    /// took 2.5 times as long) and keeps no column sizes (`columnsize=0`: they serve only
    /// ranking, which agg does not use, and storing them doubled the build time).
    static let indexes = """
        CREATE INDEX records_by_key ON records (key);
        CREATE INDEX records_by_search ON records (search);
        CREATE VIRTUAL TABLE records_search USING fts5(search, content='records', content_rowid='position', tokenize='trigram', columnsize=0);
        INSERT INTO records_search (rowid, search) SELECT position, search FROM records NOT INDEXED WHERE search IS NOT NULL ORDER BY position;
        """
}
