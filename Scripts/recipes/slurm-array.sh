#!/bin/bash
# A ledger split by account, processed by a Slurm job array: one task per part, the task id
# (1 .. N) picking the part. The inbox, the state folders and the reports are on a shared
# file system; every task writes its own accounts' statements into the one reports folder,
# and the month indexes list every part's accounts once every task has ended.
#   sbatch Scripts/recipes/slurm-array.sh
# (Scripts/shard-local does the same on one machine, and is what the test suite runs.)
# Not run here: no Slurm cluster.
#SBATCH --job-name=statements-process
#SBATCH --array=1-4
#SBATCH --cpus-per-task=2
set -euo pipefail
parts=${SLURM_ARRAY_TASK_COUNT:-4}
exec statements process /shared/inbox --shard "$SLURM_ARRAY_TASK_ID/$parts" \
    --state "/shared/ledger-$SLURM_ARRAY_TASK_ID" --out /shared/reports
