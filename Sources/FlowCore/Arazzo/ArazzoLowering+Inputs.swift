/// The inputs of a lowered Arazzo workflow: its schema, with those of the workflows it depends on.
extension ArazzoLowering {
    /// The workflow's `inputs` schema, following a `$ref` to a component; the components' schemas become types so
    /// that references between them resolve. Keys flowrun's schemas do not read (annotations such as `examples`)
    /// are left out.
    ///
    /// A part of a schema that flowrun's schemas cannot express (a boolean schema, say) is a warning: the inputs
    /// are then checked less strictly than the document says, never more.
    mutating func inputSchema(_ node: YAMLNode, types: inout [NamedType]) -> JSONSchema {
        var decoder = WorkflowDecoder()
        for (name, schema) in document.components.inputs {
            // Named by the reference that reaches it, which is what a `$ref` in a schema names.
            var type = NamedType(
                name: Located(Self.componentInputsPrefix + name.value, at: name.location), schema: decoder.schema(schema))
            type.imported = true
            types.append(type)
        }
        let schema = decoder.schema(resolvedInputs(node))
        for var diagnostic in decoder.diagnostics where diagnostic.code != .unknownKey {
            diagnostic.severity = .warning
            diagnostic.message += "; flowrun does not check this part of the inputs schema"
            diagnostics.append(diagnostic)
        }
        return schema
    }

    /// The `inputs` of `arazzo`, with those of the workflows it depends on: they run first with the run's inputs,
    /// so the run takes theirs too (their properties and required names added to its own).
    func mergedInputs(of arazzo: ArazzoWorkflow) -> YAMLNode? {
        let dependencies = arazzo.dependsOn.compactMap { called($0.value) }
        let nodes = [arazzo.inputs.map(resolvedInputs)].compactMap { $0 }
            + dependencies.compactMap { dependency in
                dependency.workflow.inputs.map { Self.resolvedInputs($0, in: dependency.document) }
            }
        guard dependencies.contains(where: { $0.workflow.inputs != nil }), let own = nodes.first else { return arazzo.inputs }
        func member(_ key: String, of node: YAMLNode) -> YAMLNode? {
            node.mapping?.first { $0.key.scalar?.value == .string(key) }?.value
        }
        var properties: [YAMLPair] = []
        var required: [YAMLNode] = []
        for node in nodes {
            for pair in member("properties", of: node)?.mapping ?? []
            where !properties.contains(where: { $0.key.scalar?.value == pair.key.scalar?.value }) {
                properties.append(pair)
            }
            for name in member("required", of: node)?.sequence ?? []
            where !required.contains(where: { $0.scalar?.value == name.scalar?.value }) {
                required.append(name)
            }
        }
        func scalar(_ text: String) -> YAMLNode {
            YAMLNode(.scalar(YAMLScalar(text: text, style: .plain, value: .string(text))), at: own.location)
        }
        return YAMLNode(.mapping([
            YAMLPair(key: scalar("type"), value: scalar("object")),
            YAMLPair(key: scalar("properties"), value: YAMLNode(.mapping(properties), at: own.location)),
            YAMLPair(key: scalar("required"), value: YAMLNode(.sequence(required), at: own.location)),
        ]), at: own.location)
    }

    /// An `inputs` schema, or the component schema its `$ref` names.
    func resolvedInputs(_ node: YAMLNode) -> YAMLNode { Self.resolvedInputs(node, in: document) }

    static func resolvedInputs(_ node: YAMLNode, in document: ArazzoDocument) -> YAMLNode {
        guard let pairs = node.mapping, pairs.count == 1, case .string("$ref")? = pairs[0].key.scalar?.value,
            case .string(let reference)? = pairs[0].value.scalar?.value,
            let component = document.components.inputs.first(where: { componentInputsPrefix + $0.name.value == reference })
        else { return node }
        return component.schema
    }

    /// What a `$ref` to an input schema among the components starts with.
    static let componentInputsPrefix = "#/components/inputs/"
}
