"""Talking to the gateway: the client and its retry rule (``client``), the runner with chains
(``runner``), the transport interface (``transport``), vcrpy cassettes and the run manifest
(``cassettes``, ``manifest``), and ``record`` itself. The stand-in gateway it is tested against is
not here: it is the top-level package ``standin``.
"""
