"""The wire format (pure): a run's dialect, streaming and settings as one value, each
dialect's request body and answer decoding, streamed answers, the gateway's headers and prices,
calls written as text, and the dialect matrix."""
