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

/// The table of one remote snapshot file: records in the source's order (the row id is the
/// position), indexed by key, by folded search text (for prefixes) and by its trigrams in an
/// FTS5 table (for substrings of three or more characters) once the snapshot is complete.
enum SnapshotFileSchema {
    static let create = """
        CREATE TABLE records (
            position INTEGER PRIMARY KEY,
            key TEXT NOT NULL,
            search TEXT,
            fields TEXT NOT NULL,
            raw TEXT NOT NULL,
            image TEXT,
            fetched_at REAL NOT NULL
        )
        """
    /// Built once the snapshot is complete. The full-text table is filled by inserting rows
    /// in position order: FTS5's `'rebuild'` command reads the content table row by row and
    /// took 2.5 times as long on 100 000 records.
    static let indexes = """
        CREATE INDEX records_by_key ON records (key);
        CREATE INDEX records_by_search ON records (search);
        CREATE VIRTUAL TABLE records_search USING fts5(search, content='records', content_rowid='position', tokenize='trigram');
        INSERT INTO records_search (rowid, search) SELECT position, search FROM records NOT INDEXED WHERE search IS NOT NULL ORDER BY position;
        """
}
