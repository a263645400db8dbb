"""``drift``'s I/O edge and views: a model's history read from results files, a rows
root or recordings, each run's identity, the timeline, and what ``drift`` prints."""
