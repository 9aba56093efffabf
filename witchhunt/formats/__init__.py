"""The site's named date formats, per language (settings.FORMAT_MODULE_PATH): a template
writes `date:"DEADLINE_FORMAT"` and each language says how its readers write a deadline,
with Django's own formats for that language behind them. Every language of
settings.LANGUAGES defines every name (tests/site/test_formats.py): a name a language
lacks would be printed as a format of its own letters."""
