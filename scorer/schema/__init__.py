"""Tool schemas (pure): the method page's subset and its validation, whole JSON
Schema for own suites with its formats, the budget untrusted schemas are checked against, and
a tool's schema as sent."""
