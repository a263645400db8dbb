"""A model's dated runs as one history and the drift test on it (pure): the
CUSUM and its adaptive threshold's tail exponent, the history, its dispersion check, the history
gate's window and the runs' order."""
