"""The suite (pure): the suite file's bytes (JSON or YAML) -> the frozen ``Suite``,
its keys, rules, tools, origin, accepted wrong answers and conversation."""
