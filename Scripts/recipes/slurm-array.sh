#!/bin/bash
# A ledger split by account, imported by a Slurm job array: one task per part, the task id
# (1 .. N) picking the part. The inbox and the state folders are on a shared file system.
# Submit, then report once when every task has ended:
#   job=$(sbatch --parsable Scripts/recipes/slurm-array.sh)
#   sbatch --dependency=afterany:$job --wrap 'statements report --state /shared/ledger-1 \
#       --state /shared/ledger-2 --state /shared/ledger-3 --state /shared/ledger-4 \
#       --from 2026-01 --to 2026-10 --out /shared/reports'
# (Scripts/shard-local does both steps on one machine, and is what the test suite runs.)
# Not run here: no Slurm cluster.
#SBATCH --job-name=statements-import
#SBATCH --array=1-4
#SBATCH --cpus-per-task=2
set -euo pipefail
parts=${SLURM_ARRAY_TASK_COUNT:-4}
exec statements import /shared/inbox --shard "$SLURM_ARRAY_TASK_ID/$parts" \
    --state "/shared/ledger-$SLURM_ARRAY_TASK_ID"
