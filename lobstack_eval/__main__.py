"""``python -m lobstack_eval``: the same CLI as the ``lobstack-eval`` script."""

from lobstack_eval.main import run

run()
