import ArgumentParser

/// `name=value` arguments, as `agg insert` and `agg update` take them.
enum FieldAssignments {
    /// The pairs, or a validation error naming the argument that is not `name=value`.
    static func parse(_ arguments: [String], what: String = "field") throws -> [String: String] {
        var result: [String: String] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw ValidationError("'\(argument)' is not \(what)=value")
            }
            let name = String(argument[..<equals])
            if result[name] != nil { throw ValidationError("\(what) '\(name)' is given twice") }
            result[name] = String(argument[argument.index(after: equals)...])
        }
        return result
    }
}
