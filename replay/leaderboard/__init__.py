"""The leaderboard: its markdown, CSV and tiers (``tables``), its terminal table (``text``), the
board of any slice of rows (``slices``), the cost-quality pick over a slice (``pick``), and a
reports dir's tables written (``report_tables``). A docstring only: the modules are imported by
name, so no module imports this package back."""
