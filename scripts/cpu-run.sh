#!/usr/bin/env bash
# scripts/cpu-run.sh NAME cmd...: runs cmd in a cpuacct cgroup of its own and prints, at the end, the
# CPU seconds of the whole process tree and the wall seconds. `time` counts only the children it waits
# for; the workerd that wrangler starts and Chromium's helpers are not among them, and they are most of
# a test run's CPU. Linux with the cgroup v1 cpuacct controller mounted at /sys/fs/cgroup/cpuacct, as
# root (docs/testing.md, "Measuring CPU").
set -u
name="$1"; shift
root=/sys/fs/cgroup/cpuacct
[ -w "$root" ] || { echo "cpu-run: $root is not a writable cgroup v1 cpuacct hierarchy (Linux, as root)" >&2; exit 2; }
command -v bc >/dev/null || { echo "cpu-run: needs bc" >&2; exit 2; }
cg=$root/cpurun-$name-$$
mkdir -p "$cg"
echo $$ > "$cg/tasks"
start=$(date +%s.%N)
"$@"
rc=$?
sleep 1
end=$(date +%s.%N)
usage=$(cat "$cg/cpuacct.usage")
echo "CPU-RUN $name: rc=$rc wall $(echo "$end - $start - 1" | bc) s, cpu $(echo "scale=1; $usage/1000000000" | bc) s (user+sys, whole tree)"
echo $$ > /sys/fs/cgroup/cpuacct/tasks
for p in $(cat "$cg/tasks" 2>/dev/null); do echo "CPU-RUN $name: still running after the command: $(ps -o pid=,comm= -p $p)"; done
rmdir "$cg" 2>/dev/null
exit $rc
