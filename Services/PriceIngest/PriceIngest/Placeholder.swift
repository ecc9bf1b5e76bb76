enum PriceIngestPlaceholder {}
