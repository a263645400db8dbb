"""Offline work on recordings: cassette-backed replay (``cassettes``), ``rescore``, the
leaderboard, the HTML report (``html``), what ``record`` must fill (``plan``), and diffs of
suites and runs."""
