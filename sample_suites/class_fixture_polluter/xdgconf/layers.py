"""Merge configuration layers: system files first, then the user's, later keys win."""


def merge(*layers):
    merged = {}
    for layer in layers:
        for section, values in layer.items():
            merged.setdefault(section, {}).update(values)
    return merged


def origin(layers, section, key):
    """The index of the layer that supplied section.key in the merge, or None."""
    found = None
    for index, layer in enumerate(layers):
        if key in layer.get(section, {}):
            found = index
    return found


def drop_empty(sections):
    return {name: values for name, values in sections.items() if values}
