import Foundation

/// Validates SARIF text against the committed SARIF 2.1.0 schema (`docs/sarif-2.1.0-schema.json`) with python3's
/// `jsonschema` (Draft 4, as the schema declares). Fails, never skips, when python3 or `jsonschema` is missing:
/// `make test` installs them.
package enum SARIFSchemaValidator {
    /// The committed schema, found from this file's place in the package.
    package static let schemaPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/sarif-2.1.0-schema.json").path

    /// Validates `json`.
    /// - Returns: whether it is valid, and the validator's output: one `path: message` line per error, or why it
    ///   could not run.
    /// - Throws: when the temporary file cannot be written.
    package static func validate(_ json: String) throws -> (ok: Bool, output: String) {
        let dir = try PythonCheck.temporaryFolder("atscheck-sarif")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("out.sarif")
        try Data(json.utf8).write(to: file)
        let script = """
            import json, sys
            try:
                import jsonschema
            except ImportError:
                print("python3 has no jsonschema module: install it (pip install jsonschema, or apt-get install python3-jsonschema)")
                sys.exit(3)
            schema = json.load(open(sys.argv[1]))
            doc = json.load(open(sys.argv[2]))
            errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(doc), key=lambda e: list(e.path))
            for e in errors:
                print("/".join(map(str, e.path)) + ": " + e.message)
            sys.exit(1 if errors else 0)
            """
        let outcome: PythonCheck.Outcome
        do {
            outcome = try PythonCheck.run(script, arguments: [schemaPath, file.path], for: "validate SARIF")
        } catch let error as PythonCheck.Launch {
            return (false, error.description)
        }
        if outcome.status == 127 { return (false, "python3 is not installed: SARIF cannot be validated") }
        return (outcome.status == 0, outcome.output)
    }
}
