enum FuelboardCLIPlaceholder {}
