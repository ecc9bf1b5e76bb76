import Foundation
@testable import LocationCache
import Messages
import Testing

/// The filter that lets a put skip the preferences query: it may say "maybe" for anyone, but
/// never "no" for a user who has preferences, in memory or after a restart.
struct PreferencesFilterTests {
    @Test func filter_neverMissesAnInsertedUser_andRarelyClaimsAnOther() {
        var filter = PreferencesFilter(expectedUsers: 10_000)
        for index in 0..<10_000 { filter.insert("user-\(index)") }
        #expect((0..<10_000).allSatisfy { filter.mayContain("user-\($0)") })
        let strangers = (0..<10_000).filter { filter.mayContain("stranger-\($0)") }.count
        #expect(strangers < 400, "\(strangers) false maybes in 10000")
        #expect(!filter.isCrowded)
    }

    @Test func filter_whenEmpty_claimsNobody() {
        let filter = PreferencesFilter(expectedUsers: 1)
        #expect(!["", "u", "émile-ü-用户", String(repeating: "x", count: 128)].contains { filter.mayContain($0) })
    }

    @Test func filter_readsIdsByTheirBytes_soEveryLengthAndScriptIsFound() {
        var filter = PreferencesFilter(expectedUsers: 100)
        let users = (0...40).map { String(repeating: "a", count: $0) } + ["émile-ü-用户", "e\u{301}", "\u{e9}"]
        for user in users { filter.insert(user) }
        #expect(users.allSatisfy { filter.mayContain($0) })
    }

    @Test func filter_whenPastItsSize_saysItIsCrowded() {
        var filter = PreferencesFilter(expectedUsers: 1)
        var inserted = 0
        while !filter.isCrowded {
            filter.insert("user-\(inserted)")
            inserted += 1
        }
        #expect(inserted > 1000)
    }

    @Test func hash_dependsOnTheKey() {
        let text = Array("same-user".utf8)
        let hashes = text.withUnsafeBytes { bytes in
            [PreferencesFilter.hash(bytes, seed: (1, 2)), PreferencesFilter.hash(bytes, seed: (3, 2)),
             PreferencesFilter.hash(bytes, seed: (1, 4))]
        }
        #expect(Set(hashes).count == 3)
    }

    @Test func store_readsEveryUsersPreferences_acrossFilterRebuildsAndRestarts() throws {
        let directory = try TemporaryDirectory()
        let users = 6000  // past what the first filter is sized for, so it is rebuilt on the way
        do {
            let store = try LocationStore(directory: directory.url)
            for index in 0..<users where index % 2 == 0 {
                try store.setPreferences(StoredPreferences(radiusMiles: Double(index % 50 + 1)), user: "user-\(index)")
            }
            for index in 0..<users {
                let expected = index % 2 == 0
                    ? StoredPreferences(radiusMiles: Double(index % 50 + 1)) : StoredPreferences()
                #expect(try store.preferences(user: "user-\(index)") == expected)
            }
            store.close()
        }
        let reopened = try LocationStore(directory: directory.url)
        for index in stride(from: 0, to: users, by: 2) {
            #expect(try reopened.preferences(user: "user-\(index)").radiusMiles == Double(index % 50 + 1))
        }
        #expect(try reopened.preferences(user: "user-1") == StoredPreferences())
    }

    @Test func put_afterPreferencesAreClearedAndSetAgain_answersWithTheCurrentOnes() throws {
        let fixture = try HandlerFixture()
        try fixture.setPreferences(radius: .set(20))
        try fixture.setPreferences(radius: .clear)
        #expect(try fixture.put().preferences == .default)
        try fixture.setPreferences(unit: .set(.km))
        #expect(try fixture.put().preferences == Preferences(radiusMiles: 5, unit: .km))
        try fixture.forget()
        #expect(try fixture.put().preferences == .default)
    }
}
