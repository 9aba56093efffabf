"""Post rendering's speed: the worst posts we know for a Markdown parser."""

import statistics
import time


def post_cases(n=None):
    """The worst posts we know for a Markdown parser, each as long as a post may be: runs
    that leave a parser looking for a closer that never comes, and nesting."""
    from games.markup import MAX_DEPTH, MAX_LENGTH

    n = n or MAX_LENGTH

    def fill(unit, length=n):
        return (unit * (length // len(unit) + 1))[:length]

    def halves(first, second):
        return fill(first, n // 2) + fill(second, n - n // 2)

    forum_post = (
        "> **Bob** wrote in #12:\n> I was with Cat all night, and she can vouch for me.\n\n"
        "I don't buy it, *Bob*. Here is my case:\n\n"
        "1. You voted Dan on day 1, then **unvoted** when he claimed.\n"
        "2. Your reads changed after the [night post](https://example.com/games/4/#p40).\n"
        "3. Cat never confirmed.\n\n"
        "My reads so far:\n- Ann: town\n- Eve: ~~scum~~ null\n- Fay: scum-lean\n\n"
        "`vote: bob`\n\n"
    )
    cases = {
        "a real forum post, over and over": fill(forum_post),
        "brackets [": fill("["),
        "image openers ![": fill("!["),
        "stars *": fill("*"),
        "underscores _": fill("_"),
        "tildes ~": fill("~"),
        "nested [[...]]": halves("[", "]"),
        "nested [[...a]]": fill("[", n // 2) + "a" + fill("]", n - n // 2 - 1),
        "link openers [a": fill("[a"),
        "link closers a]": fill("a]"),
        "[ (](": fill("[ (]("),
        "![[]()": fill("![[]()"),
        "unclosed links [a](<b": fill("[a](<b"),
        "unclosed links [a](b": fill("[a](b"),
        'unclosed titles [a](b "': fill('[a](b "'),
        "emphasis *a": fill("*a"),
        "emphasis *a_": fill("*a_ "),
        "emphasis openers _a": fill("_a "),
        "emphasis closers a_": fill("a_ "),
        "nested strong *a **a": halves("*a **a ", " a** a*"),
        "a**b c*": "a**b" + fill("c* ", n - 4),
        "[ a_": fill("[ a_"),
        "**x [": fill("**x ["),
        "strikethrough ~~a": fill("~~a "),
        "backticks `": fill("`"),
        "backtick runs e`, e``, ...": "".join("e" + "`" * i for i in range(1, 400))[:n],
        "backticks `a": fill("`a"),
        "link reference definitions": (
            "".join(f"[{i}]: http://x.example/{i}\n" for i in range(n))[: n // 2]
            + fill("[1] ", n - n // 2)
        ),
        "link references [a][a]": "[a]: http://x.example\n" + fill("[a][a] ", n - 22),
        "< run": fill("<"),
        "& run": fill("&"),
        "entities &#": fill("&#"),
        "autolinks <http://": fill("<http://"),
        "<!-- run": fill("<!--"),
        "backslashes": fill("\\"),
        "quotes > > > (too deep)": fill("> "),
        "dashes - - - (one rule)": fill("- "),
        "lists - - - a (too deep)": fill("- ", n - 1) + "a",
        "numbered 1. 1. 1. (too deep)": fill("1. "),
        "indented lists (too deep)": "".join("  " * i + "* a\n" for i in range(n))[:n],
        "quotes and lists > - > - (too deep)": fill("> - "),
        f"quotes {MAX_DEPTH} deep, every line": fill("> " * MAX_DEPTH + "a\n"),
        f"lists {MAX_DEPTH} deep, over and over": fill(
            "".join("  " * i + "- a\n" for i in range(MAX_DEPTH))
        ),
        "short lines a\\n": fill("a\n"),
        "a flat list - a": fill("- a\n"),
        "a numbered list 1. a": fill("1. a\n"),
        "quoted lines > a": fill("> a\n"),
        "tags <a ": fill("<a "),
        "hard breaks": fill("a  \n"),
        "headings #": fill("# a\n"),
        "setext headings": fill("a\n---\n"),
        "fences ```": fill("```\n"),
        "spaces and tabs": "a" + fill(" \t", n - 2) + "a",
        "pipes |a": fill("|a"),
        "one long word": fill("a"),
        "combining marks (Zalgo)": fill("a" + "\u0300" * 300),
    }
    return {name: text[:n] for name, text in cases.items()}


def post_render_ms(text, runs):
    """(median, worst) CPU ms to clean, render and sanitise one post as the services do
    before storing it (services.posts.post_body), and whether it is refused; a refused post
    costs what it took to refuse it. CPU time, not wall time: on a busy machine the wall
    clock counts other processes' turns too."""
    from games.engine import GameRuleError
    from games.services.posts import post_body

    times, refused = [], False
    for _ in range(runs):
        start = time.process_time()
        try:
            post_body(text)
        except GameRuleError:
            refused = True
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000, max(times) * 1000, refused


def run(write, options):
    runs = options.runs
    from games.markup import MAX_LENGTH

    post_render_ms("warm *up* [the](http://x.example) parser", 3)
    worst = None
    for name, text in post_cases().items():
        median, most, refused = post_render_ms(text, runs)
        write(
            f"post.render    {name}, {len(text):,} chars: median {median:.2f} ms, "
            f"max {most:.2f} ms CPU over {runs} runs{' (refused)' if refused else ''}"
        )
        if worst is None or median > worst[1]:
            worst = (name, median)
    write(
        f"post.render    worst case: {worst[0]}, median {worst[1]:.2f} ms CPU "
        f"(clean + render + sanitise a {MAX_LENGTH:,}-character post; target <= 50 ms each)"
    )
