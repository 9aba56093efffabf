"""`python manage.py bench` (`make bench`): every benchmark in games/benchmarks/, printed
as numbers."""

from importlib import import_module

from django.core.management.base import BaseCommand

from games import benchmarks


class Command(BaseCommand):
    help = "Run the benchmarks and print their numbers."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=21)
        parser.add_argument("--seconds", type=float, default=5.0)
        parser.add_argument("--clock-games", type=int, default=1000)
        parser.add_argument("--only", choices=benchmarks.PARTS, action="append")
        for name in benchmarks.PARTS:  # a part's own options, e.g. load's --load-seconds
            add = getattr(import_module(f"{benchmarks.__name__}.{name}"), "add_arguments", None)
            if add:
                add(parser)

    def handle(self, *args, only, **options):
        from argparse import Namespace

        for name in only or benchmarks.PARTS:
            benchmarks.run(name, self.stdout.write, Namespace(**options))
