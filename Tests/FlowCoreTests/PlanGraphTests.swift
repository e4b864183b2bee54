import Testing
@testable import FlowCore

/// A small shop: data, var and `after` ordering, a refresh interceptor, every catch action, a
/// rule for any step, and a path full of characters that Mermaid and DOT read as syntax.
private let shop = """
    flowrun: 1
    name: shop "demo"
    servers: { api: "https://api.example.com" }
    vars: { token: none, cursor: none }
    interceptors:
      auth: { bearer: $vars.token }
      renew: { when: { status: [401, 403] }, run: renew-token, then: replay }
    policies:
      careful:
        retry:
          - { when: { status: 503 }, attempts: 4 }
          - { when: { errors: [transport] }, attempts: 2 }
    defaults: { server: api, interceptors: [auth, renew], policy: careful }
    steps:
      - id: user
        request: { method: GET, path: /user }
        outputs: { userId: $response.body#/id, name: $response.body#/name }
        set: { cursor: $response.body#/cursor }
      - id: orders
        request:
          method: GET
          path: "/users/{$steps.user.outputs.userId}/orders"
          query: { who: $steps.user.outputs.name, id: $steps.user.outputs.userId, from: $vars.cursor }
        outputs: { list: $response.body }
      - id: audit
        after: [orders]
        dispatcher: mock
        interceptors: []
        request: { method: POST, path: '/audit/"x"|#1<b>\\\\n', body: { who: $steps.user.outputs.name } }
      - id: renew-token
        on-demand: true
        interceptors: []
        policy: careful
        request: { method: POST, path: /token }
        set: { token: $response.body#/token }
      - id: notify-failure
        on-demand: true
        interceptors: []
        request: { method: POST, path: "/alerts/{$steps.user.outputs.userId}" }
    catch:
      - when: { step: orders, status: 404 }
        fallback: { list: [] }
      - when: { step: audit, status: [500, 5XX], errors: [timeout] }
        goto: orders
      - when: { step: user }
        end: { orders: [] }
      - when: { errors: [transport] }
        run: notify-failure
        then: continue
    outputs:
      orders: $steps.orders.outputs.list
      who: $steps.user.outputs.name
    """

/// An order saga: a compensation by on-demand step and one by inline request, and `on-error`
/// rules next to a catch rule.
private let saga = """
    flowrun: 1
    name: saga
    servers: { api: "https://api.example.com" }
    defaults: { server: api }
    steps:
      - id: order
        request: { method: POST, path: /orders }
        outputs: { id: $response.body#/id }
        compensate:
          request: { method: DELETE, path: "/orders/{$steps.order.outputs.id}" }
      - id: reserve
        request: { method: POST, path: "/orders/{$steps.order.outputs.id}/reservation" }
        outputs: { id: $response.body#/id }
        compensate:
          request: { method: DELETE, path: "/orders/{$steps.order.outputs.id}/reservation/{$steps.reserve.outputs.id}" }
        on-error:
          - when: { status: 409 }
            goto: order
            maxVisits: 2
      - id: charge
        request: { method: POST, path: /charges, body: { order: $steps.order.outputs.id } }
        outputs: { id: $response.body#/id }
        compensate: refund
        on-error:
          - when: { errors: [timeout] }
            fallback: { id: none }
          - goto: reserve
      - id: refund
        on-demand: true
        request: { method: POST, path: "/refunds/{$steps.charge.outputs.id}" }
    catch:
      - when: { step: charge }
        goto: order
    """

struct PlanGraphTests {
    private func graph() throws -> PlanGraph {
        PlanGraph(try plan(shop))
    }

    private func edges(_ graph: PlanGraph, from: String, to: String) -> [PlanGraph.Edge] {
        let fromID = graph.node(forStep: from)?.id ?? from
        let toID = graph.node(forStep: to)?.id ?? to
        return graph.edges.filter { $0.from == fromID && $0.to == toID }
    }

