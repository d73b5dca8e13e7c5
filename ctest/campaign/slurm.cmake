# The Slurm backend against a real one-node Slurm each test starts (scripts/slurm-local.sh,
# as root) and stops; no skip: a Slurm that cannot start fails the test with the reason.
campaign_add_python_test(NAME slurm_cancel_resume SCRIPT test_slurm_cancel_resume.py
                         LABELS slurm mpi slow)
campaign_add_python_test(NAME slurm_runner_killed SCRIPT test_slurm_runner_killed.py
                         LABELS slurm mpi slow)
# Each starts its own Slurm and a real LogGP probe inside it: alone, as campaign.smoke.
set_tests_properties(campaign.slurm_cancel_resume campaign.slurm_runner_killed
                     PROPERTIES RUN_SERIAL TRUE)
