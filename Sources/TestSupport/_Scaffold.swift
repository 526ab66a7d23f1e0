// TestSupport: under construction
