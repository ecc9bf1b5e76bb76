enum FuelLookupPlaceholder {}
