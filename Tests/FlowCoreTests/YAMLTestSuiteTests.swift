import Foundation
import Testing
@testable import FlowCore

/// The yaml-test-suite: every error case is refused with a located diagnostic, and every valid single-document case
/// loads, to its `in.json` where the suite gives one. Cases that flowrun answers otherwise are listed by id, with the
/// reason, so that a new failure stands out.
@Suite(.enabled(if: ConformanceSuites.folder != nil, ConformanceSuites.absenceNotice))
struct YAMLTestSuiteTests {
    /// One case of the suite: a folder with `in.yaml`, and `error`, `in.json` and `test.event`.
    struct Case {
        /// `229Q`, or `2G84/00` for the numbered variants of a test.
        let id: String
        let folder: URL

        var yaml: [UInt8] { get throws { [UInt8](try Data(contentsOf: folder.appendingPathComponent("in.yaml"))) } }
        var isError: Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent("error").path) }
        var json: URL? {
            let url = folder.appendingPathComponent("in.json")
            return FileManager.default.fileExists(atPath: url.path) ? url : nil
        }
        /// How many documents the expected event stream holds.
        var documentCount: Int {
            get throws {
                try String(contentsOf: folder.appendingPathComponent("test.event"), encoding: .utf8)
                    .split(separator: "\n").filter { $0.hasPrefix("+DOC") }.count
            }
        }
    }

    /// Every case, in id order.
    static func cases() throws -> [Case] {
        let root = ConformanceSuites.suite("yaml-test-suite")!
        var cases: [Case] = []
        for name in try ConformanceSuites.contents(of: root) {
            let folder = root.appendingPathComponent(name)
            guard ConformanceSuites.isFolder(folder) else { continue }
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("in.yaml").path) {
                cases.append(Case(id: name, folder: folder))
            } else {
                for variant in try ConformanceSuites.contents(of: folder)
                where ConformanceSuites.isFolder(folder.appendingPathComponent(variant)) {
                    cases.append(Case(id: "\(name)/\(variant)", folder: folder.appendingPathComponent(variant)))
                }
            }
        }
        return cases
    }

    @Test func everyErrorCaseIsRefusedWithALocation() throws {
        var refused = 0
        var known = 0
        var total = 0
        for testCase in try Self.cases() where testCase.isError {
            total += 1
            let yaml = try testCase.yaml
            do throws(FlowError) {
                _ = try YAMLLoader().load(yaml, path: "in.yaml")
                if Self.acceptedErrorCases[testCase.id] != nil {
                    known += 1
                } else {
                    Issue.record("\(testCase.id): an error case was loaded")
                }
            } catch {
                #expect(Self.acceptedErrorCases[testCase.id] == nil, "\(testCase.id) is refused now: \(error)")
                let location = try #require(error.location, "\(testCase.id): \(error) has no location")
                #expect(location.path == "in.yaml" && location.line >= 1 && location.column >= 1)
                refused += 1
            }
        }
        print("yaml-test-suite: \(refused)/\(total) error cases refused with a location (\(known) known exceptions)")
        #expect(refused + known == total)
        #expect(known == Self.acceptedErrorCases.count, "a known exception's id is not an error case of the suite")
    }

    @Test func everyValidSingleDocumentCaseLoadsToItsJSON() throws {
        var loaded = 0
        var matched = 0
        var known = 0
        var refusedKnown = 0
        var total = 0
        for testCase in try Self.cases() where !testCase.isError {
            guard try testCase.documentCount == 1 else { continue }
            total += 1
            let yaml = try testCase.yaml
            let node: YAMLNode
            do throws(FlowError) {
                node = try YAMLLoader().load(yaml, path: "in.yaml")
            } catch {
                if Self.refusedValidCases[testCase.id] != nil {
                    known += 1
                    refusedKnown += 1
                } else {
                    Issue.record("\(testCase.id): a valid case was refused: \(error)")
                }
                continue
            }
            loaded += 1
            guard let json = testCase.json else {
                #expect(Self.refusedValidCases[testCase.id] == nil, "\(testCase.id) loads now")
                continue
            }
            let expected = try JSONValue(parsing: try Data(contentsOf: json))
            let found = JSONValue(yaml: node)
            if found.isSchemaEqual(to: expected) {
                #expect(Self.refusedValidCases[testCase.id] == nil, "\(testCase.id) loads to its in.json now")
                matched += 1
            } else if Self.refusedValidCases[testCase.id] != nil {
                known += 1
            } else {
                Issue.record("\(testCase.id): loaded \(found.serialized()), expected \(expected.serialized())")
            }
        }
        print("yaml-test-suite: \(loaded)/\(total) valid single-document cases loaded, \(matched) of them to their "
            + "in.json (\(known) known exceptions)")
        #expect(loaded + refusedKnown == total)
        #expect(known == Self.refusedValidCases.count, "a known exception's id is not a valid case of the suite")
    }

    // MARK: Known exceptions

    // libyaml (the parser flowrun uses, as PyYAML's CLoader and many other tools do) is known to fail these
    // cases of the suite; each was checked against libyaml on its own, outside flowrun.
    static let libyamlAccepts = "libyaml accepts this invalid YAML"
    static let libyamlRefuses = "libyaml's parser refuses this valid YAML"
    static let libyamlRefusesTabs = "libyaml refuses a tab that YAML 1.2 allows here as separation, not indentation"
    static let libyamlRefusesReservedDirectives = "libyaml refuses reserved directives, which YAML says to ignore"
    static let libyamlRefusesYAML12Documents = "libyaml refuses a %YAML directive of a version other than 1.1"
    static let libyamlRefusesContentAfterDocumentEnd = "libyaml refuses content after '...' without '---'"
    static let libyamlMisreads =
        "libyaml reads other content (a '?' or ':' inside a flow scalar or anchor, trailing spaces at the end of input)"
    // flowrun refuses these on purpose, with a message that says so (docs/workflow-format.md, YAML notes).
    static let collectionKey = "flowrun does not support keys that are sequences or mappings"
    static let nonCoreTag = "flowrun does not support tags outside the core schema"

    /// Error cases that flowrun loads, by id, with the reason.
    static let acceptedErrorCases: [String: String] = [
        "9C9N": libyamlAccepts,
        "9JBA": libyamlAccepts,
        "CVW2": libyamlAccepts,
        "DK95/01": libyamlAccepts,
        "G5U8": libyamlAccepts,
        "MUS6/00": libyamlAccepts,
        "QB6E": libyamlAccepts,
        "S98Z": libyamlAccepts,
        "SU5Z": libyamlAccepts,
        "X4QW": libyamlAccepts,
        "Y79Y/003": libyamlAccepts,
        "YJV2": libyamlAccepts,
    ]

    /// Valid cases that flowrun refuses or loads to other JSON, by id, with the reason.
    static let refusedValidCases: [String: String] = [
        "2JQS": libyamlRefuses,
        "2SXE": libyamlRefuses,
        "4ABK": libyamlRefuses,
        "4MUZ/00": libyamlRefuses,
        "4MUZ/01": libyamlRefuses,
        "4MUZ/02": libyamlRefuses,
        "58MP": libyamlRefuses,
        "5MUD": libyamlRefuses,
        "5T43": libyamlRefuses,
        "6M2F": libyamlRefuses,
        "8XYN": libyamlRefuses,
        "9SA2": libyamlRefuses,
        "CFD4": libyamlRefuses,
        "DBG4": libyamlRefuses,
        "FRK4": libyamlRefuses,
        "HM87/00": libyamlRefuses,
        "K3WX": libyamlRefuses,
        "M2N8/00": libyamlRefuses,
        "NHX8": libyamlRefuses,
        "NJ66": libyamlRefuses,
        "S3PD": libyamlRefuses,
        "SM9W/01": libyamlRefuses,
        "UKK6/00": libyamlRefuses,
        "VJP3/01": libyamlRefuses,
        "W5VH": libyamlRefuses,
        "6BCT": libyamlRefusesTabs,
        "6CA3": libyamlRefusesTabs,
        "96NN/00": libyamlRefusesTabs,
        "96NN/01": libyamlRefusesTabs,
        "A2M4": libyamlRefusesTabs,
        "DK95/00": libyamlRefusesTabs,
        "DK95/03": libyamlRefusesTabs,
        "DK95/04": libyamlRefusesTabs,
        "Q5MG": libyamlRefusesTabs,
        "R4YG": libyamlRefusesTabs,
        "Y79Y/001": libyamlRefusesTabs,
        "Y79Y/010": libyamlRefusesTabs,
        "2LFX": libyamlRefusesReservedDirectives,
        "6LVF": libyamlRefusesReservedDirectives,
        "MUS6/05": libyamlRefusesReservedDirectives,
        "MUS6/06": libyamlRefusesReservedDirectives,
        "BEC7": libyamlRefusesYAML12Documents,
        "DK3J": libyamlRefusesContentAfterDocumentEnd,
        "FP8R": libyamlRefusesContentAfterDocumentEnd,
        "652Z": libyamlMisreads,
        "HM87/01": libyamlMisreads,
        "JEF9/02": libyamlMisreads,
        "L24T/01": libyamlMisreads,
        "Y2GN": libyamlMisreads,
        "4FJ6": collectionKey,
        "6BFJ": collectionKey,
        "6PBE": collectionKey,
        "9MMW": collectionKey,
        "KK5P": collectionKey,
        "LX3P": collectionKey,
        "M2N8/01": collectionKey,
        "M5DY": collectionKey,
        "Q9WF": collectionKey,
        "RZP5": collectionKey,
        "SBG9": collectionKey,
        "V9D5": collectionKey,
        "X38W": collectionKey,
        "XW4D": collectionKey,
        "2XXW": nonCoreTag,
        "565N": nonCoreTag,
        "6CK3": nonCoreTag,
        "7FWL": nonCoreTag,
        "C4HZ": nonCoreTag,
        "CC74": nonCoreTag,
        "CUP7": nonCoreTag,
        "J7PZ": nonCoreTag,
        "M5C3": nonCoreTag,
        "P76L": nonCoreTag,
        "UGM3": nonCoreTag,
        "Z67P": nonCoreTag,
        "Z9M4": nonCoreTag,
    ]
}
