"""The kinds of answer ``suite audit`` generates: wrong ones (mutants) and right ones, each with a
short meaning.

A kind names a generator; an ``audit_accept`` marker in the suite names one of the argument-level
wrong kinds.
"""

from __future__ import annotations

# Wrong answers that change one argument of one call: an ``audit_accept`` marker may name these.
ARG_WRONG = {
    "off_by_one": "an integer one more or one less (within the schema's bounds)",
    "flipped": "a boolean flipped",
    "enum_neighbour": "the neighbouring value of the schema's enum",
    "other_offered": "another path, channel, address or URL offered in the request or an earlier "
    "result",
    "item_dropped": "an array missing one item",
    "part_dropped": "a string with one specific part the request names (a number, name, path, id) "
    "dropped",
    "generic_text": "a text argument replaced by a message that says nothing",
    "result_ignored": "a string without the part the previous step's result gave",
    "required_left_out": "a required argument left out",
    "left_out": "an optional argument the reference gives (not at its schema default) left out",
    "field_dropped": "a field of an object argument left out",
}
# Wrong answers to a whole step: the judge's name and count rules kill them, whatever the checks.
STEP_WRONG = {
    "other_tool": "another offered tool in place of the right one",
    "extra_call": "an extra call (the first call again)",
    "call_missing": "one call of a parallel step left out",
    "text_answer": "a text answer where a call is expected",
    "call_where_none": "a call where none is expected",
}
RIGHT = {
    "reference": "the case's reference answer",
    "key_order": "the reference's arguments in another key order",
    "call_order": "the parallel calls in another order",
    "default_given": "an optional argument the request does not fix, given its schema default",
    "default_left_out": "an optional argument equal to its schema default, left out",
    "float_number": "integers written as JSON floats (10 as 10.0)",
    "final_newline": "a multi-line text with the final newline added or taken away",
    "case_variant": "a contains/regex-checked text in other letter case",
    "no_call": "a text answer where no call is expected",
}
