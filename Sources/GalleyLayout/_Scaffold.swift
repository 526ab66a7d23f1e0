// GalleyLayout: under construction
