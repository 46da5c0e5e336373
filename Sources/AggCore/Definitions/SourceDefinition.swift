/// One data source, as a YAML definition declares it. See `docs/definitions.md` for the
/// schema users write.
public struct SourceDefinition: Sendable {
    /// Whether records come from a remote endpoint or only from the user.
    public enum Kind: String, Sendable, CaseIterable {
        /// Records are fetched from `request`; users may add their own beside them.
        case remote
        /// No endpoint: every record is the user's (a Names-to-Faces-style collection).
        case local
    }

    /// The name used on the command line (`agg query zoo`).
    public var name: String
    /// A human title.
    public var title: String
    /// A longer description.
    public var description: String?
    /// Where people can read about the data.
    public var homepage: String?
    /// Remote or local.
    public var kind: Kind
    /// The registered decoder plug-in, or nil for the generic field mapper.
    public var decoder: String?
    /// How to fetch; nil for local sources.
    public var request: RequestTemplate?
    /// Values the user supplies with `--param name=value`.
    public var parameters: [ParameterDefinition]
    /// Environment variables that hold secrets: never printed, and explained when missing.
    public var secrets: [SecretDefinition]
    /// Where the list of records is in each response.
    public var records: RecordPath
    /// How to walk through pages.
    public var pagination: Pagination
    /// The canonical fields that together identify a record.
    public var key: [String]
    /// Canonical field names and where their values come from.
    public var fields: [FieldMapping]
    /// The default field for `--prefix`.
    public var search: String?
    /// The canonical field that holds a record's image URL.
    public var image: String?
    /// The fields tables show by default.
    public var columns: [String]
    /// What a user's own record must have.
    public var insert: InsertRules
    /// How long fetched data stays fresh.
    public var ttl: TimeToLive?
    /// Where the definition starts.
    public var location: SourceLocation

    /// Creates a definition; loaders normally do this from YAML.
    public init(
        name: String, title: String, description: String? = nil, homepage: String? = nil,
        kind: Kind, decoder: String? = nil, request: RequestTemplate? = nil,
        parameters: [ParameterDefinition] = [], secrets: [SecretDefinition] = [],
        records: RecordPath = .root, pagination: Pagination = .none, key: [String] = [],
        fields: [FieldMapping] = [], search: String? = nil, image: String? = nil, columns: [String] = [],
        insert: InsertRules = InsertRules(), ttl: TimeToLive? = nil, location: SourceLocation
    ) {
        self.name = name
        self.title = title
        self.description = description
        self.homepage = homepage
        self.kind = kind
        self.decoder = decoder
        self.request = request
        self.parameters = parameters
        self.secrets = secrets
        self.records = records
        self.pagination = pagination
        self.key = key
        self.fields = fields
        self.search = search
        self.image = image
        self.columns = columns
        self.insert = insert
        self.ttl = ttl
        self.location = location
    }

    /// The parameter called `name`.
    public func parameter(named name: String) -> ParameterDefinition? {
        parameters.first { $0.name == name }
    }
}

/// The HTTP request of a remote source, with templates still to be rendered.
public struct RequestTemplate: Sendable {
    /// The HTTP method.
    public enum Method: String, Sendable, CaseIterable {
        case get = "GET"
        case post = "POST"
    }

    /// The endpoint.
    public var url: Template
    /// GET or POST.
    public var method: Method
    /// Query items added to the URL, in order.
    public var query: [(name: String, value: Template)]
    /// Request headers, in order.
    public var headers: [(name: String, value: Template)]
    /// A request body for POST.
    public var body: Template?

    /// Creates a request template.
    public init(
        url: Template, method: Method = .get, query: [(name: String, value: Template)] = [],
        headers: [(name: String, value: Template)] = [], body: Template? = nil
    ) {
        self.url = url
        self.method = method
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// Every template in the request.
    public var templates: [Template] {
        [url] + query.map(\.value) + headers.map(\.value) + (body.map { [$0] } ?? [])
    }
}

/// How a source's responses are split into pages.
public enum Pagination: Sendable {
    /// One document holds everything.
    case none
    /// `limit`/`offset` query items, with the total count read from the body.
    case offset(OffsetPagination)
    /// A page number query item, with the number of pages read from the body.
    case page(PagePagination)
    /// The body names the URL of the next page.
    case next(NextPagination)

