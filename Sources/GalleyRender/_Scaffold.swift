// GalleyRender: under construction
