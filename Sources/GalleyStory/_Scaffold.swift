// GalleyStory: under construction
