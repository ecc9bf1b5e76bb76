enum ServiceTestingPlaceholder {}
