"""A browser's label from its User-Agent ("Firefox on Android"): for the member to tell
their browsers apart on the profile. A guess, never a key of anything."""

BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"),
            ("Chrome/", "Chrome"), ("Chromium/", "Chromium"), ("Safari/", "Safari"))  # fmt: skip
SYSTEMS = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"),
           ("Windows", "Windows"), ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"),
           ("Linux", "Linux"))  # fmt: skip


def browser_label(agent: str) -> str:
    browser = next((name for mark, name in BROWSERS if mark in agent), "")
    system = next((name for mark, name in SYSTEMS if mark in agent), "")
    if browser and system:
        return f"{browser} ({system})"
    return browser or system
