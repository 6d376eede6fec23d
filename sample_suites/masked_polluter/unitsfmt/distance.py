from unitsfmt import settings

MILES_PER_KM = 0.621371


def describe(km):
    """`km` as the settings want it: '12.5 km', '7.8 mi', '12,5 km'."""
    if settings.get("units") == "imperial":
        value, unit = km * MILES_PER_KM, "mi"
    else:
        value, unit = km, "km"
    text = f"{value:.1f}"
    if settings.get("locale") == "fr":
        text = text.replace(".", ",")
    return f"{text} {unit}"
