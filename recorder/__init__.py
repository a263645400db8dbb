"""Talking to the gateway: the client and its retry rule (``client``), the runner with chains (``runner``), the
transport interface (``transport``), vcrpy cassettes and the run manifest (``cassettes``, ``manifest``),
``record`` itself, and the stand-in gateway (``gateway``)."""
