enum SampleFeedsPlaceholder {}
