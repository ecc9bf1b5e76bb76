import Messages

/// A render in this locale: the outcome's facts turned into words ("£1.399", "2.3 miles",
/// "as of 6:30 AM"), then its sentence, short answer and card, all as bytes in one scratch.
extension LocalePhrases {
    func render(_ input: RenderInput, into scratch: inout TextScratch) -> RenderedText {
        let outcome = input.outcome
        let uses = DialogOutcome.factSlotMasks[outcome.index]
        // One set of values for the whole render: the phrases' own slots (`pounds`, `time`, ...)
        // are never facts, and each is set just before the phrase that uses it.
        var values = SlotValues()
        func needs(_ slot: Slot) -> Bool { uses & 1 << UInt32(slot.rawValue) != 0 }
        if needs(.station) { values[.station] = input.station }
        if needs(.postcode) { values[.postcode] = input.postcode }
        if needs(.fuel), let fuel = input.fuel { values[.fuel] = pool.render(spokenFuel[fuel.index], into: &scratch) }
        if needs(.fuelTitle), let fuel = input.fuel {
            values[.fuelTitle] = pool.render(fuelTitle[fuel.index], into: &scratch)
        }
        if needs(.price), let price = input.price { values[.price] = self.price(price, &values, into: &scratch) }
        if needs(.distance), let miles = input.distanceMiles {
            values[.distance] = distance(miles: miles, input.unit, &values, into: &scratch)
        }
        if needs(.freshness), let age = input.age { values[.freshness] = freshness(age, &values, into: &scratch) }
        if needs(.radius), let miles = input.radiusMiles {
            values[.radius] = distance(miles: miles, input.unit, &values, into: &scratch)
        }
        if needs(.minRadius) || needs(.maxRadius) {
            let limits = Preferences.radiusLimits(in: input.unit)
            values[.minRadius] = scratch.phrase { $0.append(digitsOf: limits.lowerBound) }
            values[.maxRadius] = distance(Double(limits.upperBound), input.unit, &values, into: &scratch)
        }
        if needs(.unit) { values[.unit] = pool.render(unitName[input.unit.index], into: &scratch) }
        if needs(.word) { values[.word] = input.word }
        if needs(.place) { values[.place] = place(input.place ?? .current, &values, into: &scratch) }

        // The passed-over price's own values (its station, price and freshness), made before the
        // sentence: the sentence and its notes are one run of the scratch.
        var passedOverValues: SlotValues?
        if outcome.isStationAnswer, let passed = input.passedOver, passedOverNote != nil {
            var noted = SlotValues()
            noted[.station] = passed.station
            noted[.price] = price(passed.price, &noted, into: &scratch)
            noted[.freshness] = freshness(passed.age, &noted, into: &scratch)
            passedOverValues = noted
        }
        var dialog = pool.render(self.dialog[outcome.index], into: &scratch, values)
        let stale = outcome.isStationAnswer && input.age?.stale == true
        if stale {
            scratch.append(byte: UInt8(ascii: " "))
            dialog = dialog.lowerBound..<pool.render(staleNote, into: &scratch).upperBound
        }
        let outlier = outcome.isStationAnswer ? input.priceOutlier : nil
        if let outlier {
            scratch.append(byte: UInt8(ascii: " "))
            // After the out-of-date note, the low note does not say "out of date" a second time.
            let note = outlier == .high ? outlierHighNote
                : stale ? outlierLowAfterStaleNote ?? outlierLowNote : outlierLowNote
            dialog = dialog.lowerBound..<pool.render(note, into: &scratch).upperBound
        }
        if let passed = passedOverValues, let note = passedOverNote {
            scratch.append(byte: UInt8(ascii: " "))
            dialog = dialog.lowerBound..<pool.render(note, into: &scratch, passed).upperBound
        }
        if outcome == .nothingInRange, let note = largestRadiusNote, let miles = input.radiusMiles,
           Preferences.isLargestRadius(miles) {
            scratch.append(byte: UInt8(ascii: " "))
            dialog = dialog.lowerBound..<pool.render(note, into: &scratch).upperBound
        }
        if input.defaultSettings && outcome.speaksOfTheSearch {
            scratch.append(byte: UInt8(ascii: " "))
            dialog = dialog.lowerBound..<pool.render(defaultSettingsNote, into: &scratch).upperBound
        }
        let value = self.value[outcome.index].map { pool.render($0, into: &scratch, values) }
        guard outcome.isStationAnswer else { return RenderedText(dialog: dialog, value: value) }
        let card = RenderedText.Card(
            title: pool.render(snippetTitle, into: &scratch, values),
            subtitle: pool.render(snippetSubtitle, into: &scratch, values),
            freshness: pool.render(snippetFreshness, into: &scratch, values),
            price: values[.price] ?? scratch.count..<scratch.count,
            stale: stale, priceOutlier: outlier)
        return RenderedText(dialog: dialog, value: value, card: card)
    }