    @Test func nodesFollowPlanOrderWithOnDemandStepsAndTheExtraNodesLast() throws {
        let graph = try graph()
        #expect(graph.name == #"shop "demo""#)
        #expect(graph.nodes.map(\.title) == ["user", "orders", "audit", "renew-token", "notify-failure", "any step", "outputs"])
        #expect(graph.nodes.map(\.kind) == [.step, .step, .step, .onDemandStep, .onDemandStep, .anyStep, .outputs])
        #expect(graph.nodes.map(\.id) == ["user", "orders", "audit", "renew_token", "notify_failure", "any_step", "outputs"])
        #expect(Set(graph.nodes.map(\.id)).count == graph.nodes.count)
    }

    @Test func stepNodesShowRequestInterceptorsPolicyAndANonHTTPDispatcher() throws {
        let graph = try graph()
        #expect(graph.node(forStep: "user")?.details == [
            "GET /user",
            "interceptors: auth → renew",
            "policy: careful (up to 5 attempts)",
        ])
        #expect(graph.node(forStep: "orders")?.details.first == "GET /users/{$steps.user.outputs.userId}/orders")
        let audit = try #require(graph.node(forStep: "audit"))
        #expect(audit.details == [#"POST /audit/"x"|#1<b>\\n"#, "policy: careful (1 attempt: not idempotent)", "dispatcher: mock"])
        #expect(graph.node(id: "outputs")?.details == ["orders, who"])
    }

    @Test func anIfThatReadsAnOutputIsADataEdge() throws {
        let graph = PlanGraph(try plan("""
            flowrun: 1
            steps:
              - id: user
                request: { method: GET, path: "https://api.test/user" }
                outputs: { id: $response.body#/id }
              - id: notify
                if: "$steps.user.outputs.id == 'u1'"
                request: { method: POST, path: "https://api.test/notify" }
            """))
        #expect(edges(graph, from: "user", to: "notify").map { "\($0.kind) \($0.label)" } == ["data id"])
        #expect(graph.mermaid().contains(#"    user -->|"id"| notify"#), "\(graph.mermaid())")
        #expect(graph.dot().contains(#"    "user" -> "notify" [label="id"];"#), "\(graph.dot())")
    }

    @Test func dataEdgesAreLabelledWithTheOutputsReadInFirstMentionOrder() throws {
        let graph = try graph()
        let userToOrders = edges(graph, from: "user", to: "orders")
        #expect(userToOrders.map(\.kind) == [.data, .variable])
        #expect(userToOrders.map(\.label) == ["userId, name", "$vars.cursor"])
        #expect(userToOrders.allSatisfy { !$0.isConditional })
        #expect(edges(graph, from: "user", to: "audit").map(\.label) == ["name"])
        #expect(edges(graph, from: "orders", to: "audit").map(\.kind) == [.after])
        #expect(edges(graph, from: "orders", to: "audit").first?.label == "after")
        // An on-demand step reads outputs too, but only in the runs that call it.
        let notify = edges(graph, from: "user", to: "notify-failure")
        #expect(notify.map(\.label) == ["userId"])
        #expect(notify.first?.isConditional == true)
        #expect(edges(graph, from: "orders", to: "outputs").map(\.label) == ["list"])
        #expect(edges(graph, from: "user", to: "outputs").filter { $0.kind == .data }.map(\.label) == ["name"])
    }

    @Test func refreshInterceptorsLeadToTheirOnDemandStepWithTheStatuses() throws {
        let graph = try graph()
        let refresh = graph.edges.filter { $0.kind == .refresh }
        #expect(refresh.map(\.from) == ["user", "orders"])
        #expect(refresh.allSatisfy { $0.to == "renew_token" && $0.label == "401, 403 → refresh" && $0.isConditional })
    }

    @Test func catchRulesBecomeConditionalEdgesNamingMatcherAndAction() throws {
        let graph = try graph()
        let rules = graph.edges.filter { $0.kind == .catchRule }
        #expect(rules.map(\.from) == ["orders", "audit", "user", "any_step"])
        #expect(rules.map(\.to) == ["orders", "orders", "outputs", "notify_failure"])
        #expect(rules.map(\.label) == [
            "catch 404 → fallback",
            "catch 500, 5XX, timeout → goto",
            "catch → end",
            "catch transport → run, then continue",
        ])
        #expect(rules.allSatisfy { $0.isConditional })
    }

    @Test func aWorkflowWithoutOutputsOrCatchRulesHasOnlyStepNodes() throws {
        let graph = PlanGraph(try plan("""
            flowrun: 1
            servers: { api: "https://api.example.com" }
            defaults: { server: api }
            steps:
              - id: end
                request: { method: GET, path: /a }
              - id: end_
                request: { method: GET, path: /b }
              - id: end-
                request: { method: GET, path: /c }
            """))
        #expect(graph.name == "test")
        // `end` would close a Mermaid subgraph; `-` and `_` must not collide.
        #expect(graph.nodes.map(\.id) == ["step_end", "end_", "end__2"])
        #expect(graph.edges.isEmpty)
        #expect(graph.node(forStep: "end")?.details == ["GET /a"])
    }

    @Test(arguments: [
        (#"a "b""#, "a #quot;b#quot;"),
        ("x#quot;", "x#35;quot;"),
        ("[a]{b}(c)", "[a]{b}(c)"),
        ("<b>&|`", "#lt;b#gt;#amp;#124;#96;"),
        ("two\nlines", "two lines"),
    ])
    func mermaidLabelsEscapeSyntaxCharactersAsEntityCodes(text: String, escaped: String) {
        #expect(PlanGraph.mermaidEscaped(text) == escaped)
    }

    @Test(arguments: [
        (#"a "b""#, #""a \"b\"""#),
        (#"C:\new"#, #""C:\\new""#),
        ("two\nlines", #""two\nlines""#),
        ("→ {x}", #""→ {x}""#),
    ])
    func dotStringsEscapeBackslashesAndQuotes(text: String, quoted: String) {
        #expect(PlanGraph.dotQuoted(text) == quoted)
    }

    @Test func mermaidDeclaresEveryNodeOnceWithItsShapeAndStylesOnDemandSteps() throws {
        let text = try graph().mermaid()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "flowchart TD")
        #expect(lines[1] == #"    %% shop "demo""#)
        #expect(lines.contains(#"    user["<b>user</b><br/>GET /user<br/>interceptors: auth → renew<br/>policy: careful (up to 5 attempts)"]"#))
        #expect(lines.contains { $0.hasPrefix(#"    audit["<b>audit</b><br/>POST /audit/#quot;x#quot;#124;#35;1#lt;b#gt;\\n<br/>"#) })
        #expect(lines.contains { $0.hasPrefix(#"    renew_token("<b>renew-token</b>"#) })
        #expect(lines.contains(#"    any_step{{"<b>any step</b>"}}"#))
        #expect(lines.contains(#"    outputs(["<b>outputs</b><br/>orders, who"])"#))
        #expect(lines.contains(#"    user -->|"userId, name"| orders"#))
        #expect(lines.contains(#"    user -.->|"401, 403 → refresh"| renew_token"#))
        #expect(lines.contains(#"    orders -.->|"catch 404 → fallback"| orders"#))
        #expect(lines.contains("    classDef onDemand stroke-dasharray: 5 5"))
        #expect(lines.contains("    class renew_token,notify_failure onDemand"))
    }

    @Test func dotQuotesEveryIDAndLabelAndDashesConditionalEdges() throws {
        let text = try graph().dot()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == #"digraph "shop \"demo\"" {"#)
        #expect(lines[1] == "    rankdir=TB;")
        #expect(lines[2].hasPrefix("    node [shape=box, style=rounded"))
        #expect(lines.contains(#"    "user" [label="user\nGET /user\ninterceptors: auth → renew\npolicy: careful (up to 5 attempts)"];"#))
        #expect(lines.contains { $0.hasPrefix(#"    "audit" [label="audit\nPOST /audit/\"x\"|#1<b>\\\\n\n"#) })
        #expect(lines.contains { $0.hasPrefix(#"    "renew_token" ["#) && $0.hasSuffix(#"style="rounded,dashed"];"#) })
        #expect(lines.contains(#"    "user" -> "orders" [label="userId, name"];"#))
        #expect(lines.contains(#"    "orders" -> "audit" [label="after"];"#))
        #expect(lines.contains(#"    "user" -> "renew_token" [label="401, 403 → refresh", style=dashed, color=darkorange3, fontcolor=darkorange3];"#))
        #expect(lines.contains(#"    "orders" -> "orders" [label="catch 404 → fallback", style=dashed, color=firebrick, fontcolor=firebrick];"#))
        #expect(lines.last == "}")
    }

    @Test func inlineCompensationsAreNodesAfterTheStepsWithTheIDOfTheirReport() throws {
        let graph = PlanGraph(try plan(saga))
        #expect(graph.nodes.map(\.title) == ["order", "reserve", "charge", "refund", "order/compensate", "reserve/compensate"])
        #expect(graph.nodes.map(\.kind) == [.step, .step, .step, .onDemandStep, .compensation, .compensation])
        #expect(graph.nodes.map(\.id) == ["order", "reserve", "charge", "refund", "order_compensate", "reserve_compensate"])
        let undo = try #require(graph.node(forStep: "reserve/compensate"))
        #expect(undo.details == ["DELETE /orders/{$steps.order.outputs.id}/reservation/{$steps.reserve.outputs.id}"])
    }

    @Test func compensationsAreDashedEdgesLabelledCompensateFromTheStepTheyUndo() throws {
        let graph = PlanGraph(try plan(saga))
        let compensations = graph.edges.filter { $0.kind == .compensation }
        #expect(compensations.map(\.from) == ["order", "reserve", "charge"])
        #expect(compensations.map(\.to) == ["order_compensate", "reserve_compensate", "refund"])
        #expect(compensations.allSatisfy { $0.label == "compensate" && $0.isConditional })
        // An inline request's reads of other steps are data edges; its own step's are implied.
        #expect(edges(graph, from: "order", to: "reserve_compensate").map(\.kind) == [.data])
        #expect(edges(graph, from: "order", to: "reserve_compensate").first?.label == "id")
        #expect(edges(graph, from: "order", to: "order_compensate").map(\.kind) == [.compensation])
        #expect(edges(graph, from: "reserve", to: "reserve_compensate").map(\.kind) == [.compensation])
        // The on-demand step reads `charge` like any on-demand step, and undoes it.
        #expect(edges(graph, from: "charge", to: "refund").map(\.kind) == [.data, .compensation])
    }

    @Test func onErrorRulesAreDrawnLikeCatchRulesAndBeforeThem() throws {
        let graph = PlanGraph(try plan(saga))
        let rules = graph.edges.filter { $0.kind == .catchRule }
        #expect(rules.map(\.from) == ["reserve", "charge", "charge", "charge"])
        #expect(rules.map(\.to) == ["order", "charge", "reserve", "order"])
        #expect(rules.map(\.label) == [
            "on-error 409 → goto (max 2 visits)",
            "on-error timeout → fallback",
            "on-error → goto",
            "catch → goto",
        ])
        #expect(rules.allSatisfy { $0.isConditional })
    }

    @Test func compensationsRenderDashedInMermaidAndDOT() throws {
        let graph = PlanGraph(try plan(saga))
        let mermaid = Set(graph.mermaid().split(separator: "\n").map(String.init))
        #expect(mermaid.contains(#"    reserve_compensate("<b>reserve/compensate</b><br/>DELETE /orders/{$steps.order.outputs.id}/reservation/{$steps.reserve.outputs.id}")"#))
        #expect(mermaid.contains(#"    reserve -.->|"compensate"| reserve_compensate"#))
        #expect(mermaid.contains(#"    charge -.->|"compensate"| refund"#))
        #expect(mermaid.contains(#"    reserve -.->|"on-error 409 → goto (max 2 visits)"| order"#))
        #expect(mermaid.contains("    classDef compensation stroke-dasharray: 5 5"))
        #expect(mermaid.contains("    class order_compensate,reserve_compensate compensation"))
        #expect(mermaid.contains("    class refund onDemand"))
        let dot = Set(graph.dot().split(separator: "\n").map(String.init))
        #expect(dot.contains(#"    "order_compensate" [label="order/compensate\nDELETE /orders/{$steps.order.outputs.id}", style="rounded,dashed"];"#))
        #expect(dot.contains(#"    "order" -> "order_compensate" [label="compensate", style=dashed, color=royalblue4, fontcolor=royalblue4];"#))
        #expect(dot.contains(#"    "charge" -> "refund" [label="compensate", style=dashed, color=royalblue4, fontcolor=royalblue4];"#))
        #expect(dot.contains(#"    "charge" -> "charge" [label="on-error timeout → fallback", style=dashed, color=firebrick, fontcolor=firebrick];"#))
    }

    @Test func renderingIsDeterministic() throws {
        #expect(try graph().mermaid() == graph().mermaid())
        #expect(try graph().dot() == graph().dot())
    }
}

/// `flowrun graph` on loops: a `repeat` or `paginate` step has an edge to itself saying what ends it and its
/// limit, a `forEach` step says what it runs over, and a `workflow:` step is a subroutine node.
struct PlanGraphLoopTests {
    private static let loops = """
        flowrun: 1
        servers: { api: "https://api.example.com" }
        policies:
          p: { retry: [{ attempts: 3 }] }
        defaults: { server: api }
        steps:
          - id: list
            request: { method: GET, path: /list }
            paginate: { next: $response.body#/next, param: cursor, maxPages: 7 }
            outputs: { ids: $response.body#/items }
          - id: poll
            policy: p
            request: { method: GET, path: /job }
            repeat: { until: $response.body#/state == "done", maxIterations: 30 }
          - id: each
            forEach: $steps.list.outputs.ids
            maxConcurrency: 4
            request: { method: GET, path: "/items/{$item}" }
        """

    @Test func loopsHaveAnEdgeToTheirOwnStepAndForEachSaysWhatItRunsOver() throws {
        let graph = PlanGraph(try plan(Self.loops))
        let loops = graph.edges.filter { $0.kind == .loop }.map { "\($0.from) → \($0.to): \($0.label)" }
        #expect(loops == [
            "list → list: next: $response.body#/next as ?cursor=, ≤ 7 pages",
            #"poll → poll: until $response.body#/state == "done", ≤ 30×"#,
        ])
        // One iteration's attempts, not the loop's.
        #expect(graph.node(forStep: "poll")?.details == ["GET /job", "policy: p (up to 3 attempts)"])
        #expect(graph.node(forStep: "each")?.details == [
            "GET /items/{$item}", "for each $steps.list.outputs.ids, 4 at a time",
        ])
        let mermaid = graph.mermaid()
        #expect(mermaid.contains(#"    poll -.->|"until $response.body#35;/state == #quot;done#quot;, ≤ 30×"| poll"#), "\(mermaid)")
    }

    @Test func aForEachStepReadsTheArrayItIteratesAsData() throws {
        let graph = PlanGraph(try plan(Self.loops))
        let into = graph.edges.filter { $0.to == "each" }.map { "\($0.from): \($0.kind) \($0.label)" }
        #expect(into == ["list: data ids"])
        #expect(graph.mermaid().contains(#"    list -->|"ids"| each"#), "\(graph.mermaid())")
        #expect(graph.dot().contains(#"    "list" -> "each" [label="ids"];"#), "\(graph.dot())")
        #expect(!graph.mermaid().contains(#"|"after"|"#), "\(graph.mermaid())")
    }

    @Test func aWorkflowStepIsASubroutineInMermaidAndAComponentInDOT() throws {
        let caller = """
            flowrun: 1
            steps:
              - { id: login, workflow: ./login.yaml, inputs: { username: u, password: p } }
            """
        let plan = try SubWorkflowTests.compiler(["flows/login.yaml": SubWorkflowTests.login])
            .compile(yaml: caller, path: "flows/main.yaml")
        let graph = PlanGraph(plan)
        #expect(graph.node(forStep: "login")?.kind == .workflowCall)
        #expect(graph.mermaid().contains(#"    login[["<b>login</b><br/>workflow: ./login.yaml"]]"#))
        #expect(graph.dot().contains(#"    "login" [label="login\nworkflow: ./login.yaml", shape=component, style=solid];"#))
    }
}
