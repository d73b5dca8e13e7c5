# The Slurm backend against a real one-node Slurm each test starts (scripts/slurm-local.sh,
# as root) and stops; no skip: a Slurm that cannot start fails the test with the reason.
campaign_add_python_test(NAME slurm_cancel_resume SCRIPT test_slurm_cancel_resume.py
                         LABELS slurm mpi slow)
campaign_add_python_test(NAME slurm_runner_killed SCRIPT test_slurm_runner_killed.py
                         LABELS slurm mpi slow)
