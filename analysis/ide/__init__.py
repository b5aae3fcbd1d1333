"""Editor features computed from an analysis: completion, directive hover, navigation, semantic
tokens and the device view."""
