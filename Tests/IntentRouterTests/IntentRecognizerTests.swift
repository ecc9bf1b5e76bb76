@testable import IntentRouter
import Messages
import Testing

struct IntentRecognizerTests {
    @Test func recognize_forEveryFuelWordOfTheIssue_givesItsCode() throws {
        let recognizer = try IntentRecognizer()
        let expected: [String: FuelCode] = ["unleaded": .e10, "petrol": .e10, "E10": .e10, "premium": .e5,
                                            "super unleaded": .e5, "E5": .e5, "diesel": .b7, "super diesel": .sdv,
                                            "premium diesel": .sdv]
        for (word, code) in expected {
            let call = recognizer.recognize("Ask FuelBoard for the cheapest \(word) near me")
            #expect(call == .cheapestFuel(.value(code)), "\(word)")
        }
    }

    @Test func recognize_whenFuelNotSupported_saysWhichWord() throws {
        let recognizer = try IntentRecognizer()
        for (said, named) in [("hydrogen", "hydrogen"), ("LPG", "LPG"), ("lpg", "LPG"), ("l p g", "LPG"),
                              ("electric", "electric"), ("charging", "charging"), ("EV charging", "EV charging")] {
            #expect(recognizer.recognize("Ask FuelBoard for the cheapest \(said) near me") ==
                    .cheapestFuel(.unsupported(named)))
        }
    }

    @Test func recognize_whenAppNameConfigured_needsThatName() throws {
        let recognizer = try IntentRecognizer(appName: "PumpPal")
        #expect(recognizer.recognize("Ask PumpPal for the cheapest diesel near me") == .cheapestFuel(.value(.b7)))
        #expect(recognizer.recognize("Ask pump pal for the cheapest diesel near me") == .cheapestFuel(.value(.b7)))
        #expect(recognizer.recognize("Ask FuelBoard for the cheapest diesel near me") == nil)
    }

    @Test func spokenForms_ofCamelCaseName_areJoinedAndApart() {
        #expect(AppName.spokenForms("FuelBoard") == ["fuelboard", "fuel board"])
        #expect(AppName.spokenForms("Pumps") == ["pumps"])
        #expect(AppName.spokenForms("!!!").isEmpty)
    }

    @Test func init_whenAppNameUnspeakable_throws() {
        #expect(throws: TemplateError.self) { try IntentRecognizer(appName: "???") }
    }

    @Test func recognize_whenRadiusInKilometres_keepsTheUnitAndSummarisesMiles() throws {
        let recognizer = try IntentRecognizer()
        let call = recognizer.recognize("Ask FuelBoard to set my search radius to 8 km")
        #expect(call == .setSearchRadius(.value(.set(.km(8)))))
        #expect(call?.slotSummary == ["miles": "4.97"])
    }

    @Test func recognize_whenRadiusHasNoUnitWord_isABareNumberNotMiles() throws {
        let recognizer = try IntentRecognizer()
        let bare = recognizer.recognize("Ask FuelBoard to set my search radius to 10")
        #expect(bare == .setSearchRadius(.value(.set(.bare(10)))))
        #expect(bare?.slotSummary == ["radius": "10"])
        #expect(recognizer.recognize("Ask FuelBoard to set my search radius to ten") ==
                .setSearchRadius(.value(.set(.bare(10)))))
        #expect(recognizer.recognize("Ask FuelBoard to set my search radius to 10 miles") ==
                .setSearchRadius(.value(.set(.miles(10)))))
    }

    @Test func spokenRadius_bareNumber_isReadInTheUsersUnit() {
        #expect(SpokenRadius.bare(10).miles(usersUnit: .km) == 10 / DistanceUnit.kilometresPerMile)
        #expect(SpokenRadius.bare(10).miles(usersUnit: .miles) == 10)
        #expect(SpokenRadius.km(5).miles(usersUnit: .miles) == 5 / DistanceUnit.kilometresPerMile)
        #expect(SpokenRadius.shown(SpokenRadius.km(5).miles(usersUnit: .miles)) == 3.11)
        #expect(SpokenRadius.miles(5).miles(usersUnit: .km) == 5)
        #expect(SpokenRadius.bare(10).explicitMiles == nil)
    }

    @Test func recognize_resetRadius_isClearNotASetting() throws {
        let recognizer = try IntentRecognizer()
        #expect(recognizer.recognize("reset my search radius FuelBoard") == .setSearchRadius(.value(.clear)))
        #expect(recognizer.recognize("Ask FuelBoard to set my search radius") == .setSearchRadius(.missing))
    }

    @Test func followUp_whenOkSaidAlone_isAYes() throws {
        let recognizer = try IntentRecognizer()
        let answer = recognizer.followUp(recognizer.normalizer.normalize("OK"), among: [.yes, .no])
        #expect(answer?.label == .yes)
    }

    @Test func followUp_whenFuelAnswered_bindsTheFuelWithoutAppName() throws {
        let recognizer = try IntentRecognizer()
        let answer = recognizer.followUp(recognizer.normalizer.normalize("Super diesel, please"), among: [.fuel])
        #expect(answer?.slots["fuel"]?.value == "SDV")
    }
}

/// The letters and sounds a misheard fuel word is compared by.
struct MisheardFuelTests {
    @Test func editDistance_countsInsertionsDeletionsAndSubstitutions() {
        func distance(_ a: String, _ b: String) -> Int { MisheardFuel.editDistance(Array(a.utf8), Array(b.utf8)) }
        #expect(distance("disel", "diesel") == 1)
        #expect(distance("diesel", "diesel") == 0)
        #expect(distance("deasil", "diesel") == 3)
        #expect(distance("", "abc") == 3 && distance("abc", "") == 3)
    }

    /// "pertol" was heard as a fuel FuelBoard has no prices for (QA): two letters swapped are one edit.
    @Test func editDistance_countsTwoSwappedLettersAsOneEdit() {
        #expect(MisheardFuel.editDistance(Array("pertol".utf8), Array("petrol".utf8)) == 1)
        #expect(MisheardFuel.editDistance(Array("cheepest".utf8), Array("cheapest".utf8)) == 1)
        #expect(MisheardFuel.editDistance(Array("premier".utf8), Array("premium".utf8)) == 2)
        #expect(MisheardFuel.editDistance(Array("abc".utf8), Array("ca".utf8)) == 3)
    }

    @Test func anUnpricedFuelCode_isNamedInCapitals_otherWordsAsHeard() {
        #expect(FuelCode.unpricedName("b10") == "B10")
        #expect(FuelCode.unpricedName("hvo") == "HVO")
        #expect(FuelCode.unpricedName("plutonium") == "plutonium")
        #expect(FuelCode.unpricedName("10") == "10")
    }

    @Test func consonants_dropVowels_hearZAsS_andSayADoubledLetterOnce() {
        #expect(MisheardFuel.consonants(Array("dizzle".utf8)) == Array("dsl".utf8))
        #expect(MisheardFuel.consonants(Array("diesell".utf8)) == Array("dsl".utf8))
    }
}

/// What the normaliser does to a stutter.
struct StutterTests {
    @Test func aWordSaidTwiceInARow_isOnce_butNumbersStayAsSaid() {
        let normalizer = UtteranceNormalizer()
        #expect(normalizer.normalize("for the the cheapest diesel diesel").words == ["for", "the", "cheapest", "diesel"])
        #expect(normalizer.normalize("within 20 20 miles").words == ["within", "20", "20", "miles"])
    }
}
