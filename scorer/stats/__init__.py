"""Statistics over scored cases (pure): Wilson intervals, clustered rates, paired
tests, power, the exact per-case and history tests, the front's paired tests and bootstrap."""
