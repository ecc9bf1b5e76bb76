enum SQLitePlaceholder {}
