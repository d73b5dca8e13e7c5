"""suite-campaign: one runner from a spec to runs, results and a report (issue 38).

spec (TOML) -> plan (steps) -> backend (local mpiexec or Slurm) -> store (campaign.json)
-> report. The command line is in cli.py.
"""
