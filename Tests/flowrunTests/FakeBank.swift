import FlowTestServer
import Foundation

/// The bank API that `workflows/banking.yaml` calls, answered by a ``TestHTTPServer``.
///
/// `GET /user` answers 401 unless the request carries `Authorization: Bearer <freshToken>`, so a run
/// that starts with any other token has to refresh it; `POST /oauth/token` hands out ``freshToken``
/// for the form `grant_type=refresh_token&refresh_token=<refreshToken>`. Account and transactions
/// need the fresh token too, and `GET /transactions/{id}` answers 404 when ``transactions`` is `nil`,
/// as for a new account. Error bodies quote the `Authorization` header they got, as careless APIs do,
/// so a report that shows them shows whether flowrun redacts the token.
struct FakeBank: Sendable {
    /// The refresh token `POST /oauth/token` accepts.
    var refreshToken = "refresh-token-5e1c"
    /// The access token `POST /oauth/token` returns and every other endpoint requires.
    var freshToken = "fresh-token-b27d"
    /// The account of user `u-1001`.
    var accountID = "acc-42"
    /// The account's transactions, or `nil` to answer 404.
    var transactions: String? = #"[{"id":"t-1","amount":-42.5},{"id":"t-2","amount":1200}]"#

    /// The reply to `request`.
    func reply(to request: RecordedRequest) -> TestReply {
        let authorization = request.values("Authorization").joined(separator: ", ")
        let authorized = authorization == "Bearer \(freshToken)"
        switch (request.method, request.path) {
        case ("POST", "/oauth/token"):
            let form = Self.formFields(request.body)
            guard form["grant_type"] == "refresh_token", form["refresh_token"] == refreshToken else {
                return Self.json(#"{"code":"invalid_grant","message":"unknown refresh token"}"#, status: 400)
            }
            return Self.json(#"{"access_token":"\#(freshToken)","expires_in":3600}"#)
        case _ where !authorized:
            return Self.json(#"{"code":"token-expired","message":"expired: \#(authorization)"}"#, status: 401)
        case ("GET", "/user"):
            return Self.json(#"{"userId":"u-1001","username":"ada"}"#)
        case ("GET", "/account/u-1001"):
            return Self.json(#"{"accountId":"\#(accountID)","balance":1250.75}"#)
        case ("GET", "/transactions/\(accountID)") where request.uri.hasSuffix("?limit=50"):
            guard let transactions else {
                return Self.json(#"{"code":"not-found","message":"no transactions yet (\#(authorization))"}"#, status: 404)
            }
            return Self.json(transactions)
        default:
            return Self.json(#"{"code":"not-found","message":"no route"}"#, status: 404)
        }
    }

    /// A reply with a JSON body.
    static func json(_ body: String, status: Int = 200) -> TestReply {
        .text(body, status: status, headers: [("Content-Type", "application/json")])
    }

    /// The fields of an `application/x-www-form-urlencoded` body.
    static func formFields(_ body: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }
}
