# Run first in every eval Python kernel (kernel-specs.ts puts it before ipykernel starts).
#
# When the kernel exits (a reset, a shutdown, the end of the run), it ends the other members of its process group, so
# what its cells left running in the background (`!sleep 600 &`, a server started with `subprocess.Popen`) goes with
# the kernel instead of waiting for the end of the run. Jupyter starts each kernel as the leader of a new session, and
# shell commands stay in its group; a kernel killed outright is covered by Jupyter's own group kill, and anything that
# left the group by the keeper of the run (core's process supervisor).
#
# The /proc reading and the pidfd signalling are the keeper's own (core's keeper.py, imported at exit): a member is
# signalled through a pidfd opened after re-checking its start time and group, so a reused pid is never hit.


def end_group_at_exit(keeper_path):
    import atexit, os

    leader = os.getpid()

    def end_group():
        if os.getpgrp() != leader or not os.path.isdir("/proc"):
            return
        import importlib.util, signal

        spec = importlib.util.spec_from_file_location("agent_tools_keeper", keeper_path)
        keeper = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(keeper)
        except OSError:
            return  # the package was removed while the kernel ran; the run's own keeper still ends the group
        keeper.end_group(leader, ((signal.SIGTERM, 0.5), (signal.SIGKILL, 1.0)))

    atexit.register(end_group)
