"""The simulation lab: thousands of seeded games into tables, with progress, a results file
that resumes, three backends (here, local processes, Dask), statistics and charts.

The entry point is :func:`pangaea_lab.simulate` (the module ``pangaea_lab.simulate`` is itself
callable, and ``python -m pangaea_lab.simulate`` is its command line).  This package imports
nothing heavy at first: a worker process needs only :mod:`pangaea_lab.sim.play`.
"""
