"""``suite new`` (pure): a starting suite drafted from a list of tools: its
cases, reference calls, user requests, values a schema accepts and their hints."""