    /// Pence per litre as pounds with three decimals: 1399 tenths of a penny -> "£1.399".
    private func price(_ price: Price, _ values: inout SlotValues, into scratch: inout TextScratch) -> Range<Int> {
        let tenths = Int(price.tenths)
        values[.pounds] = scratch.phrase { scratch in
            scratch.append(digitsOf: tenths / 1000)
            _ = pool.render(decimalSeparator, into: &scratch)
            scratch.append(digitsOf: tenths % 1000, minimumCount: 3)
        }
        return pool.render(self.price, into: &scratch, values)
    }

    /// "as of 6:30 AM", "as of yesterday at 6:30 PM", "as of 3 Oct at 11:00 AM".
    private func freshness(_ age: FeedAge, _ values: inout SlotValues, into scratch: inout TextScratch) -> Range<Int> {
        values[.time] = clockTime(hour: age.hour, minute: age.minute, &values, into: &scratch)
        switch age.day {
        case .today:
            return pool.render(freshnessToday, into: &scratch, values)
        case .yesterday:
            return pool.render(freshnessYesterday, into: &scratch, values)
        case .earlier(let day, let month, let year, let showYear):
            values[.date] = dateText(day: day, month: month, year: year, showYear: showYear, &values, into: &scratch)
            return pool.render(freshnessOlder, into: &scratch, values)
        }
    }

    /// "you", "where you were an hour ago", "where you were 3 hours ago", "where you were
    /// yesterday", "where you were on 25 Nov".
    private func place(_ age: LocationAge, _ values: inout SlotValues, into scratch: inout TextScratch) -> Range<Int> {
        switch age {
        case .current:
            return pool.render(placeCurrent, into: &scratch)
        case .hours(1):
            return pool.render(placeHourAgo, into: &scratch)
        case .hours(let hours):
            values[.hours] = scratch.phrase { $0.append(digitsOf: hours) }
            return pool.render(placeHoursAgo, into: &scratch, values)
        case .yesterday:
            return pool.render(placeYesterday, into: &scratch)
        case .earlier(let day, let month, let year, let showYear):
            values[.date] = dateText(day: day, month: month, year: year, showYear: showYear, &values, into: &scratch)
            return pool.render(placeEarlier, into: &scratch, values)
        }
    }

    /// "3 Oct", or "3 Oct 2024" with `showYear` (`clock.date`, `clock.dateWithYear`).
    private func dateText(day: Int, month: Int, year: Int, showYear: Bool, _ values: inout SlotValues,
                      into scratch: inout TextScratch) -> Range<Int> {
        values[.day] = scratch.phrase { $0.append(digitsOf: day) }
        values[.month] = pool.render((1...12).contains(month) ? months[month - 1] : .empty, into: &scratch)
        values[.year] = scratch.phrase { $0.append(digitsOf: year) }
        return pool.render(showYear ? dateWithYear : date, into: &scratch, values)
    }

    /// "6:30 AM": 12-hour clock without a leading zero, or whatever the locale's `clock.time` says;
    /// "midnight" and "noon" (`clock.midnight`, `clock.noon`) on the hour at 0:00 and 12:00.
    private func clockTime(hour: Int, minute: Int, _ values: inout SlotValues,
                           into scratch: inout TextScratch) -> Range<Int> {
        values[.hour12] = scratch.phrase { $0.append(digitsOf: hour % 12 == 0 ? 12 : hour % 12) }
        values[.hour24] = scratch.phrase { $0.append(digitsOf: hour, minimumCount: 2) }
        values[.minute] = scratch.phrase { $0.append(digitsOf: minute, minimumCount: 2) }
        values[.ampm] = pool.render(hour < 12 ? amMarker : pmMarker, into: &scratch)
        let words = minute != 0 ? time : hour == 0 ? midnight : hour == 12 ? noon : time
        return pool.render(words, into: &scratch, values)
    }
}
