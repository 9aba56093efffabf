"""English: "Mon 3 Mar, 12:00 UTC" (the site's English since its first page)."""

# A deadline or a moment of a game, in the reader's zone, its zone named.
DEADLINE_FORMAT = "D j M, H:i T"
# The same moment in UTC, the page writing "UTC" after it.
DEADLINE_UTC_FORMAT = "D j M, H:i"
# With its year, for a moment that may be far off (a sign-up's start).
DATED_DEADLINE_FORMAT = "D j M Y, H:i T"
# A time of a day already named (midnight, a reminder's time).
CLOCK_FORMAT = "H:i T"
# A moment in an email's sentence, in full ("Monday 3 March, 12:00 UTC").
MOMENT_FORMAT = "l j F, H:i T"
MOMENT_UTC_FORMAT = "l j F, H:i"
# A notice's moment in UTC, written into a post (games/narration/durations.py).
NOTICE_UTC_FORMAT = "D d M, H:i"
# A wall time as typed, in no zone (a time the clocks skip or pass twice: games/wall_time.py).
WALL_TIME_FORMAT = "D d M Y, H:i"
# A moment without the weekday (a notification, a profile's stamp).
WHEN_FORMAT = "j M, H:i T"
STAMP_FORMAT = "j M Y, H:i T"
# Days: an absence's, a thread's day heading, a game's date in the archive.
DAY_FORMAT = "D j M"
DATED_DAY_FORMAT = "D j M Y"
DAY_MONTH_FORMAT = "j M"
CALENDAR_DATE_FORMAT = "j M Y"
FULL_DATE_FORMAT = "l j F Y"
