import Testing
@testable import FlowCore

/// Arazzo criteria: the simple condition syntax with its loose comparisons, regex and JSONPath criteria, and
/// the errors of criteria that cannot be read.
struct ArazzoCriterionTests {
    /// A response and outputs as the runtime expressions of the conditions below read them.
    static let values: [String: JSONValue] = [
        "$statusCode": 201,
        "$response.body#/status": "Available",
        "$response.body#/count": 3,
        "$response.body#/eligible": false,
        "$response.body#/redirectAuthToken": nil,
        "$response.header.X-Rate-Limit": "100",
        "$steps.check.outputs.required": true,
        "$response.body": ["pets": [["id": 1], ["id": 2]], "token": "abc-123"],
    ]

    private func holds(_ condition: String) throws -> Bool {
        try ArazzoCondition(parsing: condition).holds { Self.values[$0] }
    }

    @Test func conditionsOfTheOfficialExamplesHold() throws {
        #expect(try holds("$statusCode == 200 || $statusCode == 201"))
        #expect(try !holds("$statusCode == 200"))
        #expect(try holds("$response.body#/eligible == false"))
        #expect(try holds("$steps.check.outputs.required == true"))
        // An absent member equals null, as the bnpl example's redirectAuthToken checks rely on.
        #expect(try holds("$response.body#/absent == null"))
        #expect(try holds("$response.body#/redirectAuthToken == null"))
        #expect(try !holds("$response.body#/status == null"))
    }

    @Test func comparisonsAreLoose() throws {
        #expect(try holds("$response.body#/status == 'available'"))  // strings case-insensitively
        #expect(try holds("$response.body#/status != 'sold'"))
        #expect(try holds("$response.header.X-Rate-Limit == 100"))  // a numeric string beside a number
        #expect(try holds("$response.header.X-Rate-Limit > 99.5"))
        #expect(try holds("$response.header.X-Rate-Limit < '2'"))  // two strings order as text, whatever they spell
        #expect(try holds("$steps.check.outputs.required == 'TRUE'"))
        #expect(try holds("$response.body#/count >= 3 && $response.body#/count < 4"))
        #expect(try !holds("$response.body#/status > 3"))  // a string that is no number does not order beside one
    }

    @Test func logicGroupsAndNegates() throws {
        #expect(try holds("!($statusCode == 200) && ($response.body#/count == 3 || $statusCode == 500)"))
        #expect(try holds("!$response.body#/eligible"))
        #expect(try holds("$steps.check.outputs.required"))  // an operand alone holds when it is true
        #expect(try !holds("$response.body#/status"))
        #expect(try holds("'it''s' == 'IT''S'"))
    }

    @Test func conditionsThatCannotBeReadAreLocated() {
        let cases: [(String, Int, String)] = [
            ("$statusCode = 200", 12, "unexpected '='"),
            ("$statusCode == \"ok\"", 15, "single quotes"),
            ("$statusCode == 'ok", 15, "not closed"),
            ("($statusCode == 200", 19, "')'"),
            ("$statusCode ==", 14, "ends where a value"),
            ("$ == 1", 0, "runtime expression"),
            ("status == 1", 0, "expected a runtime expression"),
        ]
        expectSyntaxErrors(cases) { (text) throws(ExpressionSyntaxError) in _ = try ArazzoCondition(parsing: text) }
    }

    @Test func theExpressionsAConditionReadsAreListedWithTheirOffsets() throws {
        let condition = try ArazzoCondition(parsing: "$statusCode == 200 && $response.body#/a != null")
        #expect(condition.expressions.map(\.text) == ["$statusCode", "$response.body#/a"])
        #expect(condition.expressions.map(\.offset) == [0, 22])
    }

    @Test func regexAndJSONPathCriteriaApplyToTheirContext() throws {
        let regex = try ArazzoCriterion(condition: "^abc-\\d+$", type: "regex", context: "$response.body#/token")
        #expect(regex.holds { $0 == "$response.body#/token" ? "abc-123" : nil })
        #expect(!regex.holds { _ in "xabc-1y" })
        #expect(!regex.holds { _ in nil })
        let path = try ArazzoCriterion(condition: "$.pets[?@.id == 2]", type: "jsonpath", context: "$response.body")
        #expect(path.holds { Self.values[$0] })
        // RFC 9535 exactly: a filter at the root tests the context's children, not the context itself. So the
        // official pet-coupons example's `$[?count(@.pets) > 0]` holds for a list of objects with pets, and not
        // for one object with pets.
        let children = try ArazzoCriterion(condition: "$[?count(@.pets) > 0]", type: "jsonpath", context: "$response.body")
        #expect(children.holds { _ in [["pets": [1]]] })
        #expect(!children.holds { _ in ["pets": [1]] })
        let none = try ArazzoCriterion(condition: "$.pets[?@.id == 3]", type: "jsonpath", context: "$response.body")
        #expect(!none.holds { Self.values[$0] })
        let simple = try ArazzoCriterion(condition: "$statusCode == 201", type: nil, context: nil)
        #expect(simple.holds { Self.values[$0] })
    }

    /// The JSONPath version Arazzo 1.0's expression type object defines is read as RFC 9535, parenthesised filters
    /// included.
    @Test func theDraftJSONPathVersionIsReadAsRFC9535() throws {
        let criterion = try ArazzoCriterion(
            condition: "$.pets[?(@.id == 2)]", type: "jsonpath", expressionTypeVersion: "draft-goessner-dispatch-jsonpath-00",
            context: "$response.body")
        #expect(criterion.holds { Self.values[$0] })
        let none = try ArazzoCriterion(
            condition: "$.pets[?(@.id == 3)]", type: "jsonpath", expressionTypeVersion: "draft-goessner-dispatch-jsonpath-00",
            context: "$response.body")
        #expect(!none.holds { Self.values[$0] })
    }

    @Test func criteriaThatCannotBeUsedSayWhy() {
        func failure(_ condition: String, _ type: String?, version: String? = nil, context: String?) -> ArazzoCriterion.Failure? {
            do {
                _ = try ArazzoCriterion(condition: condition, type: type, expressionTypeVersion: version, context: context)
                return nil
            } catch { return error }
        }
        #expect(failure("$[?@.a]", "jsonpath", context: nil)?.field == .context)
        #expect(failure("$[?@.a =]", "jsonpath", context: "$response.body")?.offset == 7)
        #expect(failure("a(", "regex", context: "$response.body")?.message.contains("does not compile") == true)
        #expect(failure("//a", "xpath", context: "$response.body")?.message.contains("xpath criteria are not supported") == true)
        #expect(failure("$.a", "jsonpath", version: "draft-01", context: "$response.body")?.message
            == "jsonpath version 'draft-01' is not one Arazzo defines; write 'draft-goessner-dispatch-jsonpath-00' "
            + "(flowrun reads it as RFC 9535), or 'type: jsonpath'")
        #expect(failure("$.a[(@.length-1)]", "jsonpath", version: "draft-goessner-dispatch-jsonpath-00", context: "$response.body")?
            .message.hasSuffix("(flowrun reads draft-goessner-dispatch-jsonpath-00 queries as RFC 9535, which this one is not)") == true)
        #expect(failure("//a", "xpath", version: "xpath-30", context: "$response.body")?.message.contains("xpath criteria are not supported") == true)
        #expect(failure("$statusCode == 200", "simpel", context: nil)?.message.contains("did you mean 'simple'") == true)
    }
}
