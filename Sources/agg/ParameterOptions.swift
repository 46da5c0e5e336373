import ArgumentParser

/// `--param NAME=VALUE`, repeatable: the values a parameterised source (flickr) takes.
struct ParameterOptions: ParsableArguments {
    @Option(name: .customLong("param"), help: ArgumentHelp("A source parameter NAME=VALUE (for example lat=25.03); repeatable.", valueName: "NAME=VALUE"))
    var assignments: [String] = []

    func validate() throws {
        _ = try values
    }

    /// The parameters by name.
    var values: [String: String] {
        get throws { try FieldAssignments.parse(assignments, what: "parameter") }
    }
}