    /// The style's name as definitions write it.
    public var style: String {
        switch self {
        case .none: "none"
        case .offset: "offset"
        case .page: "page"
        case .next: "next"
        }
    }
}

/// Offset pagination (data.taipei's `limit`, `offset` and `result.count`).
public struct OffsetPagination: Sendable {
    /// Records a page.
    public var limit: Int
    /// The query item carrying the limit.
    public var limitParameter: String
    /// The query item carrying the offset.
    public var offsetParameter: String
    /// Where the total record count is in a response.
    public var total: RecordPath?
    /// The most pages one sync fetches.
    public var maximumPages: Int
}

/// Page-number pagination (Flickr's `page`, `per_page` and `photos.pages`).
public struct PagePagination: Sendable {
    /// The query item carrying the page number.
    public var pageParameter: String
    /// The number of the first page.
    public var firstPage: Int
    /// Records a page, when the source lets the client choose.
    public var size: Int?
    /// The query item carrying the page size.
    public var sizeParameter: String?
    /// Where the number of pages is in a response.
    public var totalPages: RecordPath?
    /// The most pages one sync fetches.
    public var maximumPages: Int
}

/// Next-link pagination (PokeAPI's `next`).
public struct NextPagination: Sendable {
    /// Where the next page's URL is in a response; null or missing ends the walk.
    public var next: RecordPath
    /// The most pages one sync fetches.
    public var maximumPages: Int
}

/// A canonical field and where its value comes from.
public struct FieldMapping: Sendable {
    /// The value types a field can be converted to.
    public enum FieldType: String, Sendable, CaseIterable {
        case string, integer, number, boolean, datetime, list
    }

    /// The canonical name.
    public var name: String
    /// Where the value is in a raw record.
    public var path: RecordPath
    /// What to convert the value to; nil keeps it as it is.
    public var type: FieldType?

    /// Creates a mapping.
    public init(name: String, path: RecordPath, type: FieldType? = nil) {
        self.name = name
        self.path = path
        self.type = type
    }
}

/// A value the user supplies for a source (`--param lat=25.03`).
public struct ParameterDefinition: Sendable {
    /// The types a parameter can have.
    public enum ValueType: String, Sendable, CaseIterable {
        case string, integer, number, boolean
    }

    /// The name used in `--param NAME=…` and `${params.NAME}`.
    public var name: String
    /// The type values are checked against.
    public var type: ValueType
    /// Whether the user must give it (a parameter with a default never must).
    public var required: Bool
    /// The value used when the user gives none.
    public var defaultValue: String?
    /// What it means.
    public var description: String?

    /// Creates a parameter.
    public init(name: String, type: ValueType, required: Bool, defaultValue: String? = nil, description: String? = nil) {
        self.name = name
        self.type = type
        self.required = required
        self.defaultValue = defaultValue
        self.description = description
    }

    /// Whether `value` is valid for this parameter's type.
    public func accepts(_ value: String) -> Bool {
        switch type {
        case .string: true
        case .integer: Int(value) != nil
        case .number: Double(value)?.isFinite ?? false
        case .boolean: ["true", "false"].contains(value)
        }
    }
}

/// An environment variable holding a secret, with where to get one.
public struct SecretDefinition: Sendable {
    /// The variable's name.
    public var variable: String
    /// Where to get a value, shown when it is missing.
    public var help: String?

    /// Creates a secret declaration.
    public init(variable: String, help: String? = nil) {
        self.variable = variable
        self.help = help
    }
}

/// What a user's own record must have.
public struct InsertRules: Sendable {
    /// Canonical fields that must be present and non-empty.
    public var required: [String]

    /// Creates insert rules.
    public init(required: [String] = []) {
        self.required = required
    }
}
