// GalleyCLI: under construction
