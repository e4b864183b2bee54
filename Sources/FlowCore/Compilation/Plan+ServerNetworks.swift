extension Plan {
    /// The network settings of every server of this workflow and of the workflows its steps call, with `$env`
    /// read from `given` (each workflow reading the variables it declares, or their defaults) and file paths
    /// resolved: what `flowrun run` checks before the first request.
    ///
    /// A server that sets none is left out, and so is one whose settings read a variable that is unset: the
    /// run's own check before the first request names that variable.
    /// - Parameter given: The process environment.
    /// - Returns: The settings, each with the server that sets them, in file order, each workflow once.
    package func serverNetworks(environment given: [String: String]) -> [(server: Server, network: ServerNetwork)] {
        var found: [(server: Server, network: ServerNetwork)] = []
        var visited: Set<String> = []
        collectServerNetworks(environment: given, into: &found, visited: &visited)
        return found
    }

    private func collectServerNetworks(
        environment given: [String: String], into found: inout [(server: Server, network: ServerNetwork)],
        visited: inout Set<String>
    ) {
        guard visited.insert(workflow.path).inserted else { return }
        let environment = workflow.declaredEnvironment(from: given)
        for server in workflow.servers {
            if let network = try? server.network.resolved(server: server.name.value, environment: environment) {
                found.append((server, network))
            }
        }
        for step in steps + compensations.values {
            step.subWorkflow?.collectServerNetworks(environment: given, into: &found, visited: &visited)
        }
    }
}

extension Workflow {
    /// The values `$env.NAME` reads: each variable declared under `env:`, from `given` or its `default`; an
    /// unset variable without a default is left out.
    package func declaredEnvironment(from given: [String: String]) -> [String: String] {
        var values: [String: String] = [:]
        for variable in environment {
            values[variable.name.value] = given[variable.name.value] ?? variable.defaultValue
        }
        return values
    }
}
