enum FeedParsingPlaceholder {}
