extension Plan {
    /// The response parsers the plan's steps choose with `parse: { use: <name> }`, each where it is written.
    package var responseParsers: [Located<String>] {
        steps.compactMap { planned in
            guard let parse = planned.step.parse, case .parser(let name) = parse.value else { return nil }
            return Located(name, at: parse.location)
        }
    }

}
