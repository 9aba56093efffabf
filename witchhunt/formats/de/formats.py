"""German: "Mo., 3. März, 12:00 UTC". The day and month names are Django's German ones;
`N` is the month as German abbreviates it ("Jan.", "März", "Mai", "Dez."), where `M`
would cut "Mär" and "Mai" short. The names are those of witchhunt/formats/en/formats.py."""

DEADLINE_FORMAT = "D., j. N, H:i T"
DEADLINE_UTC_FORMAT = "D., j. N, H:i"
DATED_DEADLINE_FORMAT = "D., j. N Y, H:i T"
CLOCK_FORMAT = "H:i T"
MOMENT_FORMAT = "l, j. F, H:i T"
MOMENT_UTC_FORMAT = "l, j. F, H:i"
NOTICE_UTC_FORMAT = "D., d. N, H:i"
WALL_TIME_FORMAT = "D., d. N Y, H:i"
WHEN_FORMAT = "j. N, H:i T"
STAMP_FORMAT = "j. N Y, H:i T"
DAY_FORMAT = "D., j. N"
DATED_DAY_FORMAT = "D., j. N Y"
DAY_MONTH_FORMAT = "j. N"
CALENDAR_DATE_FORMAT = "j. N Y"
FULL_DATE_FORMAT = "l, j. F Y"
