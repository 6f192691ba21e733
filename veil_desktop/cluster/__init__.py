"""``veil-redact redact --workers N`` / ``--scheduler ADDR``: the batch on Dask distributed (optional extra
``veil-desktop[cluster]``). No Qt; Dask is imported only when a cluster run is asked for.

- ``security``: which scheduler addresses may be used (loopback, or TLS with CA/cert/key, or ``--insecure``);
- ``manifest``: the resumable SQLite manifest in ``--out`` (only the client writes it);
- ``plugin``: the worker plugin that loads the detector once per worker process, and the task function;
- ``run``: the client side (cluster start/connect, grouping, isolation, progress, summary).
"""
