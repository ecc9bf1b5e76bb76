enum ServiceKitPlaceholder {}
